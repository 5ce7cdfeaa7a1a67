#include "analyzers/backend/registration_json.h"

#include "core/jsonl_lines.h"

namespace testmap::backend {
namespace {

using nlohmann::json;

std::string StringField(const json& j, const char* key, bool nullable) {
  auto it = j.find(key);
  if (it == j.end() || (nullable && it->is_null())) {
    if (nullable) return "";
    throw std::invalid_argument(std::string("missing field \"") + key + "\"");
  }
  if (!it->is_string()) throw std::invalid_argument(std::string("\"") + key + "\" is not a string");
  return it->get<std::string>();
}

std::string OptionalString(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return "";
  if (!it->is_string()) throw std::invalid_argument(std::string("\"") + key + "\" is not a string");
  return it->get<std::string>();
}

nlohmann::ordered_json NullIfEmpty(const std::string& s) {
  return s.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s);
}

}  // namespace

nlohmann::ordered_json ToJson(const Registration& r) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  j["op"] = NullIfEmpty(r.op);
  j["dispatch_key"] = NullIfEmpty(r.dispatch_key);
  j["kind"] = KindName(r.kind);
  j["mechanism"] = r.mechanism;
  j["file"] = NullIfEmpty(r.file);
  j["line"] = r.line > 0 ? nlohmann::ordered_json(r.line) : nlohmann::ordered_json(nullptr);
  j["evidence"] = EvidenceName(r.evidence);
  if (!r.macro.empty()) j["macro"] = r.macro;
  if (!r.kernel.empty()) j["kernel"] = r.kernel;
  if (!r.symbol.empty()) j["symbol"] = r.symbol;
  if (!r.schema.empty()) j["schema"] = r.schema;
  if (!r.packet.empty()) j["packet"] = r.packet;
  if (r.upper_bound) j["upper_bound"] = true;
  if (!r.in_registry) j["in_registry"] = false;
  return j;
}

Registration FromJson(const json& j) {
  if (!j.is_object()) throw std::invalid_argument("a record must be a JSON object");
  Registration r;
  r.op = StringField(j, "op", true);
  r.dispatch_key = StringField(j, "dispatch_key", true);
  std::string kind = StringField(j, "kind", false);
  auto k = ParseKind(kind);
  if (!k) throw std::invalid_argument("unknown kind \"" + kind + "\"");
  r.kind = *k;
  r.mechanism = StringField(j, "mechanism", false);
  r.file = StringField(j, "file", true);
  if (auto it = j.find("line"); it != j.end() && !it->is_null()) {
    if (!it->is_number_integer() || it->get<int64_t>() < 0 || it->get<int64_t>() > 1 << 30)
      throw std::invalid_argument("\"line\" is not a line number");
    r.line = it->get<int>();
  }
  std::string evidence = StringField(j, "evidence", false);
  auto e = ParseEvidence(evidence);
  if (!e) throw std::invalid_argument("unknown evidence \"" + evidence + "\"");
  r.evidence = *e;
  r.macro = OptionalString(j, "macro");
  r.kernel = OptionalString(j, "kernel");
  r.symbol = OptionalString(j, "symbol");
  r.schema = OptionalString(j, "schema");
  r.packet = OptionalString(j, "packet");
  if (auto it = j.find("upper_bound"); it != j.end()) {
    if (!it->is_boolean()) throw std::invalid_argument("\"upper_bound\" is not a boolean");
    r.upper_bound = it->get<bool>();
  }
  if (auto it = j.find("in_registry"); it != j.end()) {
    if (!it->is_boolean()) throw std::invalid_argument("\"in_registry\" is not a boolean");
    r.in_registry = it->get<bool>();
  }
  if (r.kind == Kind::kKernel && r.op.empty())
    throw std::invalid_argument("a kernel record needs an op");
  if (r.kind != Kind::kDefinition && r.dispatch_key.empty() && r.kind != Kind::kHook)
    throw std::invalid_argument("a " + kind + " record needs a dispatch_key");
  return r;
}

nlohmann::ordered_json ToJson(const Diagnostic& d) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  j["severity"] = d.severity == Diagnostic::Severity::kError ? "error" : "warning";
  j["file"] = NullIfEmpty(d.file);
  j["line"] = d.line > 0 ? nlohmann::ordered_json(d.line) : nlohmann::ordered_json(nullptr);
  j["message"] = d.message;
  return j;
}

Diagnostic DiagnosticFromJson(const json& j) {
  Diagnostic d;
  d.severity = j.value("severity", "error") == "warning" ? Diagnostic::Severity::kWarning
                                                         : Diagnostic::Severity::kError;
  d.file = OptionalString(j, "file");
  if (auto it = j.find("line"); it != j.end() && it->is_number_integer()) d.line = it->get<int>();
  d.message = OptionalString(j, "message");
  return d;
}

std::vector<Registration> ReadRegistrations(std::istream& in, const std::string& name) {
  std::vector<Registration> out;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return out;
  if (text[first] == '{' && text.find("\"records\"") != std::string::npos) {
    // A whole `--format json` document, or a JSON Lines file whose first
    // record happens to mention "records": try the document first.
    json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_object() && doc.contains("records")) {
      if (doc.value("format", "") != kRecordFormat)
        throw FormatError(name + ":1: not a " + std::string(kRecordFormat) + " document");
      if (!doc["records"].is_array()) throw FormatError(name + ":1: \"records\" is not a list");
      for (size_t i = 0; i < doc["records"].size(); ++i) {
        try {
          out.push_back(FromJson(doc["records"][i]));
        } catch (const std::exception& e) {
          throw FormatError(name + ": record " + std::to_string(i + 1) + ": " + e.what());
        }
      }
      return out;
    }
  }
  core::ForEachJsonlLine(text, [&](const core::JsonlLine& line) {
    try {
      out.push_back(FromJson(json::parse(line.text)));
    } catch (const std::exception& e) {
      // A last line cut short (a writer killed mid-line) is the one bad
      // line a reader goes past, as core/jsonl_lines.h says.
      if (line.last_without_newline && dynamic_cast<const json::parse_error*>(&e)) return;
      throw FormatError(name + ":" + std::to_string(line.number) + ": " + e.what());
    }
  });
  return out;
}

}  // namespace testmap::backend
