// The report at scale: benchmarks/indexer's synthetic suite with 20 dtypes
// (50,000 tests, 600 operators, 2,000,000 test-op-dtype observations, as
// shards ingested by the real `testmap ingest`), then
//
//   report  `testmap report --out DIR` as a whole process (median of 3),
//           against `testmap ops --format json`, the coverage overview a
//           user would otherwise read (the same walk over every edge);
//   page    its size, and bytes per (test, cell) entry;
//   browser the page in headless Chromium (tests/mapper/report's driver):
//           load to drawn, a walk over every heatmap row, opening the
//           biggest cell with a mouse click, one filter change (a recount
//           of every cell).
//
// Usage: build/bin/mapper_report_perftest [--tests N] [--dir DIR]
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "benchmarks/indexer/synthetic_traces.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Runs argv with stdout to `out` ("" = /dev/null); returns the exit code.
int Run(const std::vector<std::string>& argv, const std::string& out = "") {
  std::fflush(stdout);  // or the child prints what this process buffered
  pid_t pid = fork();
  if (pid == 0) {
    FILE* f = std::freopen(out.empty() ? "/dev/null" : out.c_str(), "w", stdout);
    if (!f) _exit(126);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double TimeRuns(const std::vector<std::string>& argv, int runs) {
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) {
    double start = Now();
    if (Run(argv) != 0) {
      std::cerr << "failed: " << argv[0] << " " << argv[1] << "\n";
      std::exit(1);
    }
    t.push_back(Now() - start);
  }
  return Median(t);
}

std::string Chromium() {
  if (const char* env = std::getenv("TESTMAP_CHROMIUM"); env && *env) return env;
  for (const char* dir : {"/usr/bin/", "/usr/local/bin/"}) {
    for (const char* name : {"chromium", "chromium-browser"}) {
      std::string p = std::string(dir) + name;
      if (access(p.c_str(), X_OK) == 0) return p;
    }
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  testmap::bench::SyntheticSpec spec;
  spec.dtypes = 20;
  std::string dir = (fs::temp_directory_path() / "testmap-report-perftest").string();
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--tests") spec.tests = std::atoi(argv[i + 1]);
    if (a == "--dir") dir = argv[i + 1];
  }
  const std::string testmap = std::string(TESTMAP_BINARY_DIR) + "/bin/testmap";
  fs::remove_all(dir);
  fs::create_directories(dir + "/traces");
  auto traces = testmap::bench::WriteSyntheticTraces(dir + "/traces", spec);
  std::string index = dir + "/index";
  std::vector<std::string> ingest = {testmap, "ingest", "--index", index};
  ingest.insert(ingest.end(), traces.shard_paths.begin(), traces.shard_paths.end());
  if (Run(ingest) != 0) return 1;
  std::printf("index: %d tests, %zu operators, %d dtypes, %zu test-op-dtype observations\n",
              spec.tests, traces.common_op_names.size() + traces.tail_op_names.size(), spec.dtypes,
              traces.edges);

  std::string page_dir = dir + "/page";
  double report = TimeRuns({testmap, "report", "--index", index, "--out", page_dir}, 3);
  double ops = TimeRuns({testmap, "ops", "--index", index, "--format", "json"}, 3);
  std::string summary_path = dir + "/summary.json";
  Run({testmap, "report", "--index", index, "--out", page_dir, "--format", "json"}, summary_path);
  std::ifstream in(summary_path);
  json s = json::parse(in);
  std::printf("testmap report (whole process, median of 3): %.2f s\n", report);
  std::printf("testmap ops --format json (baseline):        %.2f s  (report takes %.2fx)\n", ops,
              report / ops);
  std::printf("page: %.1f MB for %zu (test, cell) entries over %zu cells: %.2f bytes per entry\n",
              s["bytes"].get<double>() / 1e6, s["entries"].get<size_t>(), s["cells"].get<size_t>(),
              s["bytes"].get<double>() / std::max<double>(1, s["entries"].get<double>()));

  std::string chromium = Chromium();
  if (chromium.empty()) {
    std::printf("browser: chromium not found (scripts/setup.sh installs it); skipped\n");
    return 0;
  }
  // The biggest dtype cell of the most common operator.
  std::string op = traces.common_op_names.front();
  std::string facts = dir + "/facts.json";
  double start = Now();
  int rc = Run(
      {TESTMAP_PYTHON, std::string(TESTMAP_SOURCE_DIR) + "/tests/mapper/report/chromium_page.py",
       chromium, page_dir + "/index.html", dir + "/report.png", op, "float32", "compile"},
      facts);
  if (rc != 0) {
    std::cerr << "the browser driver failed (" << rc << ")\n";
    return 1;
  }
  std::ifstream fin(facts);
  json f = json::parse(fin);
  std::printf("browser (headless Chromium, whole session %.1f s):\n", Now() - start);
  std::printf("  load to drawn:          %6.0f ms\n", f["load_ms"].get<double>());
  std::printf(
      "  walk every row:         %6.0f ms for %zu frames (%.1f ms a frame); at most %d "
      "rows in the DOM\n",
      f["all"]["ms"].get<double>(), f["all"]["frames"].get<size_t>(),
      f["all"]["ms"].get<double>() / std::max<double>(1, f["all"]["frames"].get<double>()),
      f["all"]["maxRows"].get<int>());
  std::printf("  click a cell of %s tests: %4.0f ms (list of %zu)\n",
              f["click_target"]["text"].get<std::string>().c_str(), f.value("click_ms", 0.0),
              f["panel"]["tests"].size());
  std::printf("  one filter change:      %6.0f ms (recount of every cell)\n",
              f["filter_ms"].get<double>());
  std::printf("  errors: %zu, requests: %zu, screenshot %s\n",
              f["exceptions"].size() + f["console_errors"].size(), f["requests"].size(),
              (dir + "/report.png").c_str());
  return 0;
}
