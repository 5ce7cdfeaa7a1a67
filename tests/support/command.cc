#include "tests/support/command.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>

#include "tests/support/temp_dir.h"

namespace testmap::testing {

namespace fs = std::filesystem;

CommandResult RunCommand(const std::vector<std::string>& argv, const std::string& cwd,
                         const std::map<std::string, std::string>& env, const std::string& input) {
  // Files rather than pipes: no deadlock on big outputs, no reader threads.
  // Atomic: tests call this from several threads, and two commands sharing
  // an output file would read each other's output.
  static std::atomic<int> counter{0};
  auto base = fs::temp_directory_path() /
              ("testmap-cmd-" + std::to_string(getpid()) + "-" + std::to_string(++counter));
  std::string in_path = base.string() + ".in", out_path = base.string() + ".out",
              err_path = base.string() + ".err";
  WriteFile(in_path, input);
  pid_t pid = fork();
  if (pid == 0) {
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(126);
    for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
    int i = open(in_path.c_str(), O_RDONLY);
    int o = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(i, 0);
    dup2(o, 1);
    dup2(e, 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  CommandResult r;
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = ReadFile(out_path);
  r.err = ReadFile(err_path);
  std::error_code ignored;
  for (const auto& p : {in_path, out_path, err_path}) fs::remove(p, ignored);
  return r;
}

std::string TestmapBin() {
  const char* env = std::getenv("TESTMAP_BIN");
  return env && *env ? env : std::string(TESTMAP_BINARY_DIR) + "/bin/testmap";
}

CommandResult Testmap(std::vector<std::string> args, const std::string& cwd,
                      const std::map<std::string, std::string>& env) {
  args.insert(args.begin(), TestmapBin());
  return RunCommand(args, cwd, env);
}

CommandResult TestmapShell(const std::string& words, const std::string& cwd) {
  return RunCommand({"sh", "-c", "exec '" + TestmapBin() + "' " + words}, cwd);
}

CommandResult Python(std::vector<std::string> args, const std::string& cwd,
                     const std::map<std::string, std::string>& env) {
  args.insert(args.begin(), TESTMAP_PYTHON);
  return RunCommand(args, cwd, env);
}

}  // namespace testmap::testing
