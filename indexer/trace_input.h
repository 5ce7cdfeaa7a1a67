// Trace shards as the index stores them: the one trace reader
// (core/trace_reader.h) applies the format's rules; this groups each test's
// observations into edges, encoded while parsing (one thread per file).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "indexer/edge_value.h"

namespace testmap::indexer {

// The distinct strings of one input, each stored once. A shard names the
// same few hundred operators, and mostly the same edge values, millions of
// times: its edges point here instead of holding millions of small strings
// (whose allocation, copying and scattered reads were a large share of an
// ingest). Views stay valid when the owner moves; it cannot be copied.
class InternedStrings {
 public:
  InternedStrings() = default;
  InternedStrings(InternedStrings&&) = default;
  InternedStrings& operator=(InternedStrings&&) = default;
  InternedStrings(const InternedStrings&) = delete;
  InternedStrings& operator=(const InternedStrings&) = delete;

  std::string_view Intern(std::string_view s) { return *set_.emplace(s).first; }
  size_t size() const { return set_.size(); }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  // Node-based: an element never moves, not even when the set does.
  std::unordered_set<std::string, Hash, std::equal_to<>> set_;
};

// All a test did with one operator overload in one run: its observations,
// already encoded as the edge value (edge_value.h). Encoding happens while
// parsing, which runs on one thread per input file. The views point into
// the TraceInput's `strings`.
struct TracedEdge {
  std::string_view op_key;  // PACKET \0 OVERLOAD, as op_tests keys begin
  std::string_view value;
  uint32_t observations = 0;
  uint32_t op = 0;  // where op_key is in TraceInput::op_keys

  std::string_view packet() const { return op_key.substr(0, op_key.find('\0')); }
  std::string_view overload() const { return op_key.substr(op_key.find('\0') + 1); }
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
  InternedStrings strings;            // what the tests' edges point at
  // The distinct operator keys of the edges, each once: an ingest looks
  // each up once per input and its edges by position (TracedEdge::op).
  std::vector<std::string_view> op_keys;

  // An edge of `packet` and `overload` with the encoded `value`, its
  // strings interned in `strings`.
  TracedEdge Edge(std::string_view packet, std::string_view overload, std::string_view value,
                  size_t observations);

 private:
  std::unordered_map<const char*, uint32_t> op_positions_;  // by op_keys' views
};

// Parses one shard's text; `path` names it in errors. Throws
// core::InputError.
TraceInput ParseTrace(const std::string& text, const std::string& path);

}  // namespace testmap::indexer
