#include "benchmarks/indexer/synthetic_traces.h"

#include <algorithm>
#include <fstream>
#include <random>
#include <set>

namespace testmap::bench {

namespace {

const char* kDtypes[] = {
    "float32", "float64",       "bfloat16",    "float16",         "int64",
    "int32",   "bool",          "complex64",   "uint8",           "int8",
    "int16",   "complex128",    "complex32",   "uint16",          "uint32",
    "uint64",  "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz"};
constexpr int kMaxDtypes = sizeof kDtypes / sizeof kDtypes[0];
const char* kOverloads[] = {"Tensor", "Scalar", "", "out", "self"};

}  // namespace

SyntheticTraces WriteSyntheticTraces(const std::string& dir, const SyntheticSpec& spec) {
  SyntheticTraces out;
  std::mt19937 rng(spec.seed);
  for (int i = 0; i < spec.common_ops; ++i)
    out.common_op_names.push_back("aten::common_op" + std::to_string(i) + ".Tensor");
  for (int i = 0; i < spec.tail_ops; ++i) {
    std::string ov = kOverloads[i % 5];
    out.tail_op_names.push_back("aten::tail_op" + std::to_string(i) + (ov.empty() ? "" : "." + ov));
  }
  std::uniform_int_distribution<int> tail(0, spec.tail_ops - 1);
  std::uniform_real_distribution<double> coin(0, 1);
  const int dtypes = std::clamp(spec.dtypes, 1, kMaxDtypes);
  std::uniform_int_distribution<int> dtype(0, dtypes - 1);
  std::vector<std::ofstream> files;
  for (int s = 0; s < spec.shards; ++s) {
    std::string path = dir + "/trace-gw" + std::to_string(s) + ".jsonl";
    out.shard_paths.push_back(path);
    files.emplace_back(path);
    files.back()
        << "{\"type\":\"run\",\"format\":\"testmap-trace\",\"version\":1,\"worker\":\"gw" << s
        << "\",\"metadata\":{\"start_time\":\"2026-11-29T00:00:0" << s
        << "+00:00\",\"recorder\":\"cpp\",\"torch\":{\"version\":\"2.13.0+cpu\"},\"worker\":\"gw"
        << s << "\"}}\n";
  }
  for (int t = 0; t < spec.tests; ++t) {
    std::string nodeid = "test_synth" + std::to_string(t % 200) + ".py::TestSynthCPU::test_case" +
                         std::to_string(t) + "_cpu_" + kDtypes[t % dtypes];
    std::set<std::string> ops;
    for (const auto& c : out.common_op_names) {
      if (coin(rng) < 0.3 && static_cast<int>(ops.size()) < spec.ops_per_test / 4) ops.insert(c);
    }
    while (static_cast<int>(ops.size()) < spec.ops_per_test)
      ops.insert(out.tail_op_names[tail(rng)]);
    std::string line =
        "{\"type\":\"test\",\"nodeid\":\"" + nodeid +
        "\",\"outcome\":\"passed\",\"duration\":" + std::to_string(0.001 * (1 + t % 97)) +
        ",\"phases\":{},\"worker\":\"gw" + std::to_string(t % spec.shards) +
        "\",\"start\":" + std::to_string(1795990000 + t) + ",\"ops\":[";
    bool first = true;
    for (const auto& op : ops) {
      int d0 = dtype(rng);
      for (int d = 0; d < spec.dtypes_per_op; ++d) {
        line += first ? "" : ",";
        first = false;
        const char* dt = kDtypes[(d0 + d) % dtypes];
        line += "{\"op\":\"" + op + "\",\"dtypes\":[\"" + dt + "\",\"" + dt +
                "\"],\"device\":\"cpu\",\"count\":" + std::to_string(1 + (t + d) % 5) +
                ",\"evidence\":\"eager\"}";
        ++out.edges;
      }
    }
    line += "]}\n";
    auto& f = files[t % spec.shards];
    f << "{\"type\":\"begin\",\"nodeid\":\"" << nodeid << "\",\"worker\":\"gw" << t % spec.shards
      << "\",\"time\":" << 1795990000 + t << "}\n";
    f << line;
    out.bytes += line.size();
  }
  return out;
}

}  // namespace testmap::bench
