#include "tests/support/growth.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <ctime>

namespace testmap::testing {
namespace {

double ThreadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

double CpuSecondsOf(const std::function<size_t()>& read) {
  const double start = ThreadCpuSeconds();
  EXPECT_GT(read(), 0u);
  return ThreadCpuSeconds() - start;
}

}  // namespace

// The smallest of the ratios: a quadratic reader gives 16 or more in every
// pair, while a pair that happens to share the machine with a noisy
// neighbour only ever raises its own ratio.
void ExpectLinear(const std::string& what, int n, const std::function<std::string(int)>& make,
                  const std::function<size_t(const std::string&)>& read) {
  const std::string small = make(n), large = make(4 * n);
  double best = 1e9, t1 = 0, t4 = 0;
  for (int i = 0; i < 3; ++i) {
    const double a = CpuSecondsOf([&] { return read(small); });
    const double b = CpuSecondsOf([&] { return read(large); });
    if (b / a < best) best = b / a, t1 = a, t4 = b;
  }
  std::printf("%s: %d records %.4f s, %d records %.4f s CPU, ratio %.2f\n", what.c_str(), n, t1,
              4 * n, t4, best);
  EXPECT_LT(best, kMaxGrowthRatio)
      << what << ": " << n << " records " << t1 << " s, " << 4 * n << " records " << t4 << " s";
}

}  // namespace testmap::testing
