#include "tracer/trace_runner.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <thread>

#include "core/errors.h"
#include "core/trace_format.h"
#include "tracer/shard_progress.h"
#include "tracer/trace_shards.h"

namespace testmap::tracer {
namespace {

namespace fs = std::filesystem;

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
      throw core::InputError(std::string(env) + "=" + v + " (the " + what + ") does not exist");
    return v;
  }
  for (const auto& c : candidates) {
    if (fs::exists(c)) return fs::canonical(c).string();
  }
  std::string tried;
  for (const auto& c : candidates) tried += " " + c.string();
  throw core::InputError("the " + what + " was not found (tried" + tried + "; set " + env + ")");
}

std::string Quote(const std::string& s) {
  if (s.find_first_of(" \t\"'$\\") == std::string::npos && !s.empty()) return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// fork/exec with the environment additions; returns the raw wait status.
// `tick`, when set, is called every 200 ms while the child runs.
int RunChild(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
             const std::function<void()>& tick) {
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
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
  }, old_int{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &old_int);
  int status = 0;
  for (;;) {
    pid_t done = waitpid(pid, &status, tick ? WNOHANG : 0);
    if (done == pid || (done < 0 && errno != EINTR)) break;
    if (done == 0) {
      tick();
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  }
  sigaction(SIGINT, &old_int, nullptr);
  return status;
}

struct PytestCommand {
  std::string python;  // the interpreter the command names ("" for `pytest`)
  std::vector<std::string> args;
};

// `pytest ARGS...` or `PYTHON -m pytest ARGS...`.
PytestCommand ParsePytestCommand(const std::vector<std::string>& command) {
  auto is_pytest = [](const std::string& a) {
    std::string name = fs::path(a).filename().string();
    return name == "pytest" || name == "py.test";
  };
  if (!command.empty() && is_pytest(command[0])) return {"", {command.begin() + 1, command.end()}};
  if (command.size() >= 3 && fs::path(command[0]).filename().string().starts_with("python") &&
      command[1] == "-m" && command[2] == "pytest")
    return {command[0], {command.begin() + 3, command.end()}};
  throw core::UsageError(
      "expected `testmap trace [options] -- pytest ARGS...` (or `-- python -m "
      "pytest ARGS...`)");
}

std::string SignalText(int sig) {
  return "signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
}

std::string ExitReason(int status) {
  if (WIFSIGNALED(status)) return "pytest was killed by " + SignalText(WTERMSIG(status));
  return "pytest exited with status " +
         std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

// Under xdist the dying process is a worker, and pytest itself exits
// normally: the worker's own note (tracer_api.h) names its signal.
std::string WorkerExitReason(const std::string& out, const std::string& shard, int status) {
  std::string name = fs::path(shard).filename().string();
  std::string worker = name.substr(6, name.size() - 6 - 6);  // trace-<worker>.jsonl
  if (worker == "main") return ExitReason(status);           // -n 0: no workers
  std::ifstream note(fs::path(out) / core::SignalNoteFileName(worker));
  int sig = 0;
  if (note >> sig && sig > 0)
    return "its xdist worker " + worker + " was killed by " + SignalText(sig) + " during the test";
  return "its xdist worker " + worker + " died during the test (" + ExitReason(status) + ")";
}

void RemoveSignalNotes(const std::string& out) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(out, ec)) {
    if (core::IsSignalNoteFileName(entry.path().filename().string())) fs::remove(entry.path(), ec);
  }
}

}  // namespace

