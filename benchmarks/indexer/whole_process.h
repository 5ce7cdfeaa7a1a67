// Timing whole processes, as every benchmark here compares them: each
// contender runs through /bin/sh with its stdout to a file, so all pay the
// same shell start.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace testmap::bench {

// What one process cost: wall seconds, and the CPU seconds (user + system)
// it and its children used. On a shared machine the CPU time is the steadier
// figure: other work lengthens the wall time, not the CPU time.
struct ProcessTime {
  double wall = 0, cpu = 0;
};

double Now();  // seconds, monotonic
// Runs `command` with stdout into `out`; wall seconds. Exits on failure.
double TimeShell(const std::string& command, const std::string& out);
// The same, with the CPU time of the shell and everything it ran.
ProcessTime TimeShellCpu(const std::string& command, const std::string& out);
// Runs `fn` in a forked child process (a whole process of its own, as the
// contenders above, but spared the exec). Exits when the child fails.
ProcessTime TimeForked(const std::function<void()>& fn);
double Median(std::vector<double> v);

}  // namespace testmap::bench
