#include "core/closest_names.h"

#include <algorithm>
#include <tuple>

namespace testmap::core {

size_t EditDistance(std::string_view a, std::string_view b) {
  // Optimal string alignment: insertions, deletions, substitutions and
  // transpositions of neighbours (`cdua` is one edit from `cuda`).
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::vector<std::string> ClosestNames(
    std::string_view wanted, const std::vector<std::string>& known, size_t limit,
    const std::function<std::string_view(std::string_view)>& key) {
  std::vector<std::tuple<size_t, int, std::string>> ranked;
  for (const auto& k : known) {
    std::string_view name = key ? key(k) : std::string_view(k);
    size_t d = EditDistance(wanted, name);
    // Containment only counts for names long enough to mean something
    // (`scaled_mm` ~ `_scaled_mm`, but not `scaled_mm` ~ `le`).
    bool contains =
        std::min(wanted.size(), name.size()) >= 3 &&
        (name.find(wanted) != std::string_view::npos || wanted.find(name) != std::string::npos);
    if (!contains && d > std::max<size_t>(2, wanted.size() / 2)) continue;
    ranked.emplace_back(contains ? std::min<size_t>(d, 1) : d, contains ? 0 : 1, k);
  }
  std::sort(ranked.begin(), ranked.end());
  std::vector<std::string> out;
  for (const auto& [d, c, k] : ranked) {
    if (out.size() == limit) break;
    out.push_back(k);
  }
  return out;
}

}  // namespace testmap::core
