// The one reader of trace shards (format: core/trace_format.h,
// docs/trace-format.md), used by ingest, plan, `testmap trace` and the
// tests. It applies every rule of the format once:
//   - the first record is a `run` whose format and version this build reads;
//   - every record is a JSON object with a known `type`, every field has its
//     type; operator and dtype names are normalized (core/op_names.h,
//     core/dtype_names.h);
//   - a `collection` has a start no later than its end and a count of at
//     least 0 for each file;
//   - a `begin` never followed by its `test` is reported as a crashed test
//     (`unfinished`), since the process died during it;
//   - a last line cut short by a dying writer is dropped with a warning.
// Anything else is a core::InputError naming the file and line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/trace_format.h"

namespace testmap::core {

// One (operator, dtypes, device, evidence, role) observation of a test.
// Views stay valid until ReadTrace returns.
struct TraceOp {
  std::string_view packet;               // "aten::add"
  std::string_view overload;             // "Tensor"; "" for the default overload
  std::string_view evidence;             // "eager" or "compile"
  std::string_view role = kRoleTest;     // one of kRoles; `test` in version 1 shards
  std::string_view device;               // "cpu", "cuda", a backend name; "" when none
  std::vector<std::string_view> dtypes;  // canonical names, argument order
  uint64_t count = 1;
};

struct TraceTest {
  int line = 0;
  std::string_view nodeid;
  std::string_view outcome;        // passed, failed, skipped, xfailed, xpassed, error, crashed
  std::optional<double> duration;  // setup + call + teardown; none when crashed
  std::optional<double> start;
  std::string_view worker;
  // The record's outcome fields as one JSON object: outcome, duration,
  // phases, start, worker and crash, as the record has them.
  std::string outcome_json;
  std::vector<TraceOp> ops;
  // Made by the reader for a `begin` without its `test`: outcome crashed,
  // crash_reason set, no ops.
  bool unfinished = false;
  std::string crash_reason;
};

struct TraceRun {
  int line = 0;
  std::string_view record;  // the run line as written
  int version = 0;
  std::string_view worker;
};

// What the process's pytest collected (version 3): when collecting started
// and ended, in epoch seconds, and how many tests it built of each file, the
// file as its node ids spell it. The views are valid during the call.
struct TraceCollection {
  int line = 0;
  double start = 0, end = 0;
  std::vector<std::pair<std::string_view, int64_t>> files;
};

class TraceVisitor {
 public:
  virtual ~TraceVisitor() = default;
  virtual void Run(const TraceRun& run) {}
  virtual void Collection(const TraceCollection& collection) {}
  virtual void Test(const TraceTest& test) {}
  // Something read past rather than refused (a last line cut short).
  virtual void Warning(const std::string& message) {}
};

struct TraceReadOptions {
  // The reason given to the test still unfinished at the end of the shard
  // (`testmap trace` passes pytest's exit status or signal).
  std::string final_crash_reason = "process ended during the test";
};

// Reads one shard's `text`; `path` names it in errors and warnings.
void ReadTrace(std::string_view text, const std::string& path, TraceVisitor& visitor,
               const TraceReadOptions& options = {});

// Whether `text` starts like a trace shard (its first record has a string
// `type`), without reading it.
bool LooksLikeTrace(std::string_view text);

}  // namespace testmap::core
