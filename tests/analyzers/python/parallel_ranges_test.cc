// ForEachRange: every item in exactly one range, ranges no more than the
// threads and no smaller than asked, run on threads of their own, and an
// exception in any range reaching the caller once all are done.
#include "analyzers/python/parallel_ranges.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace testmap::python {
namespace {

TEST(ForEachRange, CoversEveryItemOnceInRangesOfTheirOwnThreads) {
  for (size_t items : {0, 1, 4095, 4096, 8192, 10000, 50001})
    for (int threads : {0, 1, 2, 3, 8}) {
      SCOPED_TRACE(std::to_string(items) + " items, " + std::to_string(threads) + " threads");
      std::vector<std::atomic<int>> seen(items);
      std::mutex mu;
      std::set<size_t> ranges;
      std::set<std::thread::id> ids;
      size_t smallest = items;
      ForEachRange(items, 4096, threads, [&](size_t range, size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) seen[i]++;
        std::lock_guard lock(mu);
        EXPECT_TRUE(ranges.insert(range).second);
        ids.insert(std::this_thread::get_id());
        smallest = std::min(smallest, end - begin);
      });
      for (size_t i = 0; i < items; ++i) ASSERT_EQ(seen[i], 1) << i;
      size_t want = std::max<size_t>(1, std::min<size_t>(items / 4096, std::max(1, threads)));
      EXPECT_EQ(ranges.size(), want);
      EXPECT_EQ(ids.size(), want);
      if (want > 1) EXPECT_GE(smallest, 4096u);
    }
}

TEST(ForEachRange, AnExceptionInAnyRangeReachesTheCallerAfterAllRanges) {
  for (size_t bad : {0, 1, 3}) {
    std::atomic<int> finished{0};
    try {
      ForEachRange(4 * 4096, 4096, 4, [&](size_t range, size_t, size_t) {
        if (range == bad) throw std::runtime_error("range " + std::to_string(range));
        finished++;
      });
      ADD_FAILURE() << "no exception from range " << bad;
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), "range " + std::to_string(bad));
    }
    EXPECT_EQ(finished, 3);
  }
}

}  // namespace
}  // namespace testmap::python
