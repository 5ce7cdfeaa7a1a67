#include "indexer/backend_input.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "analyzers/backend/registration_json.h"
#include "core/errors.h"
#include "core/json_depth.h"

namespace testmap::indexer {

bool LooksLikeBackendRecords(const std::string& text) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return false;
  // Records nest a few levels; deeper text is no backend record, and its
  // reader must never be handed it (core/json_depth.h).
  if (core::JsonDepth(text, core::kMaxJsonRecordDepth) > core::kMaxJsonRecordDepth) return false;
  if (text[first] == '{' && text.find("\"records\"") != std::string::npos) {
    auto doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_object() && doc.value("format", "") == backend::kRecordFormat) return true;
  }
  size_t end = text.find('\n', first);
  auto line = nlohmann::json::parse(
      text.substr(first, end == std::string::npos ? std::string::npos : end - first), nullptr,
      false);
  if (!line.is_object() || line.contains("type")) return false;
  try {
    backend::FromJson(line);
    return true;
  } catch (const std::exception&) {
    // A record with a bad field is still a record file: its reader names
    // the field, where "not a timing file" would say nothing.
    return line.contains("kind") && line.contains("mechanism");
  }
}

std::vector<backend::Registration> ReadBackendRecords(const std::string& text,
                                                      const std::string& path) {
  std::istringstream in(text);
  try {
    return backend::ReadRegistrations(in, path);
  } catch (const backend::FormatError& e) {
    throw core::InputError(e.what());  // already "path:line: message"
  }
}

std::string RegistrationSource(const backend::Registration& r) {
  if (r.file.empty()) return r.mechanism;
  return r.file + (r.line > 0 ? ":" + std::to_string(r.line) : "") + " (" + r.mechanism + ")";
}

}  // namespace testmap::indexer
