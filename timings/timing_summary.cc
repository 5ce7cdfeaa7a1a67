#include "timings/timing_summary.h"

#include <algorithm>
#include <map>
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
  using Key = std::tuple<std::string, std::string, std::string>;
  std::map<Key, std::pair<TimingSummary, std::vector<double>>> groups;
  for (const TimingRecord& r : records) {
    auto& [summary, durations] = groups[Key{r.job, r.config, r.id}];
    if (summary.id.empty()) {
      summary.id = r.id;
      summary.file = r.file;
      summary.cls = r.cls;
      summary.level = r.level;
      summary.job = r.job;
      summary.config = r.config;
    }
    if (summary.feature.empty()) summary.feature = r.feature;
    summary.rerun = summary.rerun || r.rerun;
    if (r.outcome == Outcome::kSkipped) {
      ++summary.skipped_runs;
    } else {
      durations.push_back(r.seconds);
    }
  }
  std::vector<TimingSummary> out;
  out.reserve(groups.size());
  for (auto& [key, group] : groups) {
    auto& [summary, durations] = group;
    summary.timed_runs = static_cast<int>(durations.size());
    summary.seconds = Percentile(std::move(durations), options.percentile);
    out.push_back(std::move(summary));
  }
  return out;
}

}  // namespace testmap::timings
