#include "core/errors.h"

namespace testmap::core {
namespace {

std::string Located(const std::string& file, int line, const std::string& message) {
  if (file.empty()) return message;
  return file + (line > 0 ? ":" + std::to_string(line) : "") + ": " + message;
}

}  // namespace

InputError::InputError(std::string file, int line, const std::string& message)
    : std::runtime_error(Located(file, line, message)), file_(std::move(file)), line_(line) {}

UnknownNameError::UnknownNameError(const std::string& kind, const std::string& name,
                                   std::vector<std::string> suggestions, const std::string& message)
    : std::runtime_error(message.empty() ? "unknown " + kind + " `" + name + "`" : message),
      kind_(kind),
      name_(name),
      suggestions_(std::move(suggestions)) {}

}  // namespace testmap::core
