// The one error type the timing readers throw: it always names the file and,
// where the format allows, the line, so a CI log points at the culprit.
#pragma once

#include <stdexcept>
#include <string>

namespace testmap::indexer {

class TimingError : public std::runtime_error {
 public:
  // `line` 0 means "no line known". what() reads "FILE:LINE: MESSAGE".
  TimingError(std::string file, int line, const std::string& message);

  const std::string& file() const { return file_; }
  int line() const { return line_; }

 private:
  std::string file_;
  int line_;
};

// Throws TimingError unless `seconds` is a finite, non-negative duration.
// `what` names the item in the message.
void CheckDuration(double seconds, const std::string& file, int line, const std::string& what);

}  // namespace testmap::indexer
