// `testmap trace [--out DIR] [--reference] [--compile-logs] -- pytest ARGS...`
//
// Runs pytest in a child process with the testmap_trace plugin and the C++
// recorder (or the reference TorchDispatchMode recorder), then finishes the
// shards: a test whose process died mid-test is recorded as crashed here,
// by the parent, since the dying process cannot. Prints where the traces
// went and a one-line summary; exits with pytest's status.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "tracer/trace_shards.h"

namespace testmap::cli {
namespace {

namespace fs = std::filesystem;

struct TraceOptions {
  std::string out = ".testmap/traces";
  bool reference = false;
  bool compile_logs = false;
  bool keep = false;
  bool resume = false;
  std::string python;
  std::string format = "table";
  std::vector<std::string> pytest_args;
};

fs::path ExecutableDir() {
  std::error_code ec;
  auto exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::current_path() : exe.parent_path();
}

// An installed or build-tree file: env override, then next to the binary
// (build/bin/testmap -> build/lib/...), then the configured location.
std::string Locate(const char* env, const std::vector<fs::path>& candidates,
                   const std::string& what) {
  if (const char* v = std::getenv(env); v && *v) {
    if (!fs::exists(v))
      throw CLI::ValidationError(what, std::string(env) + "=" + v + " does not exist");
    return v;
  }
  for (const auto& c : candidates) {
    if (fs::exists(c)) return fs::canonical(c).string();
  }
  std::string tried;
  for (const auto& c : candidates) tried += " " + c.string();
  throw CLI::ValidationError(what, "not found (tried" + tried + "; set " + env + ")");
}

std::string Quote(const std::string& s) {
  if (s.find_first_of(" \t\"'$\\") == std::string::npos && !s.empty()) return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// fork/exec with the environment additions; returns the raw wait status.
int RunChild(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env) {
  pid_t pid = fork();
  if (pid < 0) throw CLI::RuntimeError(std::string("fork failed: ") + std::strerror(errno), 1);
  if (pid == 0) {
    for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    std::fprintf(stderr, "testmap trace: cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  // Ctrl-C reaches pytest (same process group) and it finishes its shards;
  // the parent waits for it instead of dying first.
  struct sigaction ignore {
  }, old_int{}, old_term{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &old_int);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  sigaction(SIGINT, &old_int, nullptr);
  (void)old_term;
  return status;
}

// This process's argv, for the run metadata: the exact command to rerun.
std::vector<std::string> OwnCommandLine() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> args;
  for (std::string arg; std::getline(in, arg, '\0');) args.push_back(arg);
  return args;
}

void RunTrace(const TraceOptions& opt, const std::vector<std::string>& full_command) {
  if (opt.pytest_args.empty() || fs::path(opt.pytest_args[0]).filename() != "pytest") {
    throw CLI::ValidationError("pytest command",
                               "expected `testmap trace [options] -- pytest ARGS...`");
  }
  fs::path exe_dir = ExecutableDir();
  std::string python = !opt.python.empty()             ? opt.python
                       : std::getenv("TESTMAP_PYTHON") ? std::getenv("TESTMAP_PYTHON")
                                                       : std::string(TESTMAP_DEFAULT_PYTHON);
  std::string plugin_dir = Locate(
      "TESTMAP_PLUGIN_DIR",
      {exe_dir / "../share/testmap/python", fs::path(TESTMAP_PLUGIN_SOURCE_DIR)}, "tracer plugin");
  std::vector<std::string> argv = {python,
                                   "-m",
                                   "pytest",
                                   "-p",
                                   "testmap_trace.plugin",
                                   "--testmap-out",
                                   fs::absolute(opt.out).string()};
  if (opt.reference) {
    argv.insert(argv.end(), {"--testmap-recorder", "reference"});
  } else {
    std::string lib =
        Locate("TESTMAP_TRACER_LIB", {exe_dir / "../lib/libtestmap_tracer.so"}, "tracer library");
    argv.insert(argv.end(), {"--testmap-recorder", "cpp", "--testmap-tracer-lib", lib});
  }
  std::map<std::string, std::string> env;
  if (opt.compile_logs) {
    std::string lib = Locate("TESTMAP_LOGS_LIB", {exe_dir / "../lib/libtestmap_torch_logs.so"},
                             "TORCH_LOGS parser library");
    argv.insert(argv.end(), {"--testmap-compile-logs", "--testmap-logs-lib", lib});
    // A cache hit skips compilation and so its graph logs: compile afresh.
    env["TORCHINDUCTOR_FX_GRAPH_CACHE"] = "0";
    env["TORCHINDUCTOR_AUTOGRAD_CACHE"] = "0";
  }
  argv.insert(argv.end(), opt.pytest_args.begin() + 1, opt.pytest_args.end());

  fs::create_directories(opt.out);
  if (!opt.keep) {
    // A fresh trace: old shards of another run would mix into this one.
    for (const auto& shard : tracer::ListShards(opt.out)) fs::remove(shard);
    for (const auto& entry : fs::directory_iterator(opt.out)) {
      if (entry.path().filename().string().starts_with("torch-logs-")) fs::remove(entry.path());
    }
  }
  const char* old_path = std::getenv("PYTHONPATH");
  env["PYTHONPATH"] = plugin_dir + (old_path && *old_path ? ":" + std::string(old_path) : "");
  std::string command;
  for (const auto& a : full_command) command += (command.empty() ? "" : " ") + Quote(a);
  env["TESTMAP_COMMAND"] = command;
  env["TESTMAP_VERSION"] = TESTMAP_VERSION;

  auto start = std::chrono::steady_clock::now();
  int status = 0;
  int crashes_seen = 0;
  std::map<std::string, size_t> outcomes;
  std::vector<std::string> crashed;
  std::set<std::string> ops;
  size_t eager = 0, compile = 0;
  std::vector<std::string> shards;
  const fs::path skip_file = fs::absolute(opt.out) / "resume-skip.txt";
  for (int round = 0;; ++round) {
    std::vector<std::string> round_argv = argv;
    if (round > 0)
      round_argv.insert(round_argv.begin() + 7, {"--testmap-skip-file", skip_file.string()});
    status = RunChild(round_argv, env);
    std::string reason =
        "pytest exited with status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    if (WIFSIGNALED(status)) {
      reason = std::string("pytest was killed by signal ") + std::to_string(WTERMSIG(status)) +
               " (" + strsignal(WTERMSIG(status)) + ")";
    }
    outcomes.clear();
    crashed.clear();
    ops.clear();
    eager = compile = 0;
    std::set<std::string> done;
    shards = tracer::ListShards(opt.out);
    for (const auto& shard : shards) {
      auto s = tracer::FinishShard(shard, reason);
      for (const auto& [k, v] : s.outcomes) outcomes[k] += v;
      crashed.insert(crashed.end(), s.crashed.begin(), s.crashed.end());
      ops.insert(s.ops.begin(), s.ops.end());
      done.insert(s.nodeids.begin(), s.nodeids.end());
      eager += s.eager_ops;
      compile += s.compile_ops;
    }
    if (!WIFSIGNALED(status)) break;
    ++crashes_seen;
    // --resume-after-crash: run the tests the crash took with it, skipping
    // every test already recorded (the crashed one included). Stops when a
    // round records nothing new, so a crash at collection cannot loop.
    if (!opt.resume || static_cast<int>(crashed.size()) < crashes_seen) break;
    std::ofstream skip(skip_file);
    for (const auto& id : done) skip << id << "\n";
    std::cerr << "testmap trace: " << reason << "; resuming after " << done.size()
              << " recorded tests\n";
  }
  std::error_code ignored;
  fs::remove(skip_file, ignored);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  size_t tests = 0;
  for (const auto& [k, v] : outcomes) tests += v;
  if (opt.format == "json") {
    nlohmann::json j = {{"out", fs::absolute(opt.out).string()},
                        {"shards", shards},
                        {"tests", tests},
                        {"outcomes", outcomes},
                        {"crashed", crashed},
                        {"ops", ops.size()},
                        {"eager_records", eager},
                        {"compile_records", compile},
                        {"seconds", seconds},
                        {"recorder", opt.reference ? "reference" : "cpp"}};
    std::cout << j.dump(2) << "\n";
  } else {
    std::string counts;
    for (const auto& [k, v] : outcomes)
      counts += (counts.empty() ? "" : ", ") + std::to_string(v) + " " + k;
    std::cout << "testmap trace: " << shards.size() << " shard(s) in "
              << fs::absolute(opt.out).string() << "\n";
    std::cout << "testmap trace: " << tests << " tests (" << (counts.empty() ? "none" : counts)
              << "); " << ops.size() << " operators, " << eager << " eager and " << compile
              << " compile (op, dtypes, device) records; " << static_cast<int>(seconds * 10) / 10.0
              << " s; recorder " << (opt.reference ? "reference" : "cpp") << "\n";
    for (const auto& c : crashed) std::cout << "testmap trace: crashed: " << c << "\n";
  }
  if (WIFSIGNALED(status)) throw CLI::RuntimeError(128 + WTERMSIG(status));
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0) throw CLI::RuntimeError(WEXITSTATUS(status));
  // Resumed past a crash and the rest passed: the run still failed.
  if (!crashed.empty()) throw CLI::RuntimeError(1);
}

}  // namespace

void RegisterTraceCommand(CLI::App& app) {
  auto opt = std::make_shared<TraceOptions>();
  auto* cmd = app.add_subcommand(
      "trace",
      "Run pytest and record, per test, the operators, dtypes and devices it dispatched.\n\n"
      "  testmap trace -- pytest test/test_ops.py -k add\n"
      "  testmap trace --compile-logs --out traces/ -- pytest -n 4 test/inductor\n\n"
      "Each pytest process (each xdist worker) writes DIR/trace-<worker>.jsonl, one JSON record\n"
      "per test (docs/trace-format.md). A test that crashes its process is recorded as crashed.");
  cmd->add_option("--out", opt->out, "directory for the trace shards")->capture_default_str();
  cmd->add_flag("--reference", opt->reference,
                "record with the pure-Python TorchDispatchMode reference (slow; for checking the "
                "C++ tracer)");
  cmd->add_flag("--compile-logs", opt->compile_logs,
                "capture TORCH_LOGS aot_graphs/post_grad_graphs per test and record their ops "
                "(evidence compile)");
  cmd->add_flag(
      "--resume-after-crash", opt->resume,
      "when a test kills pytest (without xdist), record it as crashed and run the remaining tests");
  cmd->add_flag("--keep", opt->keep,
                "append to existing shards in --out instead of starting afresh");
  cmd->add_option("--python", opt->python,
                  "Python interpreter with torch and pytest (default: the configured one)");
  cmd->add_option("--format", opt->format, "summary format")
      ->check(CLI::IsMember({"table", "json"}))
      ->capture_default_str();
  cmd->add_option("pytest", opt->pytest_args, "the pytest command line, after --")->required();
  cmd->callback([opt]() { RunTrace(*opt, OwnCommandLine()); });
}

}  // namespace testmap::cli
