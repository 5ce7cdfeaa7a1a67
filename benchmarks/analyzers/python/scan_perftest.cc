// How fast `testmap scan` is against what a user would otherwise run
// (`pytest --collect-only -q`) and against its own floor (tree-sitter's
// parse of the same files), in one run, on the example suite and on a large
// tree made of copies of it (each with its own bytes).
//
//   build/bin/scan_perftest [--copies 250] [--rounds 3] [--no-pytest] [--suite DIR]
//                           [--testmap BIN]
// (--suite: another suite directory than examples/suite, e.g. an older
// checkout's, and --testmap another build's binary, to compare two versions
// of the scanner on the same files)
//
// Prints the ratios the scan issues set targets for, whole processes as a
// user runs them: `testmap scan` with the torch snapshot cached and the scan
// cache empty (cold) and full (warm) against `pytest --collect-only -q`
// (>= 100x; warm under 50 ms), and on the large tree a re-scan after one
// of its files is edited, medians of interleaved rounds, wall and CPU
// (user + sys) time, with the load average; then, in-process, the analysis
// overhead over parsing, cold vs warm cache and the speed-up from all cores.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "analyzers/python/python_parser.h"
#include "analyzers/python/tree_scanner.h"
#include "analyzers/torch_snapshot/torch_snapshot.h"

namespace fs = std::filesystem;
namespace py = testmap::python;

