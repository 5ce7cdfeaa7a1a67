#include "mapper/report/admission_view.h"

#include <algorithm>
#include <map>

#include "core/errors.h"
#include "indexer/index_backends.h"
#include "mapper/admit/admission.h"

namespace testmap::report {
namespace {

AdmissionView ViewOf(const admit::Admission& a, const CoverageMatrix& coverage) {
  AdmissionView v;
  v.backend = a.caps.backend;
  v.dispatch_key = a.caps.dispatch_key;
  v.origin = a.caps.origin;
  v.device = a.device;
  v.tests = a.tests.size();
  v.admitted = a.Count(admit::State::kAdmitted);
  v.blocked = a.Count(admit::State::kBlocked);
  v.unknown = a.Count(admit::State::kUnknown);
  v.notes = a.notes;
  std::map<std::string, size_t> blocks;
  for (const auto& t : a.tests)
    for (const auto& m : t.missing) ++blocks[m.op];
  std::map<std::string, size_t> ran;
  for (const CoverageRow& row : coverage.rows) ran[row.op] = row.any().entries.size();
  for (const auto& [op, r] : a.ops) {
    AdmissionOp o;
    o.op = op;
    o.route = admit::RouteName(r.route);
    o.source = r.source;
    o.composite_explicit = r.composite_explicit;
    if (auto it = blocks.find(op); it != blocks.end()) o.blocks = it->second;
    if (auto it = ran.find(op); it != ran.end()) o.tests = it->second;
    v.ops.push_back(std::move(o));
  }
  std::stable_sort(v.ops.begin(), v.ops.end(), [](const AdmissionOp& x, const AdmissionOp& y) {
    bool xm = x.route == "missing", ym = y.route == "missing";
    if (xm != ym) return xm;
    return x.blocks > y.blocks;
  });
  return v;
}

}  // namespace

AdmissionView ReadAdmissionView(const indexer::IndexReader& index, const CoverageMatrix& coverage,
                                const AdmissionRequest& request) {
  std::vector<std::string> backends = indexer::BackendNames(index.store());
  if (!request.inputs && backends.size() != 1) {
    AdmissionView v;
    v.backends = backends;
    v.unavailable =
        backends.empty()
            ? "No backend is known: ingest its records with `testmap ingest --backend NAME "
              "RECORDS.jsonl`, or name one with `testmap report --backend NAME`, `--supported "
              "FILE` or `--ops LIST`."
            : "The index holds the records of " + std::to_string(backends.size()) +
                  " backends: name one with `testmap report --backend NAME`.";
    return v;
  }
  admit::AdmitInputs inputs;
  if (request.inputs) {
    inputs = *request.inputs;
  } else {
    inputs.backend = backends.front();
  }
  std::unique_ptr<admit::AdmitSetup> setup;
  try {
    setup = admit::SetUpAdmission(inputs, index.store(), request.torch);
  } catch (const core::InputError& e) {
    // The user asked for no admission; a torch that cannot be read (no
    // Python with torch where the report is made) costs the section, not
    // the page.
    if (request.inputs) throw;
    AdmissionView v;
    v.backends = backends;
    v.backend = inputs.backend;
    v.unavailable = std::string("Not shown for backend ") + inputs.backend + ": " + e.what();
    return v;
  }
  AdmissionView v = ViewOf(admit::Admit(index, setup->request), coverage);
  v.backends = backends;
  return v;
}

}  // namespace testmap::report
