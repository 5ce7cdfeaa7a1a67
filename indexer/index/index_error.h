// Errors of the index: bad input files (named with file and line), an index
// this build cannot read, a directory that is no index. Every one of them
// reaches the user as one clear line and a non-zero exit; none of them ever
// leaves a half-written index behind (ingestion commits in one step).
#pragma once

#include <stdexcept>
#include <string>

namespace testmap::indexer {

class IndexError : public std::runtime_error {
 public:
  // `what()` is the message as given.
  explicit IndexError(const std::string& message) : std::runtime_error(message) {}
  // `what()` is "FILE:LINE: message" (line 0: "FILE: message").
  IndexError(const std::string& file, int line, const std::string& message);
};

}  // namespace testmap::indexer