TraceRunResult RunTrace(const TraceRunOptions& opt) {
  PytestCommand pytest = ParsePytestCommand(opt.pytest_command);
  const std::vector<std::string>& pytest_args = pytest.args;
  TraceRunResult result;
  std::error_code ec;
  if (fs::exists(opt.out, ec) && !fs::is_directory(opt.out, ec))
    throw core::InputError(opt.out, 0, "--out must be a directory for the trace shards");
  fs::create_directories(opt.out, ec);
  if (ec) throw core::InputError(opt.out, 0, "cannot create the trace directory: " + ec.message());
  result.out = fs::absolute(opt.out).string();
  result.recorder = opt.reference ? "reference" : "cpp";

  fs::path exe_dir = ExecutableDir();
  // --torch-python, else the interpreter of `PYTHON -m pytest`, else
  // $TESTMAP_PYTHON, else the one testmap was configured with.
  std::string python = !opt.python.empty()             ? opt.python
                       : !pytest.python.empty()        ? pytest.python
                       : std::getenv("TESTMAP_PYTHON") ? std::getenv("TESTMAP_PYTHON")
                                                       : std::string(TESTMAP_DEFAULT_PYTHON);
  std::string plugin_dir = Locate(
      "TESTMAP_PLUGIN_DIR",
      {exe_dir / "../share/testmap/python", fs::path(TESTMAP_PLUGIN_SOURCE_DIR)}, "tracer plugin");
  // Options in their one-word `--opt=value` form: pytest's early rootdir
  // search takes a separate absolute value for a path argument, which
  // would change every node id (docs/trace-format.md).
  std::vector<std::string> argv = {
      python, "-m", "pytest", "-p", "testmap_trace.plugin", "--testmap-out=" + result.out};
  if (opt.reference) {
    argv.push_back("--testmap-recorder=reference");
  } else {
    std::string lib =
        Locate("TESTMAP_TRACER_LIB", {exe_dir / "../lib/libtestmap_tracer.so"}, "tracer library");
    argv.insert(argv.end(), {"--testmap-recorder=cpp", "--testmap-tracer-lib=" + lib});
  }
  std::map<std::string, std::string> env;
  if (opt.compile_logs) {
    std::string lib = Locate("TESTMAP_LOGS_LIB", {exe_dir / "../lib/libtestmap_torch_logs.so"},
                             "TORCH_LOGS parser library");
    argv.insert(argv.end(), {"--testmap-compile-logs", "--testmap-logs-lib=" + lib});
    // A cache hit skips compilation and so its graph logs: compile afresh.
    env["TORCHINDUCTOR_FX_GRAPH_CACHE"] = "0";
    env["TORCHINDUCTOR_AUTOGRAD_CACHE"] = "0";
  }
  bool xdist = false;
  for (const auto& a : pytest_args)
    xdist = xdist || a.starts_with("-n") || a.starts_with("--numprocesses");
  const size_t skip_at = argv.size();  // where a resumed round adds its skip file
  argv.insert(argv.end(), pytest_args.begin(), pytest_args.end());

  if (!opt.keep) {
    // A fresh trace: old shards of another run would mix into this one.
    result.removed_shards = core::ListShards(opt.out);
    for (const auto& shard : result.removed_shards) fs::remove(shard);
    for (const auto& entry : fs::directory_iterator(opt.out)) {
      if (entry.path().filename().string().starts_with("torch-logs-")) fs::remove(entry.path());
    }
  }
  RemoveSignalNotes(opt.out);  // only ever about the run that wrote them
  const char* old_path = std::getenv("PYTHONPATH");
  env["PYTHONPATH"] = plugin_dir + (old_path && *old_path ? ":" + std::string(old_path) : "");
  std::string command;
  for (const auto& a : opt.command_line) command += (command.empty() ? "" : " ") + Quote(a);
  env["TESTMAP_COMMAND"] = command;
  env["TESTMAP_VERSION"] = TESTMAP_VERSION;

  std::optional<ShardProgress> progress;
  std::function<void()> tick;
  if (opt.progress) {
    progress.emplace(opt.out);
    tick = [&] { opt.progress(progress->Poll()); };
  }
  auto start = std::chrono::steady_clock::now();
  int status = 0;
  const fs::path skip_file = fs::path(result.out) / "resume-skip.txt";
  size_t crashes_before = 0;
  std::vector<std::string> resumes;
  for (int round = 0;; ++round) {
    std::vector<std::string> round_argv = argv;
    if (round > 0)
      round_argv.insert(round_argv.begin() + skip_at, "--testmap-skip-file=" + skip_file.string());
    status = RunChild(round_argv, env, tick);
    std::string reason = ExitReason(status);
    result.outcomes.clear();
    result.crashed.clear();
    result.warnings.clear();
    std::set<std::string> ops, done;
    result.eager_records = result.compile_records = 0;
    result.shards = core::ListShards(opt.out);
    for (const auto& shard : result.shards) {
      ShardSummary s =
          FinishShard(shard, xdist ? WorkerExitReason(opt.out, shard, status) : reason);
      for (const auto& [k, v] : s.outcomes) result.outcomes[k] += v;
      result.crashed.insert(result.crashed.end(), s.crashed.begin(), s.crashed.end());
      ops.insert(s.ops.begin(), s.ops.end());
      done.insert(s.nodeids.begin(), s.nodeids.end());
      result.warnings.insert(result.warnings.end(), s.warnings.begin(), s.warnings.end());
      result.eager_records += s.eager_ops;
      result.compile_records += s.compile_ops;
    }
    result.ops = ops.size();
    // --resume-after-crash: a round that ended with a new crash (a signal,
    // os._exit, an abort) runs again without every test already recorded,
    // the crashed one included. A round that records no new crash stops, so
    // a crash at collection cannot loop.
    RemoveSignalNotes(opt.out);
    bool new_crash = result.crashed.size() > crashes_before;
    crashes_before = result.crashed.size();
    if (!opt.resume || xdist || !new_crash) break;
    std::ofstream skip(skip_file);
    for (const auto& id : done) skip << id << "\n";
    resumes.push_back(reason + "; resuming after " + std::to_string(done.size()) +
                      " recorded tests");
  }
  fs::remove(skip_file, ec);
  result.warnings.insert(result.warnings.begin(), resumes.begin(), resumes.end());
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const auto& [k, v] : result.outcomes) result.tests += v;
  if (WIFSIGNALED(status))
    result.exit_code = 128 + WTERMSIG(status);
  else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    result.exit_code = WEXITSTATUS(status);
  else if (!result.crashed.empty())
    result.exit_code = 1;  // resumed past a crash and the rest passed: the run still failed
  return result;
}

}  // namespace testmap::tracer
