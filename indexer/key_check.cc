#include "indexer/key_check.h"

#include "core/errors.h"
#include "core/key_field.h"

namespace testmap::indexer {

void CheckScanKeys(const std::vector<ScannedTest>& tests, const std::string& path) {
  for (const ScannedTest& t : tests) {
    core::CheckKeyField(t.nodeid, "node id", path, t.line);
    core::CheckKeyField(t.generic_id, "generic id", path, t.line, /*allow_empty=*/true);
    core::CheckValueItem(t.device, "device", path, t.line);
    core::CheckValueItem(t.static_tuple.device, "device", path, t.line);
    for (const auto& d : t.static_tuple.dtypes) core::CheckValueItem(d, "dtype", path, t.line);
  }
}

void CheckTraceKeys(const TraceInput& trace) {
  for (const TracedTest& t : trace.tests) {
    core::CheckKeyField(t.nodeid, "node id", trace.path, t.line);
    for (const TracedEdge& e : t.edges) {
      core::CheckKeyField(e.packet(), "operator", trace.path, t.line);
      core::CheckKeyField(e.overload(), "overload", trace.path, t.line, /*allow_empty=*/true);
    }
  }
}

void CheckTimingKeys(const std::vector<timings::TimingRecord>& records) {
  for (const auto& r : records) {
    core::CheckKeyField(r.id, "timing id", r.source, r.line);
    core::CheckKeyField(r.job, "job", r.source, r.line, /*allow_empty=*/true);
    core::CheckKeyField(r.config, "config", r.source, r.line, /*allow_empty=*/true);
  }
}

void CheckBackendName(const std::string& name) {
  if (auto problem = core::KeyFieldProblem(name))
    throw core::UsageError("backend name " + core::ShownField(name) + " " + *problem);
}

}  // namespace testmap::indexer
