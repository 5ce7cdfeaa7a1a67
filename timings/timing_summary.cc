#include "timings/timing_summary.h"

#include <algorithm>
#include <tuple>

namespace testmap::timings {

double Percentile(std::vector<double> values, double percentile) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  double rank = std::clamp(percentile, 0.0, 100.0) / 100.0 * (values.size() - 1);
  size_t low = static_cast<size_t>(rank);
  size_t high = std::min(low + 1, values.size() - 1);
  return values[low] + (rank - low) * (values[high] - values[low]);
}

std::vector<TimingSummary> Summarize(const std::vector<TimingRecord>& records,
                                     const SummaryOptions& options) {
  // Sorting indices groups the runs of an item without a node per key: for
  // 100,000 tests this is several times cheaper than an ordered map, and the
  // order is the same (job, config, id), whatever the input order (ties by
  // input position keep the first feature seen).
  std::vector<size_t> order(records.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto key = [&](size_t i) {
    const TimingRecord& r = records[i];
    return std::tie(r.job, r.config, r.id);
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
  std::vector<TimingSummary> out;
  std::vector<double> durations;
  for (size_t begin = 0; begin < order.size();) {
    size_t end = begin + 1;
    while (end < order.size() && key(order[end]) == key(order[begin])) ++end;
    const TimingRecord& first = records[order[begin]];
    TimingSummary& summary = out.emplace_back();
    summary.id = first.id;
    summary.file = first.file;
    summary.cls = first.cls;
    summary.level = first.level;
    summary.job = first.job;
    summary.config = first.config;
    durations.clear();
    for (size_t k = begin; k < end; ++k) {
      const TimingRecord& r = records[order[k]];
      if (summary.feature.empty()) summary.feature = r.feature;
      summary.rerun = summary.rerun || r.rerun;
      if (r.outcome == Outcome::kSkipped) {
        ++summary.skipped_runs;
      } else {
        durations.push_back(r.seconds);
      }
    }
    summary.timed_runs = static_cast<int>(durations.size());
    summary.seconds =
        durations.size() == 1 ? durations[0] : Percentile(durations, options.percentile);
    begin = end;
  }
  return out;
}

}  // namespace testmap::timings