namespace {

double Seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Timing {
  double wall = 0, cpu = 0;  // seconds; cpu: user + sys of the process and its children
};

double ChildrenCpu() {
  struct rusage u;
  getrusage(RUSAGE_CHILDREN, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

Timing TimeCommand(const std::string& cmd) {
  double cpu0 = ChildrenCpu();
  auto t0 = std::chrono::steady_clock::now();
  int rc = std::system(cmd.c_str());
  Timing t{Seconds(t0), ChildrenCpu() - cpu0};
  if (rc != 0) std::fprintf(stderr, "warning: `%s` exited %d\n", cmd.c_str(), rc);
  if (rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 5) {  // pytest: no tests collected
    std::fprintf(stderr, "scan_perftest: `%s` collected nothing\n", cmd.c_str());
    std::exit(1);
  }
  return t;
}

Timing Median(std::vector<Timing> v) {
  auto mid = [&](auto field) {
    std::vector<double> x;
    for (const Timing& t : v) x.push_back(t.*field);
    std::sort(x.begin(), x.end());
    return x.empty()      ? 0
           : x.size() % 2 ? x[x.size() / 2]
                          : (x[x.size() / 2 - 1] + x[x.size() / 2]) / 2;
  };
  return {mid(&Timing::wall), mid(&Timing::cpu)};
}

double LoadAverage() {
  double l[1] = {0};
  return getloadavg(l, 1) == 1 ? l[0] : -1;
}

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Tree-sitter parse only, all cores: the floor under any tree-sitter scan.
double ParseOnly(const std::vector<std::string>& files, int jobs, size_t* bytes,
                 py::BodyParsing mode = py::BodyParsing::kFull) {
  std::atomic<size_t> next{0}, total{0};
  auto t0 = std::chrono::steady_clock::now();
  auto work = [&] {
    auto parser = py::NewPythonParser();
    for (size_t i; (i = next.fetch_add(1)) < files.size();) {
      std::string src = Slurp(files[i]);
      total += src.size();
      py::ParsedModule m(parser.get(), std::move(src), mode);
    }
  };
  std::vector<std::thread> ts;
  for (int j = 1; j < jobs; ++j) ts.emplace_back(work);
  work();
  for (auto& t : ts) t.join();
  *bytes = total;
  return Seconds(t0);
}

double Scan(const std::string& dir, const std::string& snapshot, const std::string& cache, int jobs,
            size_t* tests) {
  py::TreeScanOptions o;
  o.paths = {dir};
  o.rootdir = dir;
  o.jobs = jobs;
  o.snapshot_file = snapshot;
  o.cache_dir = cache;
  auto t0 = std::chrono::steady_clock::now();
  py::TreeScanResult r = py::ScanTree(o);
  double s = Seconds(t0);
  *tests = 0;
  for (const auto& f : r.files) *tests += f.tests.size();
  return s;
}

// `editable`: the tree is the benchmark's own, so each round may also edit
// one of its files and time the re-scan after it.
void Bench(const char* label, const std::string& dir, const std::string& python,
           const std::string& bin, const std::string& snapshot, bool run_pytest, int rounds,
           bool editable) {
  int cores = static_cast<int>(std::thread::hardware_concurrency());
  std::vector<std::string> warnings;
  std::vector<std::string> files = py::DiscoverTestFiles({dir}, &warnings, &warnings);
  if (files.empty()) {
    // Ratios over nothing would read as figures.
    std::fprintf(stderr, "scan_perftest: no test files under %s\n", dir.c_str());
    std::exit(1);
  }
  size_t bytes = 0, tests = 0, tests_warm = 0, tests1 = 0;
  double load0 = LoadAverage();

  // Whole processes, as a user runs them: the torch snapshot cached (a copy
  // of the one in the default cache), the scan cache empty, then full.
  char cache[] = "/tmp/testmap-bench-cache-XXXXXX";
  mkdtemp(cache);
  // With the snapshot, the records of where each Python found torch, as a
  // user's cache holds them after one scan: without them the first round's
  // scan alone started Python (~20 ms) to locate torch again.
  fs::create_directories(fs::path(cache) / "torch-snapshots");
  for (const auto& e : fs::directory_iterator(fs::path(snapshot).parent_path())) {
    std::string name = e.path().filename().string();
    if (e.path() == fs::path(snapshot) ||
        (name.rfind("located-", 0) == 0 && e.path().extension() == ".txt"))
      fs::copy_file(e.path(), fs::path(cache) / "torch-snapshots" / name);
  }
  std::string scan_cmd = "cd '" + dir + "' && '" + bin + "' scan . --torch-python '" + python +
                         "' --cache-dir '" + cache + "' --format jsonl > /dev/null";
  std::string pytest_cmd = "cd '" + dir + "' && '" + python +
                           "' -m pytest --collect-only -q -p no:cacheprovider > /dev/null 2>&1";
  // Warm: the tree's whole output served (tree_output_cache.h); warm per
  // file: that entry removed, every file's records from the scan cache;
  // edited: one file changed since the warm scan, as a re-scan after an
  // edit finds the tree.
  std::vector<Timing> pytest, cold, warm_files, warm, edited;
  const std::string& edit = files[files.size() / 2];
  for (int r = 0; r < rounds; ++r) {
    if (run_pytest) pytest.push_back(TimeCommand(pytest_cmd));
    fs::remove_all(fs::path(cache) / "scan");
    fs::remove_all(fs::path(cache) / "scan-output");
    cold.push_back(TimeCommand(scan_cmd));
    fs::remove_all(fs::path(cache) / "scan-output");
    warm_files.push_back(TimeCommand(scan_cmd));
    warm.push_back(TimeCommand(scan_cmd));
    if (editable) {
      auto mtime = fs::last_write_time(edit);
      std::ofstream(edit, std::ios::app) << "# edit " << r << "\n";
      fs::last_write_time(edit, mtime);  // not racy (tree_scanner.cc): servable as before
      edited.push_back(TimeCommand(scan_cmd));
    }
  }
  double load1 = LoadAverage();

  // In-process: the parse floor and where the rest of the time goes.
  double parse = ParseOnly(files, cores, &bytes);
  double parse1 = ParseOnly(files, 1, &bytes);
  double parse_skipping = ParseOnly(files, cores, &bytes, py::BodyParsing::kSkipDefBodies);
  fs::remove_all(fs::path(cache) / "scan");
  double cold_in = Scan(dir, snapshot, cache, cores, &tests);
  if (tests == 0) {
    std::fprintf(stderr, "scan_perftest: the scan of %s found no test\n", dir.c_str());
    std::exit(1);
  }
  double warm_in = Scan(dir, snapshot, cache, cores, &tests_warm);
  double cold1 = Scan(dir, snapshot, "", 1, &tests1);
  double nocache = Scan(dir, snapshot, "", cores, &tests1);
  fs::remove_all(cache);

  Timing p = Median(pytest), c = Median(cold), wf = Median(warm_files), w = Median(warm);
  std::printf("\n== %s: %zu files, %.1f MB, %zu tests (%d cores)\n", label, files.size(),
              bytes / 1e6, tests, cores);
  std::printf("  whole process, median of %d interleaved rounds   wall      cpu (user+sys)\n",
              rounds);
  if (run_pytest)
    std::printf("  pytest --collect-only -q                 %8.3f s  %8.3f s\n", p.wall, p.cpu);
  std::printf("  testmap scan, cold (scan cache empty)    %8.3f s  %8.3f s", c.wall, c.cpu);
  if (run_pytest)
    std::printf("  pytest/cold: %.0fx wall, %.0fx cpu", p.wall / c.wall, p.cpu / c.cpu);
  std::printf("\n  testmap scan, warm per file (records)    %8.3f s  %8.3f s", wf.wall, wf.cpu);
  std::printf("\n  testmap scan, warm (tree output cached)  %8.3f s  %8.3f s", w.wall, w.cpu);
  if (run_pytest)
    std::printf("  pytest/warm: %.0fx wall, %.0fx cpu", p.wall / w.wall, p.cpu / w.cpu);
  if (editable) {
    Timing e = Median(edited);
    std::printf("\n  testmap scan, one file edited since      %8.3f s  %8.3f s", e.wall, e.cpu);
    if (run_pytest)
      std::printf("  pytest/edited: %.0fx wall, %.0fx cpu", p.wall / e.wall, p.cpu / e.cpu);
  }
  std::printf("\n  cold/warm %.1fx wall; load average %.1f before, %.1f after\n", c.wall / w.wall,
              load0, load1);
  std::printf("  in process:\n");
  std::printf("  tree-sitter parse only    %8.3f s  (%.1f MB/s; 1 core %.3f s)\n", parse,
              bytes / 1e6 / parse, parse1);
  std::printf("  parse, method bodies skipped %5.3f s  (what the scan parses)\n", parse_skipping);
  std::printf("  scan, no cache            %8.3f s  analysis adds %+.0f%% to that parse\n", nocache,
              100.0 * (nocache - parse_skipping) / parse_skipping);
  std::printf("  scan, cold cache (fills)  %8.3f s\n", cold_in);
  std::printf("  scan, warm cache          %8.3f s  cold/warm = %.1fx\n", warm_in,
              cold_in / warm_in);
  std::printf("  scan, 1 thread, no cache  %8.3f s  all cores are %.2fx faster\n", cold1,
              cold1 / nocache);
  if (tests_warm != tests)
    std::printf("  ERROR: warm scan found %zu tests, cold %zu\n", tests_warm, tests);
}

}  // namespace

int main(int argc, char** argv) {
  int copies = 250, rounds = 3;
  bool run_pytest = true;
  std::string suite = std::string(TESTMAP_SOURCE_DIR) + "/examples/suite";
  std::string bin = std::string(TESTMAP_BINARY_DIR) + "/bin/testmap";
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--copies") && i + 1 < argc)
      copies = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--testmap") && i + 1 < argc)
      bin = argv[++i];
    else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc)
      rounds = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--no-pytest"))
      run_pytest = false;
    else if (!std::strcmp(argv[i], "--suite") && i + 1 < argc)
      suite = argv[++i];
  }
  std::string python = TESTMAP_PYTHON;
  std::string snapshot = testmap::torch_snapshot::EnsureTorchSnapshot(
      python, testmap::torch_snapshot::DefaultCacheDir());

