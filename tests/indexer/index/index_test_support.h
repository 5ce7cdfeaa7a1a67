// Support for the index tests: real evidence and the real CLI.
//
// SuiteEvidence() scans and traces the bundled example suite (examples/suite)
// with the real `testmap scan` and `testmap trace --compile-logs`, once per
// build tree: the result is cached under build/testdata/suite-evidence and
// shared (under a file lock) by every test process, since ctest runs each
// case in its own process and a trace takes most of a minute.
#pragma once

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace testmap::testing {

namespace fs = std::filesystem;

inline std::string TestmapBin() {
  const char* env = std::getenv("TESTMAP_BIN");
  return env && *env ? env : std::string(TESTMAP_BINARY_DIR) + "/bin/testmap";
}

struct CommandResult {
  int rc = -1;
  std::string out, err;
};

inline std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A scratch directory unique to this process and name, removed first.
inline std::string ScratchDir(const std::string& name) {
  auto dir = fs::temp_directory_path() / ("testmap-index-test-" + std::to_string(getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

// Runs argv (argv[0] searched in PATH) in `cwd`, stdout and stderr captured.
inline CommandResult RunCommand(const std::vector<std::string>& argv, const std::string& cwd = "") {
  // Atomic: tests call this from several threads, and two commands sharing
  // an output file would read each other's (or an emptied) output.
  static std::atomic<int> counter{0};
  auto base = fs::temp_directory_path() /
              ("testmap-cmd-" + std::to_string(getpid()) + "-" + std::to_string(++counter));
  std::string out_path = base.string() + ".out", err_path = base.string() + ".err";
  pid_t pid = fork();
  if (pid == 0) {
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(126);
    int o = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(o, 1);
    dup2(e, 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CommandResult r;
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = Slurp(out_path);
  r.err = Slurp(err_path);
  fs::remove(out_path);
  fs::remove(err_path);
  return r;
}

// `testmap ARGS...`.
inline CommandResult Testmap(std::vector<std::string> args, const std::string& cwd = "") {
  args.insert(args.begin(), TestmapBin());
  return RunCommand(args, cwd);
}

inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

struct Evidence {
  std::string scan;   // testmap scan --format jsonl output
  std::string trace;  // the trace-main.jsonl shard
};

// What changes the evidence: the example suite's files.
inline std::string SuiteStamp(const std::string& suite) {
  std::string stamp;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(suite)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    stamp += f.filename().string() + " " +
             std::to_string(std::hash<std::string>{}(Slurp(f.string()))) + "\n";
  }
  return stamp;
}

inline const Evidence& SuiteEvidence() {
  static Evidence evidence = [] {
    std::string suite = std::string(TESTMAP_SOURCE_DIR) + "/examples/suite";
    fs::path dir = fs::path(TESTMAP_BINARY_DIR) / "testdata" / "suite-evidence";
    fs::create_directories(dir);
    int lock = open((dir / "lock").c_str(), O_RDWR | O_CREAT, 0644);
    flock(lock, LOCK_EX);  // one process traces, the others wait and reuse
    Evidence ev{(dir / "scan.jsonl").string(), (dir / "traces" / "trace-main.jsonl").string()};
    std::string stamp = SuiteStamp(suite);
    if (Slurp((dir / "stamp").string()) != stamp || !fs::exists(ev.trace) || !fs::exists(ev.scan)) {
      fs::remove(dir / "stamp");
      auto scan =
          Testmap({"scan", ".", "--torch-python", TESTMAP_PYTHON, "--format", "jsonl"}, suite);
      if (scan.rc != 0) throw std::runtime_error("testmap scan failed: " + scan.err);
      std::ofstream(ev.scan) << scan.out;
      auto trace = Testmap({"trace", "--out", (dir / "traces").string(), "--compile-logs", "--",
                            "pytest", "-q", "-p", "no:cacheprovider", "."},
                           suite);
      if (!fs::exists(ev.trace))
        throw std::runtime_error("testmap trace wrote no shard: " + trace.err + trace.out);
      std::ofstream(dir / "stamp") << stamp;
    }
    flock(lock, LOCK_UN);
    close(lock);
    return ev;
  }();
  return evidence;
}

}  // namespace testmap::testing
