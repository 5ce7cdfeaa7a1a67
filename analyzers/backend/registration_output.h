// Renders registrations: a table grouped by dispatch key with counts for
// people; one `testmap-backend/1` JSON document or JSON Lines (one record a
// line, registration_json.h) for machines.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "analyzers/backend/diagnostic.h"
#include "analyzers/backend/registration.h"

namespace testmap::backend {

enum class RecordFormat { kTable, kJson, kJsonl };

struct RecordSet {
  std::vector<Registration> records;
  std::vector<Diagnostic> diagnostics;
  Evidence evidence = Evidence::kStatic;
  std::string torch_version;
  std::string root;  // what record files are relative to (static), or empty
};

void WriteRecords(const RecordSet& set, RecordFormat format, std::ostream& out);

}  // namespace testmap::backend
