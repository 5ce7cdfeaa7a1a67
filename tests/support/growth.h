// Catching a reader that is not linear in its input: reading 4n records
// must take about 4 times as long as reading n, never 16. Times are the
// thread's CPU time (other processes on a loaded CI machine stretch the wall
// clock of whichever run they overlap), compared within one run, in a few
// pairs, with a generous bound on the ratio.
#pragma once

#include <functional>
#include <string>

namespace testmap::testing {

// Linear is 4 (measured 3.6-7 with allocation and cache effects on a loaded
// machine); quadratic is 16 or more.
inline constexpr double kMaxGrowthRatio = 12;

// Makes inputs of `n` and 4`n` records with `make`, reads each with `read`
// (which returns how many records it got, checked non-zero) three times in
// pairs, prints the best ratio under `what`, and records a test failure
// when even the best pair's ratio is kMaxGrowthRatio or more.
void ExpectLinear(const std::string& what, int n, const std::function<std::string(int)>& make,
                  const std::function<size_t(const std::string&)>& read);

}  // namespace testmap::testing
