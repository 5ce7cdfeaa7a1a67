// `testmap query`: which tests run an operator (or several), with which
// dtypes, on which device and path, how long they take and where they are
// defined. Reads the index through indexer/index_reader.h.
//
// Filters apply to each observation (evidence, role, device, dtype
// combination): a test matches an operator when one observation passes every
// filter, so `--dtype bfloat16 --path compile` means "ran it with bfloat16 in
// a compiled graph", not "ran it with bfloat16, and ran it compiled".
//
// Roles (core/trace_format.h): by default only observations of role `test`
// count, the test's own code; ops that assertEqual or make_tensor ran for
// it are asked for with `roles` (`--role assert,inputs` or `--role all`).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "indexer/index_reader.h"
#include "mapper/query/op_resolution.h"

namespace testmap::query {

struct QueryOptions {
  std::vector<std::string> ops;     // as the user spells them
  bool any = false;                 // tests running any (default: all) of them
  std::vector<std::string> dtypes;  // any of these dtypes; canonical or any spelling
  std::string device;               // "" = any
  std::string path;                 // "" = any; eager | compile | static
  // Roles an observation must have, as the user spells them: names of
  // core::kRoles, comma-separated lists of them, or `all`.
  std::vector<std::string> roles = {"test"};
  std::string group = "test";  // test | generic
  // The torch version whose runs answer (evidence_runs.h); "" the newest
  // each test was traced on.
  std::string torch;
  // Fill source location, timings and outcomes (not needed for nodeids).
  bool details = true;
  // The canonical overload names torch's dispatcher registers, asked for
  // only when an operator has no edge in the index: one torch registers is
  // an empty answer (no test runs it), not an unknown name. Unset, or empty
  // when no torch is at hand: the index's operators are all that is known.
  std::function<std::vector<std::string>()> torch_operators;
};

// What one test did with one matched operator (over all its runs).
struct OpUse {
  std::set<std::vector<std::string>> dtypes;
  std::set<std::string> devices;
  std::set<std::string> evidence;
  std::set<std::string> roles;
  uint64_t calls = 0;
  std::set<std::string> runs;
};

struct TestMatch {
  std::string nodeid;
  std::string generic_id;  // "" when the test was only traced, never scanned
  std::string file;
  int line_start = 0, line_end = 0;
  std::map<std::string, OpUse> ops;  // canonical overload -> use
  // The latest run's outcome and duration (by start time); empty/nullopt
  // when never run.
  std::string outcome;
  std::optional<double> duration;
  size_t runs = 0;
};

struct GenericMatch {
  std::string generic_id;
  std::vector<const TestMatch*> tests;
};

struct QueryResult {
  QueryOptions options;
  std::vector<std::string> roles;  // the canonical roles asked for, in kRoles order
  std::vector<ResolvedOp> resolved;
  std::vector<TestMatch> tests;      // sorted by node id
  std::vector<GenericMatch> groups;  // filled for group == "generic"
  // Tests that would match if every role counted, but not in `roles`
  // (the hint that assertEqual's abs is not the test's abs).
  size_t tests_in_other_roles = 0;
  // Asked-for operators torch registers that no test in the index runs.
  std::vector<std::string> untested_ops;
};

// Throws core::UnknownNameError (with suggestions) for an unknown
// operator, dtype, device or path, core::UsageError for contradicting
// options.
QueryResult RunQuery(const indexer::IndexReader& index, const QueryOptions& options);

// Fills what `details` adds (source location, latest outcome and duration,
// runs) into `tests`, sorted by node id. RunQuery calls it for every test;
// a caller showing one page of a long answer asks RunQuery without details
// and calls it for the page only.
void FillTestDetails(const indexer::IndexReader& index, std::vector<TestMatch>& tests);

// Formats: table (default), json, jsonl, nodeids, yaml.
void RenderQuery(const QueryResult& result, const std::string& format, std::ostream& out);

// Canonical dtype of a user spelling, or core::UnknownNameError with the
// closest names. Shared with `ops` and `show`.
std::string CanonicalDtypeOrThrow(const std::string& text);

// The roles of `--role` values (`test`, `assert,inputs`, `all`), in
// core::kRoles order, or core::UnknownNameError with the closest names.
std::vector<std::string> CanonicalRolesOrThrow(const std::vector<std::string>& values);

}  // namespace testmap::query
