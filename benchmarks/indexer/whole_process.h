// Timing whole processes, as every benchmark here compares them: each
// contender runs through /bin/sh with its stdout to a file, so all pay the
// same shell start.
#pragma once

#include <string>
#include <vector>

namespace testmap::bench {

double Now();  // seconds, monotonic
// Runs `command` with stdout into `out`; wall seconds. Exits on failure.
double TimeShell(const std::string& command, const std::string& out);
double Median(std::vector<double> v);

}  // namespace testmap::bench
