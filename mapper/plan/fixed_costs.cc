#include "mapper/plan/fixed_costs.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/node_id.h"

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

// A process's overhead and what it is fitted on: 1 (per process), its
// files, the tests it ran, the tests its files hold.
constexpr int kTerms = 4;
struct Observation {
  std::array<double, kTerms> x;
  double overhead;
};

// Least squares of overhead on the terms in `mask` (bit k: x[k]); false when
// the processes cannot tell those terms apart (a singular system).
bool FitTerms(const std::vector<Observation>& obs, unsigned mask, std::array<double, kTerms>& coef,
              double& squared_error) {
  std::array<int, kTerms> terms{};
  int n = 0;
  for (int k = 0; k < kTerms; ++k)
    if (mask & (1u << k)) terms[n++] = k;
  // Normal equations, n <= 4, solved by elimination with partial pivoting.
  double a[kTerms][kTerms + 1] = {};
  for (const Observation& o : obs) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) a[i][j] += o.x[terms[i]] * o.x[terms[j]];
      a[i][n] += o.x[terms[i]] * o.overhead;
    }
  }
  double scale[kTerms];
  for (int i = 0; i < n; ++i) scale[i] = a[i][i];
  for (int c = 0; c < n; ++c) {
    int pivot = c;
    for (int r = c + 1; r < n; ++r)
      if (std::fabs(a[r][c]) > std::fabs(a[pivot][c])) pivot = r;
    std::swap(a[c], a[pivot]);
    if (std::fabs(a[c][c]) <= 1e-9 * std::max(scale[c], 1e-300)) return false;
    for (int r = 0; r < n; ++r) {
      if (r == c) continue;
      const double f = a[r][c] / a[c][c];
      for (int k = c; k <= n; ++k) a[r][k] -= f * a[c][k];
    }
  }
  coef = {};
  for (int i = 0; i < n; ++i) coef[terms[i]] = a[i][n] / a[i][i];
  squared_error = 0;
  for (const Observation& o : obs) {
    double e = o.overhead;
    for (int k = 0; k < kTerms; ++k) e -= coef[k] * o.x[k];
    squared_error += e * e;
  }
  return true;
}

}  // namespace

std::map<std::string, int> CollectedTests(const std::vector<timings::TimingRecord>& records,
                                          const std::vector<std::string>& known_ids,
                                          const std::vector<timings::ProcessWall>& walls) {
  // Each test once per file identity (core/node_id.h), whichever way its
  // path is spelled: a scan run from the repository says
  // "test/test_x.py::T::t" where a report from test/ says "test_x.py::T::t".
  std::unordered_map<std::string, std::string> identity_of;                // path -> identity
  std::unordered_map<std::string, std::unordered_set<std::string>> tests;  // identity -> tests
  auto add = [&](std::string_view nodeid) {
    size_t sep = nodeid.find("::");
    if (sep == std::string_view::npos) return;  // a file, not a test
    std::string path(nodeid.substr(0, sep));
    auto it = identity_of.find(path);
    if (it == identity_of.end()) it = identity_of.emplace(path, core::TestFileIdentity(path)).first;
    tests[it->second].emplace(nodeid.substr(sep));  // "::T::t"
  };
  std::set<std::string_view> files;
  for (const timings::TimingRecord& r : records) {
    files.insert(r.file);
    if (r.level == timings::TimingLevel::kTest) add(r.id);
  }
  for (const std::string& id : known_ids) add(id);
  // What pytest itself counted when it collected a file (trace runs'
  // collection records), the most any process built of it.
  std::unordered_map<std::string, int> counted;  // identity -> tests
  for (const timings::ProcessWall& w : walls) {
    for (const auto& [file, n] : w.collection) {
      int& most = counted[core::TestFileIdentity(file)];
      most = std::max(most, n);
    }
  }
  std::map<std::string, int> out;
  for (std::string_view file : files) {
    const std::string identity = core::TestFileIdentity(file);
    auto it = tests.find(identity);
    auto c = counted.find(identity);
    const int n = std::max(it == tests.end() ? 0 : static_cast<int>(it->second.size()),
                           c == counted.end() ? 0 : c->second);
    if (it != tests.end() || c != counted.end()) out[std::string(file)] = n;
  }
  return out;
}

FixedCosts LearnFixedCosts(const std::vector<timings::ProcessWall>& walls,
                           const std::vector<timings::TimingRecord>& records,
                           const std::map<std::string, int>& collected) {
  FixedCosts out;
  LearnStartup(walls, out);
  std::vector<Observation> obs;
  for (const timings::ProcessWall& w : walls) {
    if (w.tests == 0 && w.collection.empty()) continue;
    std::set<std::string_view> files;
    for (size_t k = w.first_record; k < w.end_record && k < records.size(); ++k)
      files.insert(records[k].file);
    for (const auto& [file, n] : w.collection) files.insert(file);
    // The tests its files hold: what its pytest counted when it collected
    // them, where its trace says; else what the inputs know of them.
    double tests = 0;
    for (std::string_view f : files) {
      auto own = w.collection.find(std::string(f));
      if (own != w.collection.end()) {
        tests += own->second;
      } else if (auto it = collected.find(std::string(f)); it != collected.end()) {
        tests += it->second;
      }
    }
    obs.push_back(
        {{1.0, static_cast<double>(w.files), static_cast<double>(w.tests), tests}, w.Overhead()});
  }
  out.processes = static_cast<int>(obs.size());
  if (obs.empty()) return out;
  // Every subset of the terms (bit k: term k), by number of terms, then the
  // earlier terms first (fixed_costs.h): a later one replaces the best only
  // when strictly better.
  static constexpr unsigned kMasks[] = {1, 2, 4, 8, 3, 5, 9, 6, 10, 12, 7, 11, 13, 14, 15};
  std::array<double, kTerms> best{};
  double best_error = 0;
  bool found = false;
  for (unsigned mask : kMasks) {
    std::array<double, kTerms> coef;
    double error;
    if (!FitTerms(obs, mask, coef, error)) continue;
    if (std::any_of(coef.begin(), coef.end(), [](double c) { return c < 0; })) continue;
    if (!found || error < best_error * (1 - 1e-9) - 1e-12) {
      best = coef, best_error = error, found = true;
    }
  }
  // Per process alone is the mean, which is never negative: always found.
  out.per_process = best[0];
  out.per_file = best[1];
  out.per_test = best[2];
  out.per_collected = best[3];
  return out;
}

}  // namespace testmap::plan
