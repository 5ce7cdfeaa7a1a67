// Trace shards as the index stores them: the one trace reader
// (core/trace_reader.h) applies the format's rules; this groups each test's
// observations into edges, encoded while parsing (one thread per file).
#pragma once

#include <string>
#include <vector>

#include "indexer/edge_value.h"

namespace testmap::indexer {

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
  // {"outcome","duration","phases","start","worker","crash"?} as JSON text;
  // empty when the input says nothing of an outcome (a TORCH_LOGS log).
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
  std::vector<std::string> warnings;  // what the reader read past
};

// Parses one shard's text; `path` names it in errors. Throws
// core::InputError.
TraceInput ParseTrace(const std::string& text, const std::string& path);

}  // namespace testmap::indexer
