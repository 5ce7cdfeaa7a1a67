#include "mapper/plan/warmup.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace testmap::plan {
namespace {

double Median(std::vector<double>& v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool IsTest(const timings::TimingRecord& r) { return r.level == timings::TimingLevel::kTest; }

}  // namespace

Warmup MoveWarmupToOverhead(timings::TimingInput& input) {
  std::vector<timings::TimingRecord>& records = input.records;
  // The runs of each process's first test where it was not first.
  std::vector<char> first(records.size(), 0);
  std::unordered_map<std::string_view, std::vector<double>> elsewhere;
  for (const timings::ProcessWall& w : input.walls) {
    // Only ranges a reader made: at least two records, inside `records`.
    if (w.end_record > records.size() || w.first_record + 2 > w.end_record) continue;
    if (!IsTest(records[w.first_record])) continue;
    first[w.first_record] = 1;
    elsewhere[records[w.first_record].id];
  }
  if (elsewhere.empty()) return {};
  for (size_t i = 0; i < records.size(); ++i) {
    if (first[i] || !IsTest(records[i])) continue;
    auto it = elsewhere.find(records[i].id);
    if (it != elsewhere.end()) it->second.push_back(records[i].seconds);
  }

  Warmup out;
  std::vector<double> peers;
  for (timings::ProcessWall& w : input.walls) {
    if (w.first_record >= records.size() || !first[w.first_record]) continue;
    timings::TimingRecord& r = records[w.first_record];
    std::vector<double>& seen = elsewhere[r.id];
    double typical, ratio = kSeenRatio;
    if (!seen.empty()) {
      typical = Median(seen);
    } else {
      ratio = kPeerRatio;
      peers.clear();
      for (size_t i = w.first_record + 1; i < w.end_record; ++i) {
        if (IsTest(records[i]) && records[i].file == r.file) peers.push_back(records[i].seconds);
      }
      if (peers.size() < static_cast<size_t>(kMinPeers)) continue;
      typical = Median(peers);
    }
    const double excess = r.seconds - typical;
    if (excess < kMinWarmupSeconds || r.seconds < ratio * typical) continue;
    r.seconds = typical;
    w.test_seconds = std::max(0.0, w.test_seconds - excess);
    ++out.processes;
    out.seconds += excess;
  }
  return out;
}

}  // namespace testmap::plan
