#include "mapper/plan/fixed_costs.h"

#include <algorithm>
#include <map>
#include <string>

namespace testmap::plan {
namespace {

// The median gap between sessions of one host that ran one after another.
void LearnStartup(const std::vector<timings::ProcessWall>& walls, FixedCosts& out) {
  std::map<std::string, std::vector<std::pair<double, double>>> by_host;  // (start, end)
  for (const timings::ProcessWall& w : walls) {
    if (w.start >= 0) by_host[w.host].emplace_back(w.start, w.start + w.wall_seconds);
  }
  std::vector<double> gaps;
  for (auto& [host, spans] : by_host) {
    std::sort(spans.begin(), spans.end());
    // Every session that started earlier has ended by `busy_until`; a gap
    // counts only when none was still running, so sessions side by side
    // (pytest-xdist, --procs) give none.
    double busy_until = spans.front().second;
    for (size_t k = 1; k < spans.size(); ++k) {
      const double gap = spans[k].first - busy_until;
      if (gap >= 0 && gap <= kMaxStartupGapSeconds) gaps.push_back(gap);
      busy_until = std::max(busy_until, spans[k].second);
    }
  }
  out.startup_gaps = static_cast<int>(gaps.size());
  if (gaps.empty()) return;
  std::sort(gaps.begin(), gaps.end());
  const size_t n = gaps.size();
  out.startup = n % 2 ? gaps[n / 2] : (gaps[n / 2 - 1] + gaps[n / 2]) / 2;
}

}  // namespace

FixedCosts LearnFixedCosts(const std::vector<timings::ProcessWall>& walls) {
  FixedCosts out;
  LearnStartup(walls, out);
  double n = 0, sf = 0, so = 0, sff = 0, sfo = 0;
  for (const timings::ProcessWall& w : walls) {
    if (w.tests == 0) continue;
    const double f = w.files, o = w.Overhead();
    n += 1, sf += f, so += o, sff += f * f, sfo += f * o;
  }
  out.processes = static_cast<int>(n);
  if (n == 0) return out;
  const double mean_f = sf / n, mean_o = so / n;
  const double var_f = sff / n - mean_f * mean_f;
  if (var_f > 1e-9) {
    out.per_file = (sfo / n - mean_f * mean_o) / var_f;
    out.per_process = mean_o - out.per_file * mean_f;
  } else {
    out.per_process = mean_o;
  }
  if (out.per_file < 0) {  // more files took less: no per-file cost to see
    out.per_file = 0;
    out.per_process = mean_o;
  }
  if (out.per_process < 0) {  // all of it scales with files
    out.per_process = 0;
    out.per_file = sf > 0 ? so / sf : 0;
  }
  return out;
}

}  // namespace testmap::plan
