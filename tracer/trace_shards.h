// Finishing the JSONL trace shards the pytest plugin writes (format:
// core/trace_format.h): what `testmap trace` does after pytest exits.
// Torch-free, for the CLI.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace testmap::tracer {

struct ShardSummary {
  std::string path;
  std::map<std::string, size_t> outcomes;  // outcome -> tests
  std::vector<std::string> crashed;        // node ids
  size_t eager_ops = 0;                    // distinct (op, dtypes, device), evidence eager
  size_t compile_ops = 0;                  // ... evidence compile
  std::vector<std::string> ops;            // distinct op overloads, sorted
  std::vector<std::string> nodeids;        // every test with a `test` record
  std::vector<std::string> warnings;       // what the reader read past
};

// Reads `path` with the trace reader; every test that began but never
// finished (its process crashed, aborted or was killed) gets a `test`
// record with outcome "crashed" appended to the file, with `reason` in its
// `crash` field (the last one; earlier ones were ended by a later process
// of the same shard), so later readers find the crash on disk. Throws
// core::InputError.
ShardSummary FinishShard(const std::string& path, const std::string& reason);

}  // namespace testmap::tracer
