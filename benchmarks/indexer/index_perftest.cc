// The index benchmark (issue: "testmap query --op X must answer in
// milliseconds"). On a synthetic suite of 50,000 tests and 2 million
// test-op-dtype edges (8 shards in the real trace format), in the same run:
//
//   ingest   `testmap ingest` (whole process: parse, build, commit)
//            vs the same records loaded into SQLite with indexed tables
//   query    `testmap query --op X` as a whole process, median over many
//            operators, vs the sqlite3 shell on that database, vs jq and
//            grep|jq over the JSONL shards
//   start    `testmap --version` vs `sqlite3 --version`: process start alone
//   stats    `testmap stats` vs the sqlite3 shell counting the same things
//
// and prints the figures and ratios. Every answer is checked against
// SQLite's. Contenders alternate within each round (ingest: --rounds of
// each, fresh stores every time) so that the load of a shared machine
// falls on all of them alike; figures are medians. Usage:
//   build-*/bin/indexer_index_perftest [--tests N] [--ops-per-test K] [--queries Q] [--rounds R]
//                                      [--dir DIR] [--ingest-only] [--baseline TESTMAP]
// --baseline times another build's `query --format nodeids` beside this
// one's, interleaved (before/after a change).
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "benchmarks/indexer/sqlite_baseline.h"
#include "benchmarks/indexer/synthetic_traces.h"
#include "benchmarks/indexer/whole_process.h"

namespace fs = std::filesystem;
using testmap::bench::Median;
using testmap::bench::Now;
using testmap::bench::SyntheticSpec;
using testmap::bench::TimeShell;

namespace {

std::set<std::string> ReadSet(const std::string& path) {
  std::ifstream in(path);
  std::set<std::string> out;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.insert(line);
  }
  return out;
}

std::string QuerySpelling(const std::string& op) {
  // A bare name asks for the packet; the SQL asks for the default overload.
  return op.find('.') == std::string::npos ? op + ".default" : op;
}

}  // namespace

