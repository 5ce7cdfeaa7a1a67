// The trace format (docs/trace-format.md): what `testmap trace` writes, one
// JSONL shard per pytest process. Its name, version rule, record types and
// shard file names live here and nowhere else in C++; the pytest plugin
// (tracer/python/testmap_trace), which must write them from inside pytest,
// holds the writer's copy, and tests/tracer checks that the two agree.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace testmap::core {

inline constexpr std::string_view kTraceFormatName = "testmap-trace";
// The version this build writes. Readers read every version from 1 up to
// it, and refuse a newer one ("upgrade testmap"), never misread it.
//   1: ops are (op, dtypes, device, count, evidence).
//   2: ops carry a `role` (below); an op without one, and every op of a
//      version 1 shard, has role `test`.
//   3: a `collection` record (below) after the `run` record.
inline constexpr int kTraceFormatVersion = 3;

inline bool ReadsTraceVersion(int version) {
  return version >= 1 && version <= kTraceFormatVersion;
}

// Record types, in the order a shard has them: one `run` per process, then
// (from version 3) one `collection` when pytest has collected, then per test
// a `begin` (written before it starts) and a `test` (after it ends). A
// `begin` without its `test` is a test that crashed its process. The
// collection says when collecting started and ended and how many tests
// pytest built of each file, deselected ones included: a process's cost
// grows with what it collects, not only with what it runs, and a
// `pytest --collect-only` run traced this way (its shard has no tests) is
// what tells the two apart (mapper/plan/fixed_costs.h).
inline constexpr std::string_view kRunRecord = "run";
inline constexpr std::string_view kCollectionRecord = "collection";
inline constexpr std::string_view kBeginRecord = "begin";
inline constexpr std::string_view kTestRecord = "test";

// What a `test` record's outcome is when its process died during it.
inline constexpr std::string_view kCrashedOutcome = "crashed";
// The crash reason of a test a reader finds unfinished in a shard nobody
// finished (`testmap trace` writes the real one, e.g. the signal).
inline constexpr std::string_view kUnfinishedCrashReason = "process ended during the test";

// Roles (DESIGN.md, Identities: Role): where in a test an op ran. `test`
// is the test's own code; `assert` the dynamic extent of TestCase.assertEqual
// / assertNotEqual and torch.testing.assert_close; `inputs` that of
// torch.testing.make_tensor and the OpInfo / ModuleInfo input functions (for
// generators, their iteration); `setup` and `teardown` pytest's phases (and
// a unittest TestCase's setUp / tearDown). "Which tests exercise op X" asks
// for role `test`; "can the device run this test" for every role.
inline constexpr std::string_view kRoleTest = "test";
inline constexpr std::array<std::string_view, 5> kRoles = {"test", "assert", "inputs", "setup",
                                                           "teardown"};
inline bool IsRoleName(std::string_view name) {
  for (auto r : kRoles) {
    if (r == name) return true;
  }
  return false;
}

// `trace-<worker>.jsonl`: trace-main.jsonl without xdist, trace-gw0.jsonl...
std::string ShardFileName(std::string_view worker);
bool IsShardFileName(std::string_view filename);
// The shards in `dir`, sorted; empty when `dir` holds none (or is missing).
std::vector<std::string> ListShards(const std::string& dir);

// `signal-<worker>.txt`: the number of the signal a traced pytest process
// died of, written by that process itself (tracer_api.h), read and removed
// by `testmap trace`, which names it in the crash reason of an xdist worker.
std::string SignalNoteFileName(std::string_view worker);
bool IsSignalNoteFileName(std::string_view filename);

}  // namespace testmap::core
