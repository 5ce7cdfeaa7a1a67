// Synthetic trace shards in the real `testmap trace` format, shaped like a
// PyTorch suite: a few operators almost every test runs (add, mul, eq...),
// and a long tail that few tests run; each op recorded with two dtype
// combinations. Deterministic for a given seed.
#pragma once

#include <string>
#include <vector>

namespace testmap::bench {

struct SyntheticSpec {
  int tests = 50000;
  int ops_per_test = 20;  // distinct operators per test
  int dtypes_per_op = 2;  // observations per (test, op): edges = tests * ops * dtypes
  int dtypes = 8;         // distinct dtypes in the suite (at most 20)
  int common_ops = 10;    // the head: each in ~30% of tests
  int tail_ops = 590;
  int shards = 8;  // like 8 CI jobs / xdist workers
  unsigned seed = 42;
};

struct SyntheticTraces {
  std::vector<std::string> shard_paths;
  std::vector<std::string> tail_op_names;    // canonical, for queries
  std::vector<std::string> common_op_names;  // canonical
  size_t edges = 0;                          // test-op-dtype observations
  size_t bytes = 0;
};

// Writes the shards into `dir`.
SyntheticTraces WriteSyntheticTraces(const std::string& dir, const SyntheticSpec& spec);

}  // namespace testmap::bench
