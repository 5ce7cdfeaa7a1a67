#include "indexer/backend_records.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/jsonl_lines.h"
#include "core/op_names.h"

namespace testmap::indexer {
namespace {

using nlohmann::json;

constexpr const char* kDocumentFormat = "testmap-backend/1";
constexpr const char* kKinds[] = {"kernel",     "fallback", "fallthrough",
                                  "definition", "stub",     "hook"};

bool IsRecord(const json& j) {
  return j.is_object() && j.contains("kind") && j.contains("mechanism") && !j.contains("type");
}

// A string field; null or absent reads as "" where `nullable`.
std::string Field(const json& j, const char* key, bool nullable) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) {
    if (nullable) return "";
    throw std::invalid_argument(std::string("missing field \"") + key + "\"");
  }
  if (!it->is_string()) throw std::invalid_argument(std::string("\"") + key + "\" is not a string");
  return it->get<std::string>();
}

BackendRecord FromJson(const json& j) {
  if (!j.is_object()) throw std::invalid_argument("a record must be a JSON object");
  BackendRecord r;
  r.kind = Field(j, "kind", false);
  if (std::find(std::begin(kKinds), std::end(kKinds), r.kind) == std::end(kKinds))
    throw std::invalid_argument("unknown kind \"" + r.kind + "\"");
  r.mechanism = Field(j, "mechanism", false);
  r.dispatch_key = Field(j, "dispatch_key", true);
  r.file = Field(j, "file", true);
  r.evidence = Field(j, "evidence", true);
  if (!r.evidence.empty() && r.evidence != "static" && r.evidence != "runtime")
    throw std::invalid_argument("unknown evidence \"" + r.evidence + "\"");
  if (auto it = j.find("line"); it != j.end() && !it->is_null()) {
    if (!it->is_number_integer() || it->get<int64_t>() < 0 || it->get<int64_t>() > (1 << 30))
      throw std::invalid_argument("\"line\" is not a line number");
    r.line = it->get<int>();
  }
  std::string op = Field(j, "op", true);
  if (!op.empty()) {
    auto canonical = core::CanonicalOpName(op);
    if (!canonical) throw std::invalid_argument("\"op\" `" + op + "` is not an operator name");
    r.op = *canonical;
  }
  if (r.kind == "kernel" && r.op.empty())
    throw std::invalid_argument("a kernel record needs an op");
  if (r.kind != "definition" && r.kind != "hook" && r.dispatch_key.empty())
    throw std::invalid_argument("a " + r.kind + " record needs a dispatch_key");
  return r;
}

}  // namespace

std::string BackendRecord::Source() const {
  if (file.empty()) return mechanism;
  return file + (line > 0 ? ":" + std::to_string(line) : "") + " (" + mechanism + ")";
}

bool LooksLikeBackendRecords(const std::string& text) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return false;
  if (text.compare(first, 1, "{") == 0 && text.find("\"records\"") != std::string::npos) {
    json doc = json::parse(text, nullptr, false);
    if (doc.is_object() && doc.value("format", "") == kDocumentFormat) return true;
  }
  size_t end = text.find('\n', first);
  json line =
      json::parse(text.substr(first, end == std::string::npos ? end : end - first), nullptr, false);
  return IsRecord(line);
}

std::vector<BackendRecord> ParseBackendRecords(const std::string& text, const std::string& path) {
  std::vector<BackendRecord> out;
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return out;
  if (text[first] == '{' && text.find("\"records\"") != std::string::npos) {
    json doc = json::parse(text, nullptr, false);
    if (doc.is_object() && doc.contains("records")) {
      if (doc.value("format", "") != kDocumentFormat)
        throw core::InputError(path, 1, std::string("not a ") + kDocumentFormat + " document");
      if (!doc["records"].is_array()) throw core::InputError(path, 1, "\"records\" is not a list");
      for (size_t i = 0; i < doc["records"].size(); ++i) {
        try {
          out.push_back(FromJson(doc["records"][i]));
        } catch (const std::exception& e) {
          throw core::InputError(path, 0, "record " + std::to_string(i + 1) + ": " + e.what());
        }
      }
      return out;
    }
  }
  core::ForEachJsonlLine(text, [&](const core::JsonlLine& line) {
    json j = json::parse(line.text, nullptr, false);
    if (j.is_discarded())
      throw core::InputError(path, line.number,
                             line.last_without_newline ? "truncated record" : "not JSON");
    try {
      out.push_back(FromJson(j));
    } catch (const std::exception& e) {
      throw core::InputError(path, line.number, e.what());
    }
  });
  return out;
}

std::string BackendRecordJson(const BackendRecord& r) {
  nlohmann::ordered_json j;
  j["op"] = r.op.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.op);
  j["dispatch_key"] = r.dispatch_key.empty() ? nlohmann::ordered_json(nullptr)
                                             : nlohmann::ordered_json(r.dispatch_key);
  j["kind"] = r.kind;
  j["mechanism"] = r.mechanism;
  j["file"] = r.file.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.file);
  j["line"] = r.line > 0 ? nlohmann::ordered_json(r.line) : nlohmann::ordered_json(nullptr);
  j["evidence"] = r.evidence.empty() ? "static" : r.evidence;
  return j.dump();
}

}  // namespace testmap::indexer
