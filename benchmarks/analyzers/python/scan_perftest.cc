// How fast `testmap scan` is against what a user would otherwise run
// (`pytest --collect-only -q`) and against its own floor (tree-sitter's
// parse of the same files), in one run, on the example suite and on a large
// tree made of copies of it.
//
//   build/bin/scan_perftest [--copies 250] [--no-pytest] [--suite DIR]
// (--suite: another suite directory than examples/suite, e.g. an older
// checkout's, to compare two versions of the scanner on the same files)
//
// Prints wall times and the ratios the scan issue sets targets for:
// scan vs pytest (>= 100x), analysis overhead over parsing (<= 25%), cold vs
// warm cache (>= 20x), and the speed-up from using all cores.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
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

double TimeCommand(const std::string& cmd) {
  auto t0 = std::chrono::steady_clock::now();
  int rc = std::system(cmd.c_str());
  if (rc != 0) std::fprintf(stderr, "warning: `%s` exited %d\n", cmd.c_str(), rc);
  return Seconds(t0);
}

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Tree-sitter parse only, all cores: the floor under any tree-sitter scan.
double ParseOnly(const std::vector<std::string>& files, int jobs, size_t* bytes) {
  std::atomic<size_t> next{0}, total{0};
  auto t0 = std::chrono::steady_clock::now();
  auto work = [&] {
    auto parser = py::NewPythonParser();
    for (size_t i; (i = next.fetch_add(1)) < files.size();) {
      std::string src = Slurp(files[i]);
      total += src.size();
      py::ParsedModule m(parser.get(), std::move(src));
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

void Bench(const char* label, const std::string& dir, const std::string& python,
           const std::string& bin, const std::string& snapshot, bool run_pytest) {
  int cores = static_cast<int>(std::thread::hardware_concurrency());
  std::vector<std::string> warnings;
  std::vector<std::string> files = py::DiscoverTestFiles({dir}, &warnings, &warnings);
  size_t bytes = 0, tests = 0, tests_warm = 0, tests1 = 0;
  double parse = ParseOnly(files, cores, &bytes);
  double parse1 = ParseOnly(files, 1, &bytes);
  char cache[] = "/tmp/testmap-bench-cache-XXXXXX";
  mkdtemp(cache);
  double cold = Scan(dir, snapshot, cache, cores, &tests);
  double warm = Scan(dir, snapshot, cache, cores, &tests_warm);
  double cold1 = Scan(dir, snapshot, "", 1, &tests1);
  double nocache = Scan(dir, snapshot, "", cores, &tests1);
  fs::remove_all(cache);
  // Whole processes, as a user would run them.
  double cli = TimeCommand("cd '" + dir + "' && '" + bin + "' scan . --no-cache --snapshot '" +
                           snapshot + "' --format jsonl > /dev/null");
  double pytest =
      run_pytest ? TimeCommand("cd '" + dir + "' && '" + python +
                               "' -m pytest --collect-only -q -p no:cacheprovider > /dev/null 2>&1")
                 : 0;

  std::printf("\n== %s: %zu files, %.1f MB, %zu tests (%d cores)\n", label, files.size(),
              bytes / 1e6, tests, cores);
  std::printf("  tree-sitter parse only    %8.3f s  (%.1f MB/s; 1 core %.3f s)\n", parse,
              bytes / 1e6 / parse, parse1);
  std::printf("  scan, no cache            %8.3f s  analysis adds %+.0f%% to parsing\n", nocache,
              100.0 * (nocache - parse) / parse);
  std::printf("  scan, cold cache (fills)  %8.3f s\n", cold);
  std::printf("  scan, warm cache          %8.3f s  cold/warm = %.1fx\n", warm, cold / warm);
  std::printf("  scan, 1 thread, no cache  %8.3f s  all cores are %.2fx faster\n", cold1,
              cold1 / nocache);
  std::printf("  testmap scan (process)    %8.3f s\n", cli);
  if (run_pytest)
    std::printf("  pytest --collect-only -q  %8.3f s  scan process is %.0fx faster\n", pytest,
                pytest / cli);
  if (tests_warm != tests)
    std::printf("  ERROR: warm scan found %zu tests, cold %zu\n", tests_warm, tests);
}

}  // namespace

int main(int argc, char** argv) {
  int copies = 250;
  bool run_pytest = true;
  std::string suite = std::string(TESTMAP_SOURCE_DIR) + "/examples/suite";
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--copies") && i + 1 < argc)
      copies = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--no-pytest"))
      run_pytest = false;
    else if (!std::strcmp(argv[i], "--suite") && i + 1 < argc)
      suite = argv[++i];
  }
  std::string python = TESTMAP_PYTHON;
  std::string bin = std::string(TESTMAP_BINARY_DIR) + "/bin/testmap";
  std::string snapshot = testmap::torch_snapshot::EnsureTorchSnapshot(
      python, testmap::torch_snapshot::DefaultCacheDir());

  Bench("example suite", suite, python, bin, snapshot, run_pytest);

  // A large tree: copies of the suite under distinct file names (pytest's
  // default import mode needs unique basenames).
  char tmpl[] = "/tmp/testmap-bench-tree-XXXXXX";
  fs::path tree = mkdtemp(tmpl);
  fs::copy_file(fs::path(suite) / "pytest.ini", tree / "pytest.ini");
  for (int k = 0; k < copies; ++k)
    for (const auto& e : fs::directory_iterator(suite)) {
      std::string name = e.path().filename().string();
      if (name.rfind("test_", 0) != 0 || e.path().extension() != ".py") continue;
      fs::path dst = tree / ("part" + std::to_string(k / 50)) /
                     (e.path().stem().string() + "_" + std::to_string(k) + ".py");
      fs::create_directories(dst.parent_path());
      fs::copy_file(e.path(), dst);
    }
  Bench("large tree (suite copies)", tree.string(), python, bin, snapshot, run_pytest);
  fs::remove_all(tree);
  return 0;
}
