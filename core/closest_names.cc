#include "core/closest_names.h"

#include <algorithm>
#include <tuple>

namespace testmap::core {

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
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