  const bool example = suite == std::string(TESTMAP_SOURCE_DIR) + "/examples/suite";
  Bench(example ? "example suite" : "suite", suite, python, bin, snapshot, run_pytest, rounds,
        false);

  // A large tree: copies of the suite's test files (in its subfolders too)
  // under distinct file names (pytest's default import mode needs unique
  // basenames).
  char tmpl[] = "/tmp/testmap-bench-tree-XXXXXX";
  fs::path tree = mkdtemp(tmpl);
  if (fs::exists(fs::path(suite) / "pytest.ini"))
    fs::copy_file(fs::path(suite) / "pytest.ini", tree / "pytest.ini");
  for (int k = 0; k < copies; ++k)
    for (const auto& e : fs::recursive_directory_iterator(suite)) {
      std::string name = e.path().filename().string();
      if (name.rfind("test_", 0) != 0 || e.path().extension() != ".py") continue;
      fs::path dst = tree / ("part" + std::to_string(k / 50)) /
                     fs::relative(e.path().parent_path(), suite) /
                     (e.path().stem().string() + "_" + std::to_string(k) + ".py");
      fs::create_directories(dst.parent_path());
      // Each copy's bytes are its own, as a real tree's files are: files
      // with the same bytes share one scan cache entry, and a tree of exact
      // copies would time the cache instead of the scan.
      std::ofstream(dst, std::ios::binary)
          << Slurp(e.path()) << "\n# copy " << k << " of " << name << "\n";
      // As old as a checked-out tree's files: ones written in the last
      // seconds are never served from the tree output cache (racy).
      fs::last_write_time(dst, fs::last_write_time(e.path()));
    }
  Bench("large tree (suite copies)", tree.string(), python, bin, snapshot, run_pytest, rounds,
        true);
  fs::remove_all(tree);
  return 0;
}
