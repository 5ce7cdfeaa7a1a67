// Reading and finishing the JSONL trace shards the pytest plugin writes
// (format: docs/trace-format.md). Torch-free, for the CLI and the indexer.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace testmap::tracer {

// A shard line that cannot be read; what() is "FILE:LINE: reason".
class TraceFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ShardSummary {
  std::string path;
  std::map<std::string, size_t> outcomes;  // outcome -> tests
  std::vector<std::string> crashed;        // node ids
  size_t eager_ops = 0;                    // distinct (op, dtypes, device), evidence eager
  size_t compile_ops = 0;                  // ... evidence compile
  std::vector<std::string> ops;            // distinct op overloads, sorted
  std::vector<std::string> nodeids;        // every test with a `test` record
};

// The trace-*.jsonl files of `dir`, sorted.
std::vector<std::string> ListShards(const std::string& dir);

// Reads `path`; every test that began but never finished (its process
// crashed, aborted or was killed) gets a `test` record with outcome
// "crashed" appended to the file, with `reason` in its `crash` field, so
// later readers need no special case. Throws TraceFormatError.
ShardSummary FinishShard(const std::string& path, const std::string& reason);

}  // namespace testmap::tracer
