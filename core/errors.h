// The errors every stage reports, one type per exit code of the CLI's
// table (docs/exit-codes.md): the library says what went wrong, the CLI's
// one error handler (cli/run_command.h) turns it into a line on stderr and
// the documented exit code. Anything else escaping a command is a bug and
// still exits 1, never 0.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace testmap::core {

// Bad input: a file (and the line, when the format has lines) and what is
// wrong with it. Exit 1. what() reads "FILE:LINE: MESSAGE", "FILE: MESSAGE"
// without a line, or just MESSAGE without a file.
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, int line, const std::string& message);
  explicit InputError(const std::string& message) : InputError("", 0, message) {}

  const std::string& file() const { return file_; }
  int line() const { return line_; }  // 0: no line known

 private:
  std::string file_;
  int line_;
};

// Options that parse but make no sense together (`--split 3` without
// `--splits`). Exit 2, like CLI11's own usage errors.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A name that is not known: an operator, dtype, device, role, test.
// Exit 3; the handler prints the suggestions ("did you mean: ...").
class UnknownNameError : public std::runtime_error {
 public:
  // what() is "unknown KIND `NAME`", or `message` when given.
  UnknownNameError(const std::string& kind, const std::string& name,
                   std::vector<std::string> suggestions, const std::string& message = "");

  const std::string& kind() const { return kind_; }
  const std::string& name() const { return name_; }
  const std::vector<std::string>& suggestions() const { return suggestions_; }

 private:
  std::string kind_, name_;
  std::vector<std::string> suggestions_;
};

}  // namespace testmap::core