int main(int argc, char** argv) {
  SyntheticSpec spec;
  int queries = 50, rounds = 3;
  std::string baseline;  // another build's testmap, its queries timed beside these
  std::string dir = (fs::temp_directory_path() / "testmap-index-perftest").string();
  // --ingest-only: the ingest comparison alone (nlohmann-json in the last
  // round only, as a reference).
  bool ingest_only = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--ingest-only") {
      ingest_only = true;
      continue;
    }
    if (i + 1 == argc) break;
    ++i;
    if (a == "--tests") spec.tests = std::atoi(argv[i]);
    if (a == "--ops-per-test") spec.ops_per_test = std::atoi(argv[i]);
    if (a == "--queries") queries = std::atoi(argv[i]);
    if (a == "--dir") dir = argv[i];
    if (a == "--rounds") rounds = std::max(1, std::atoi(argv[i]));
    if (a == "--baseline") baseline = argv[i];
  }
  auto load = [] {
    double l[3] = {0, 0, 0};
    getloadavg(l, 3);
    return l[0];
  };
  std::printf("load average at start: %.2f (cores: %ld)\n", load(), sysconf(_SC_NPROCESSORS_ONLN));
  std::string testmap = std::string(TESTMAP_BINARY_DIR) + "/bin/testmap";
  fs::remove_all(dir);
  fs::create_directories(dir + "/shards");

  double t0 = Now();
  auto traces = testmap::bench::WriteSyntheticTraces(dir + "/shards", spec);
  std::printf(
      "synthetic suite: %d tests, %zu test-op-dtype edges, %zu shards, %.0f MB JSONL (%.1f s to "
      "write)\n",
      spec.tests, traces.edges, traces.shard_paths.size(), traces.bytes / 1e6, Now() - t0);

  // Ingest: each contender a whole process into a fresh store, alternating
  // within each round: `testmap ingest`, and the SQLite loader in a forked
  // child (spared the exec; the parse is the same library in both). Wall and
  // CPU (user + system) time, since other work on a shared machine stretches
  // the first and hardly the second.
  std::string index = dir + "/index";
  std::vector<double> testmap_wall, fast_wall, sqlite_wall, testmap_cpu, fast_cpu, sqlite_cpu;
  auto sqlite_load = [&](bool fast) {
    return testmap::bench::TimeForked([&] {
      size_t edges = testmap::bench::SqliteIngest(traces.shard_paths, dir + "/edges.sqlite", fast);
      if (edges != traces.edges)
        throw std::runtime_error("sqlite loaded " + std::to_string(edges) + " edges");
    });
  };
  for (int round = 0; round < rounds; ++round) {
    fs::remove_all(index);
    auto t = testmap::bench::TimeShellCpu(
        testmap + " ingest --index " + index + " " + dir + "/shards", dir + "/ingest.out");
    testmap_wall.push_back(t.wall), testmap_cpu.push_back(t.cpu);
    t = sqlite_load(true);
    fast_wall.push_back(t.wall), fast_cpu.push_back(t.cpu);
    if (!ingest_only || round == rounds - 1) {
      t = sqlite_load(false);
      sqlite_wall.push_back(t.wall), sqlite_cpu.push_back(t.cpu);
    }
  }
  const double tw = Median(testmap_wall), tc = Median(testmap_cpu);
  auto line = [&](const char* name, const std::vector<double>& wall, const std::vector<double>& cpu,
                  const char* note) {
    double w = Median(wall), c = Median(cpu);
    std::printf("  %-18s %6.2f s wall %6.2f s cpu %9.0f edges/s", name, w, c, traces.edges / w);
    if (&wall != &testmap_wall)
      std::printf("   testmap %.2fx wall, %.2fx cpu%s", w / tw, c / tc, note);
    std::printf("\n");
  };
  std::printf("\ningest (%zu edges), median of %d alternating rounds (load now %.2f)\n",
              traces.edges, rounds, load());
  line("testmap ingest", testmap_wall, testmap_cpu, "");
  line("sqlite, simdjson", fast_wall, fast_cpu, "   (target >= 3x; the same parser as testmap)");
  line("sqlite, nlohmann", sqlite_wall, sqlite_cpu, "");
  if (ingest_only) return 0;

  // Process start, then stats: alternating, many times each.
  std::vector<double> start_s, sqlite_start_s, stats_s, sqlite_stats_s;
  const std::string counts_sql =
      "SELECT (SELECT count(*) FROM tests), (SELECT count(DISTINCT test_id) FROM outcomes), "
      "(SELECT count(*) FROM ops), (SELECT count(*) FROM edges), (SELECT count(*) FROM outcomes), "
      "(SELECT count(*) FROM runs);";
  for (int i = 0; i < 30; ++i) {
    start_s.push_back(TimeShell(testmap + " --version", dir + "/v.testmap"));
    sqlite_start_s.push_back(TimeShell("sqlite3 --version", dir + "/v.sqlite"));
    if (i >= 10) continue;
    stats_s.push_back(
        TimeShell(testmap + " stats --index " + index + " --format json", dir + "/stats.json"));
    sqlite_stats_s.push_back(
        TimeShell("sqlite3 " + dir + "/edges.sqlite \"" + counts_sql + "\"", dir + "/stats.sql"));
  }
  std::printf("\nprocess start, median of %zu alternating runs\n", start_s.size());
  std::printf("  testmap --version          %8.2f ms\n", Median(start_s) * 1e3);
  std::printf("  sqlite3 --version          %8.2f ms   ratio %.2fx\n", Median(sqlite_start_s) * 1e3,
              Median(start_s) / Median(sqlite_start_s));
  std::printf("\nstats (what the index holds), median of %zu alternating runs\n", stats_s.size());
  std::printf("  testmap stats              %8.1f ms\n", Median(stats_s) * 1e3);
  std::printf("  sqlite3 shell, counts      %8.1f ms   %6.2fx testmap's time\n",
              Median(sqlite_stats_s) * 1e3, Median(sqlite_stats_s) / Median(stats_s));

  // Queries: random tail operators (the typical question) plus the head.
  std::mt19937 rng(7);
  std::vector<std::string> ops = traces.tail_op_names;
  std::shuffle(ops.begin(), ops.end(), rng);
  ops.resize(std::min<size_t>(ops.size(), queries));
  std::vector<double> nodeids_s, table_s, sqlite_s, jq_s, grep_s, baseline_s;
  size_t answers = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    const std::string& op = ops[i];
    std::string mine = dir + "/q.testmap", theirs = dir + "/q.sqlite";
    std::string q = testmap + " query --index " + index + " --op " + QuerySpelling(op);
    // Each testmap run next to a sqlite3 run, the order alternating: this
    // machine's speed drifts by tens of percent over seconds, and runs
    // taken apart would time the drift.
    const std::string sql =
        "sqlite3 " + dir + "/edges.sqlite \"" + testmap::bench::SqliteQuerySql(op) + "\"";
    const std::string base_q =
        baseline + " query --index " + index + " --op " + QuerySpelling(op) + " --format nodeids";
    auto peers = [&] {
      sqlite_s.push_back(TimeShell(sql, theirs));
      if (!baseline.empty()) baseline_s.push_back(TimeShell(base_q, theirs + ".b"));
    };
    for (int rep = 0; rep < 3; ++rep) {
      if ((i + rep) % 2) peers();
      nodeids_s.push_back(TimeShell(q + " --format nodeids", mine));
      if ((i + rep) % 2 == 0) peers();
    }
    if (!baseline.empty() && ReadSet(theirs + ".b") != ReadSet(mine)) {
      std::cerr << "the baseline's answer differs for " << op << "\n";
      return 1;
    }
    table_s.push_back(TimeShell(q, dir + "/q.table"));
    auto a = ReadSet(mine), b = ReadSet(theirs);
    if (a != b) {
      std::cerr << "answers differ for " << op << ": testmap " << a.size() << ", sqlite "
                << b.size() << "\n";
      return 1;
    }
    answers += a.size();
    if (i < 5) {
      std::string shards = dir + "/shards/*.jsonl";
      jq_s.push_back(TimeShell("jq -r 'select(.type == \"test\") | select(any(.ops[]; .op == \"" +
                                   op + "\")) | .nodeid' " + shards + " | sort -u",
                               dir + "/q.jq"));
      if (ReadSet(dir + "/q.jq") != a) {
        std::cerr << "jq answer differs for " << op << "\n";
        return 1;
      }
      grep_s.push_back(
          TimeShell("grep -h -F '\"op\":\"" + op + "\"' " + shards + " | jq -r .nodeid | sort -u",
                    dir + "/q.grep"));
    }
  }
  std::vector<double> head_s;
  for (const auto& op : traces.common_op_names) {
    head_s.push_back(
        TimeShell(testmap + " query --index " + index + " --op " + op + " --format nodeids",
                  dir + "/q.head"));
  }
  double mine = Median(nodeids_s);
  std::printf("\nquery --op X, whole process, median over %zu operators (%.0f tests per answer)\n",
              ops.size(), static_cast<double>(answers) / ops.size());
  std::printf("  testmap --format nodeids   %8.1f ms   (target <= 20 ms)\n", mine * 1e3);
  std::printf("  testmap (table, details)   %8.1f ms\n", Median(table_s) * 1e3);
  std::printf("  sqlite3 shell (indexed)    %8.1f ms   %6.2fx testmap's time\n",
              Median(sqlite_s) * 1e3, Median(sqlite_s) / mine);
  if (!baseline.empty())
    std::printf("  --baseline (nodeids)       %8.1f ms   %6.2fx testmap's time\n",
                Median(baseline_s) * 1e3, Median(baseline_s) / mine);
  std::printf("  grep | jq over JSONL       %8.1f ms   %6.1fx slower\n", Median(grep_s) * 1e3,
              Median(grep_s) / mine);
  std::printf("  jq over JSONL              %8.1f ms   %6.1fx slower (target >= 10x)\n",
              Median(jq_s) * 1e3, Median(jq_s) / mine);
  std::printf("  testmap, head operators (~30%% of tests each): %.1f ms median\n",
              Median(head_s) * 1e3);
  std::printf(
      "\nindex on disk: %.0f MB; sqlite: %.0f MB\n",
      [&] {
        double b = 0;
        for (const auto& f : fs::directory_iterator(index))
          b += f.is_regular_file() ? f.file_size() : 0;
        return b / 1e6;
      }(),
      fs::file_size(dir + "/edges.sqlite") / 1e6);
  std::printf("load average at the end: %.2f\n", load());
  return 0;
}
