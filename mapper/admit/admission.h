// `testmap admit`: which tests a backend can run, from the evidence in the
// index (what each test dispatched, its parameters, its outcomes) and the
// backend's capabilities (capabilities.h). Every test is in one of three
// states:
//   admitted  its dtype parameters pass the dtype rules and every operator
//             it dispatched, in every role (a device runs the assertions and
//             the inputs too), is runnable (runnable.h); its evidence is
//             complete (it passed when traced);
//   blocked   an operator it dispatched is not runnable, or a dtype rule
//             excludes it: each reason is listed;
//   unknown   no complete evidence: never traced, skipped or crashed when
//             traced, or failed before the end with nothing missing seen.
//             Never admitted silently.
//
// Results are plain structs with names that map one to one onto the JSON
// of `--format json` (admit_render.h), for the CLI and the MCP server.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyzers/torch_snapshot/torch_snapshot.h"
#include "indexer/index_reader.h"
#include "mapper/admit/capabilities.h"
#include "mapper/admit/runnable.h"
#include "mapper/config/config_model.h"

namespace testmap::admit {

enum class State { kAdmitted, kBlocked, kUnknown };
const char* StateName(State s);  // admitted | blocked | unknown

// An operator a test dispatched that the backend cannot run.
struct MissingOp {
  std::string op;                   // canonical overload
  bool composite_explicit = false;  // torch has a CompositeExplicitAutograd kernel
  // Its observations, one encoded edge value (indexer/edge_value.h) per run:
  // decoded only for answers that show them (Observed below), since a big
  // suite has hundreds of thousands of them and most answers only count.
  std::vector<std::string> edges;
};

// What the observations of a missing operator say: the dtype combinations
// it was seen with and the roles it ran in.
struct Observed {
  std::set<std::vector<std::string>> dtypes;
  std::set<std::string> roles;
};
Observed ObservedOf(const MissingOp& m);

struct TestAdmission {
  std::string nodeid;       // the id admission answers for (the backend's own with --device)
  std::string evidence_id;  // the test whose evidence decided (its CPU twin with --device)
  std::string generic_id;   // "" for a test only traced
  std::string file;
  std::string generic_class, generic_method;
  std::vector<std::string> dtypes;  // its dtype parameters
  std::string opinfo, module;
  State state = State::kUnknown;
  std::vector<MissingOp> missing;  // blocked by operators, sorted by op
  std::string dtype_block;         // blocked by a dtype rule: why
  std::string unknown_reason;      // unknown: why
  // The evidence ran to the end (passed when traced): enabling the missing
  // operators would admit it.
  bool complete_evidence = false;
  std::string outcome;  // the latest outcome of the evidence
  // How the test itself did on the backend: the latest outcome of a trace on
  // the backend's device, else what ingested JUnit says of its node id; ""
  // when it never ran there. Only the backend's own ids (--device), or
  // tests whose device is the backend's name, can have one.
  std::string backend_outcome;
  std::optional<double> seconds;  // its duration when traced
};

struct FileSummary {
  std::string file;
  size_t admitted = 0, blocked = 0, unknown = 0;
  double admitted_seconds = 0;  // over admitted tests with a duration
};

// How much of the scanned suite has evidence at all.
struct Coverage {
  size_t scanned = 0;        // tests the scan lists (for the device under --device)
  size_t with_evidence = 0;  // of those, traced (their evidence twin traced)
  double Share() const { return scanned ? double(with_evidence) / scanned : 0; }
};

struct AdmitRequest {
  Capabilities caps;
  // When capabilities come from a test_suite_config: its per-test dtype
  // edits apply too (config_rules.h), with paths read under `root_token`.
  const config::Config* config = nullptr;
  std::string root_token = "${TORCH_ROOT}";
  // torch's operator registry, for CompositeImplicitAutograd (may be null).
  const torch_snapshot::TorchSnapshot* torch = nullptr;
  // A PrivateUse1 backend's device name (`openreg` of privateuse1:openreg):
  // answer for its own scanned ids, joined to traced ones by generic test
  // and params. "" answers for the traced ids themselves.
  std::string device;
};

struct Admission {
  Capabilities caps;
  std::string device;                // as requested
  std::vector<TestAdmission> tests;  // sorted by node id
  std::vector<FileSummary> files;    // sorted by file
  Coverage coverage;
  // Every operator the evidence dispatched, judged (canonical -> verdict).
  std::map<std::string, Runnability> ops;
  std::set<std::string> evidence_devices;  // devices the evidence ran on
  std::vector<std::string> notes;          // what the answer rests on, for people

  size_t Count(State s) const;
};

// Throws core::UsageError when `device` has no scanned test in the index.
Admission Admit(const indexer::IndexReader& index, const AdmitRequest& request);

}  // namespace testmap::admit
