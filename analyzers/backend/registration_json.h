// The record format of docs/backend.md: one registration as one JSON
// object, JSON Lines for a list. Every record carries the seven core
// fields (op and dispatch_key are null where they do not apply); optional
// detail appears only when set. This is the only place that spells the
// format: the scan, the dump, the Clang reader's output and whatever
// ingests backend capabilities all go through it.
#pragma once

#include <istream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "analyzers/backend/diagnostic.h"
#include "analyzers/backend/registration.h"

namespace testmap::backend {

// Names the format in `--format json` documents.
inline constexpr const char* kRecordFormat = "testmap-backend/1";

// Fields in the documented order (op, dispatch_key, kind, mechanism, file,
// line, evidence, then the optional ones).
nlohmann::ordered_json ToJson(const Registration& r);
// Throws std::invalid_argument naming the offending field.
Registration FromJson(const nlohmann::json& j);

nlohmann::ordered_json ToJson(const Diagnostic& d);
Diagnostic DiagnosticFromJson(const nlohmann::json& j);

// Bad input to ReadRegistrations: `what()` is `name:line: message`.
class FormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads what `testmap backend scan|dump` wrote: JSON Lines (one record a
// line; blank lines ignored; a last line cut short is skipped, as
// core/jsonl_lines.h rules) or one `--format json` document. `name`
// (usually the file's path) prefixes errors. Throws FormatError.
std::vector<Registration> ReadRegistrations(std::istream& in, const std::string& name);

}  // namespace testmap::backend
