#include "tests/support/suite_evidence.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <vector>

#include "tests/support/command.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {
namespace {

namespace fs = std::filesystem;

// What changes the evidence: the example suite's files.
std::string SuiteStamp(const std::string& suite) {
  std::string stamp;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(suite)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    if (!fs::is_regular_file(f)) continue;
    stamp += f.filename().string() + " " +
             std::to_string(std::hash<std::string>{}(ReadFile(f.string()))) + "\n";
  }
  return stamp;
}

}  // namespace

const SuiteEvidence& ExampleSuiteEvidence() {
  static SuiteEvidence evidence = [] {
    std::string suite = SourcePath("examples/suite");
    fs::path dir = fs::path(TESTMAP_BINARY_DIR) / "testdata" / "suite-evidence";
    fs::create_directories(dir);
    int lock = open((dir / "lock").c_str(), O_RDWR | O_CREAT, 0644);
    flock(lock, LOCK_EX);  // one process traces, the others wait and reuse
    SuiteEvidence ev{suite, (dir / "scan.jsonl").string(),
                     (dir / "traces" / "trace-main.jsonl").string()};
    std::string stamp = SuiteStamp(suite);
    if (ReadFile((dir / "stamp").string()) != stamp || !fs::exists(ev.trace) ||
        !fs::exists(ev.scan)) {
      fs::remove(dir / "stamp");
      auto scan =
          Testmap({"scan", ".", "--torch-python", TESTMAP_PYTHON, "--format", "jsonl"}, suite);
      if (scan.rc != 0) throw std::runtime_error("testmap scan failed: " + scan.err);
      WriteFile(ev.scan, scan.out);
      auto trace = Testmap({"trace", "--out", (dir / "traces").string(), "--compile-logs", "--",
                            "pytest", "-q", "-p", "no:cacheprovider", "."},
                           suite);
      if (!fs::exists(ev.trace))
        throw std::runtime_error("testmap trace wrote no shard: " + trace.err + trace.out);
      WriteFile((dir / "stamp").string(), stamp);
    }
    flock(lock, LOCK_UN);
    close(lock);
    return ev;
  }();
  return evidence;
}

}  // namespace testmap::testing
