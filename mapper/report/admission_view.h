// The page's admission section: for a backend, which operators it can run
// (kernel, fallback, decomposed) or not, and how many tests each one it
// cannot run blocks, with the admitted / blocked / unknown counts. The
// admission is mapper/admit's, the same `testmap admit` answers.
//
// Which backend: the one named (`report --backend NAME`, `--supported
// FILE`, `--ops`: admit's options), else the only backend whose records
// the index holds (`ingest --backend NAME`). With none, or several and no
// name, the section says so.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "indexer/index_reader.h"
#include "mapper/admit/admit_inputs.h"
#include "mapper/report/coverage_matrix.h"

namespace testmap::report {

struct AdmissionOp {
  std::string op;      // canonical overload
  std::string route;   // kernel | fallback | decomposed | missing (admit/runnable.h)
  std::string source;  // where the kernel or fallback was registered, what decomposes it
  bool composite_explicit = false;  // missing, but torch has a CompositeExplicitAutograd kernel
  size_t blocks = 0;                // blocked tests that dispatched it (missing ops only)
  size_t tests = 0;                 // tests that ran it at all, in any role
};

struct AdmissionView {
  std::string backend, dispatch_key, origin, device;
  size_t tests = 0, admitted = 0, blocked = 0, unknown = 0;
  std::vector<std::string> notes;
  std::vector<AdmissionOp> ops;  // missing first (most blocking first), then by name
  // Why no admission is shown ("" when one is); `backends` the index holds.
  std::string unavailable;
  std::vector<std::string> backends;
};

struct AdmissionRequest {
  std::optional<admit::AdmitInputs> inputs;  // named by the user; else the index's one backend
  // torch's operator registry, asked for only when an admission is made.
  std::function<const torch_snapshot::TorchSnapshot*()> torch;
};

// Throws what admit::SetUpAdmission and admit::Admit throw when the
// backend was named; for the index's own backend, a torch that cannot be
// read leaves the section unavailable (saying why) instead.
AdmissionView ReadAdmissionView(const indexer::IndexReader& index, const CoverageMatrix& coverage,
                                const AdmissionRequest& request);

}  // namespace testmap::report
