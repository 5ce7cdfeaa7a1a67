// A backend's capabilities as `testmap backend scan|dump` writes them
// (docs/backend.md): one record per registration with the seven core fields
// op, dispatch_key, kind, mechanism, file, line, evidence; JSON Lines, or
// one `--format json` document with a "records" list. The index stores a
// backend's records under its name (column family `backends`,
// index_backends.h); admission reads them as what the backend can run.
//
// This reader takes the documented fields only. analyzers/backend owns the
// format (registration_json.h); once that library is on main this file
// becomes a thin adapter over its reader rather than a second one.
#pragma once

#include <string>
#include <vector>

namespace testmap::indexer {

struct BackendRecord {
  std::string op;            // canonical overload (`aten::add.Tensor`); "" for a fallback or hook
  std::string dispatch_key;  // `PrivateUse1`, `AutogradPrivateUse1`...; "" for a definition
  std::string kind;          // kernel | fallback | fallthrough | definition | stub | hook
  std::string mechanism;     // `m.impl`, `register_kernel`, `dispatcher`...
  std::string file;          // where it was registered, "" when unknown
  int line = 0;              // 1-based, 0 when unknown
  std::string evidence;      // static | runtime

  // "file:line (mechanism)", or the mechanism alone when no file is known.
  std::string Source() const;
  bool operator==(const BackendRecord&) const = default;
  auto operator<=>(const BackendRecord&) const = default;
};

// Whether `text` (a whole file) is backend records: its first non-blank line
// is a record (has "kind" and "mechanism" and no "type"), or it is a
// `testmap-backend/1` document.
bool LooksLikeBackendRecords(const std::string& text);

// Parses either form. Operator names are canonicalized through
// core/op_names.h. Throws core::InputError naming `path` and the line (or
// the record number in a document) of a malformed record.
std::vector<BackendRecord> ParseBackendRecords(const std::string& text, const std::string& path);

// One record as a JSON object in the documented field order, and back.
std::string BackendRecordJson(const BackendRecord& r);

}  // namespace testmap::indexer
