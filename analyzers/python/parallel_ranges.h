// Work over many independent items (a file's records), split into
// contiguous ranges run on threads of their own: one file of 23,514 tests
// (test_unary_ufuncs.py) is a real tree's critical path, and its records
// are filled and rendered while the other cores would idle.
#pragma once

#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace testmap::python {

// Calls fn(range, begin, end) for contiguous ranges covering [0, items), in
// parallel: as many ranges as `threads` allows (range < max(1, threads))
// with at least `min_per_range` items each (a thread costs ~50 us to
// start), range 0 on the calling thread. Returns when all are done; if
// any range threw, rethrows the first range's exception then.
template <typename Fn>
void ForEachRange(size_t items, size_t min_per_range, int threads, Fn&& fn) {
  const size_t ranges = std::clamp<size_t>(items / std::max<size_t>(1, min_per_range), 1,
                                           static_cast<size_t>(std::max(1, threads)));
  auto bound = [&](size_t r) { return items * r / ranges; };
  std::vector<std::exception_ptr> thrown(ranges);
  auto run = [&](size_t r) {
    try {
      fn(r, bound(r), bound(r + 1));
    } catch (...) {
      thrown[r] = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> helpers;
    for (size_t r = 1; r < ranges; ++r) helpers.emplace_back(run, r);
    run(0);
  }
  for (const std::exception_ptr& e : thrown)
    if (e) std::rethrow_exception(e);
}

}  // namespace testmap::python
