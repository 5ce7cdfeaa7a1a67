#include "benchmarks/indexer/whole_process.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <iostream>

namespace testmap::bench {
namespace {

double CpuSeconds(const rusage& u) {
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// Waits for `pid`; its wall time since `start` and its CPU time (wait4
// reports the child's own usage, which includes its waited-for children).
ProcessTime Wait(pid_t pid, double start, const std::string& what) {
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  ProcessTime t{Now() - start, CpuSeconds(usage)};
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::cerr << "failed (" << status << "): " << what << "\n";
    std::exit(1);
  }
  return t;
}

}  // namespace

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

ProcessTime TimeShellCpu(const std::string& command, const std::string& out) {
  double start = Now();
  pid_t pid = fork();
  if (pid == 0) {
    std::string full = command + " > '" + out + "'";
    execl("/bin/sh", "sh", "-c", full.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return Wait(pid, start, command);
}

double TimeShell(const std::string& command, const std::string& out) {
  return TimeShellCpu(command, out).wall;
}

ProcessTime TimeForked(const std::function<void()>& fn) {
  std::cout.flush();
  double start = Now();
  pid_t pid = fork();
  if (pid == 0) {
    try {
      fn();
    } catch (const std::exception& e) {
      std::cerr << e.what() << "\n";
      _exit(1);
    }
    _exit(0);
  }
  return Wait(pid, start, "forked contender");
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty()      ? 0
         : v.size() % 2 ? v[v.size() / 2]
                        : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace testmap::bench
