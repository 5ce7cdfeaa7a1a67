// The admission benchmark (issue 11: "admission and --rank over an index of
// 50,000 tests and 2 million edges as whole processes, target under 1 s
// each"). On the index benchmark's synthetic suite (8 trace shards in the
// real format, benchmarks/indexer/synthetic_traces.h) and a backend whose
// records give kernels for most of its operators, in the same run:
//
//   testmap admit --backend NAME               (capabilities ingested into the index)
//   testmap admit --backend NAME --rank
//   testmap admit ... --format json            (every test with its reasons)
//   admit_reference.py over the JSONL shards   (the same computation in Python,
//                                               the peer a user would write)
//
// each a whole process, median of --repeat runs, and the ratios. The
// counts of both are checked to agree. Usage:
//   build-*/bin/mapper_admit_perftest [--tests N] [--repeat R] [--dir DIR]
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "benchmarks/indexer/synthetic_traces.h"
#include "benchmarks/indexer/whole_process.h"

namespace fs = std::filesystem;

namespace {

using testmap::bench::Median;
using testmap::bench::TimeShell;

double MedianOf(int repeat, const std::string& command, const std::string& out) {
  std::vector<double> t;
  for (int i = 0; i < repeat; ++i) t.push_back(TimeShell(command, out));
  return Median(t);
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  testmap::bench::SyntheticSpec spec;
  int repeat = 5;
  std::string dir;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--tests") spec.tests = std::stoi(argv[i + 1]);
    if (a == "--repeat") repeat = std::stoi(argv[i + 1]);
    if (a == "--dir") dir = argv[i + 1];
  }
  if (dir.empty()) {
    char tmpl[] = "/tmp/testmap-admit-bench-XXXXXX";
    dir = mkdtemp(tmpl);
  }
  std::string bin = std::string(TESTMAP_BINARY_DIR) + "/bin/testmap";
  std::string python = TESTMAP_PYTHON;
  std::string reference =
      std::string(TESTMAP_SOURCE_DIR) + "/tests/mapper/admit/admit_reference.py";
  fs::create_directories(dir + "/shards");
  std::cerr << "writing " << spec.tests << " synthetic tests...\n";
  auto traces = testmap::bench::WriteSyntheticTraces(dir + "/shards", spec);

  // The backend: kernels for every common operator and for six of every
  // seven tail operators (the seventh blocks the tests that run it).
  std::ofstream records(dir + "/backend.jsonl");
  auto record = [&](const std::string& op) {
    records
        << R"({"op":")" << op
        << R"(","dispatch_key":"PrivateUse1","kind":"kernel","mechanism":"m.impl","file":"csrc/ops.cpp","line":1,"evidence":"static"})"
        << "\n";
  };
  for (const auto& op : traces.common_op_names) record(op);
  for (size_t i = 0; i < traces.tail_op_names.size(); ++i)
    if (i % 7 != 3) record(traces.tail_op_names[i]);
  records.close();

  std::string shards;
  for (const auto& s : traces.shard_paths) shards += " '" + s + "'";
  std::string index = dir + "/index";
  fs::remove_all(index);
  double ingest = TimeShell(
      bin + " ingest --index '" + index + "' --backend synth '" + dir + "/backend.jsonl'" + shards,
      dir + "/ingest.out");
  std::cerr << "ingested " << traces.edges << " edges in " << ingest << " s\n";

  std::string admit =
      bin + " admit --index '" + index + "' --backend synth --torch-python " + python;
  std::string ref =
      python + " '" + reference + "' --no-torch --summary --records '" + dir + "/backend.jsonl'";
  for (const auto& s : traces.shard_paths) ref += " --trace '" + s + "'";

  double t_admit = MedianOf(repeat, admit + " --format table", dir + "/admit.txt");
  double t_rank = MedianOf(repeat, admit + " --rank", dir + "/rank.txt");
  double t_json = MedianOf(repeat, admit + " --format json", dir + "/admit.json");
  double t_nodeids = MedianOf(repeat, admit + " --format nodeids", dir + "/admit.ids");
  int peer_repeat = std::max(1, repeat / 2);
  double t_ref = MedianOf(peer_repeat, ref, dir + "/ref.json");
  double t_ref_rank = MedianOf(peer_repeat, ref + " --rank", dir + "/ref-rank.json");

  // Both must say the same.
  auto mine = nlohmann::json::parse(Slurp(dir + "/admit.json"));
  auto theirs = nlohmann::json::parse(Slurp(dir + "/ref.json"));
  for (const char* state : {"admitted", "blocked", "unknown"}) {
    if (mine["counts"][state] != theirs.value(state, 0)) {
      std::cerr << "disagreement on " << state << ": testmap " << mine["counts"][state]
                << ", reference " << theirs.value(state, 0) << "\n";
      return 1;
    }
  }
  auto ranked = nlohmann::json::parse(Slurp(dir + "/ref-rank.json"))["rank"];
  std::cout << "admission over " << spec.tests << " tests, " << traces.edges
            << " test-op-dtype edges (" << mine["counts"]["admitted"] << " admitted, "
            << mine["counts"]["blocked"] << " blocked), median of " << repeat << " runs:\n";
  std::printf("  %-52s %8.3f s\n", "testmap admit (table)", t_admit);
  std::printf("  %-52s %8.3f s\n", "testmap admit --rank", t_rank);
  std::printf("  %-52s %8.3f s\n", "testmap admit --format nodeids", t_nodeids);
  std::printf("  %-52s %8.3f s\n", "testmap admit --format json (every test, reasons)", t_json);
  std::printf("  %-52s %8.3f s   %5.1fx slower than testmap admit\n",
              "Python over the JSONL shards (admit_reference.py)", t_ref, t_ref / t_admit);
  std::printf("  %-52s %8.3f s   %5.1fx slower than testmap admit --rank\n",
              "Python over the JSONL shards, with its rank", t_ref_rank, t_ref_rank / t_rank);
  std::printf(
      "  (the Python peer ranks single operators only; testmap's --rank adds the greedy\n"
      "   sequence; top operator: testmap %s, Python %s)\n",
      Slurp(dir + "/rank.txt").find(ranked[0][0].get<std::string>()) != std::string::npos
          ? "agrees"
          : "DIFFERS",
      ranked[0][0].get<std::string>().c_str());
  return 0;
}
