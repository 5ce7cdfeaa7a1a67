// Reading `testmap trace` shards (docs/trace-format.md) for ingestion:
// strictly, since what is read here becomes the index. Unlike the tracer's
// own lenient reader, a truncated or corrupt line is an error naming the
// file and line, and a shard from a newer format version is refused; the
// caller then writes nothing.
#pragma once

#include <string>
#include <vector>

#include "indexer/index/edge_value.h"

namespace testmap::indexer {

// The trace format this build reads (tracer/python/testmap_trace).
inline constexpr char kTraceFormatName[] = "testmap-trace";
inline constexpr int kTraceFormatVersion = 1;

struct TracedOp {
  std::string packet;    // "aten::add"
  std::string overload;  // "Tensor", "" for the default overload
  EdgeTuple tuple;       // evidence eager|compile, device, dtypes, count
};

// All a test did with one operator overload in one run: its observations,
// already encoded as the edge value (edge_value.h). Encoding happens while
// parsing, which runs on one thread per input file.
struct TracedEdge {
  std::string packet;
  std::string overload;
  std::string value;
  size_t observations = 0;
};

struct TracedTest {
  std::string nodeid;
  std::string run_id;
  // {"outcome","duration","phases","start","worker","crash"?} as JSON text.
  std::string outcome_json;
  std::vector<TracedEdge> edges;  // sorted by (packet, overload)
  int line = 0;
};

struct TraceRun {
  // 16 hex digits of XXH3-64 over the run line: the same shard ingested
  // twice (or copied from another job) yields the same id, hence the same
  // keys, hence no change.
  std::string id;
  std::string record_json;  // the run record plus "source" (the shard path)
};

struct TraceInput {
  std::string path;
  std::vector<TraceRun> runs;
  std::vector<TracedTest> tests;
};

// Whether the first non-blank line of `text` is a trace `run` record.
bool LooksLikeTrace(const std::string& text);

// Parses one shard's text; `path` names it in errors. Throws IndexError.
TraceInput ParseTrace(const std::string& text, const std::string& path);

}  // namespace testmap::indexer
