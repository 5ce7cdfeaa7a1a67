#include "mapper/diff/unified_diff.h"

#include <algorithm>

namespace testmap::diff {

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> out;
  size_t b = 0;
  while (b < text.size()) {
    size_t e = text.find('\n', b);
    if (e == std::string::npos) e = text.size();
    out.push_back(text.substr(b, e - b));
    b = e + 1;
  }
  return out;
}

std::string UnifiedDiff(const std::string& path, const std::vector<std::string>& old_lines,
                        const std::vector<std::optional<std::string>>& edited) {
  constexpr size_t kContext = 3;
  const size_t n = old_lines.size();
  auto changed = [&](size_t i) { return !edited[i] || *edited[i] != old_lines[i]; };
  std::string out;
  // New line number of old line i (1-based) = i + 1 - deletions before i.
  std::vector<size_t> deleted_before(n + 1, 0);
  for (size_t i = 0; i < n; ++i) deleted_before[i + 1] = deleted_before[i] + !edited[i];
  size_t i = 0;
  while (i < n) {
    if (!changed(i)) {
      ++i;
      continue;
    }
    // A hunk: from kContext lines before this change to kContext lines after
    // the last change that is no more than 2*kContext lines from the next.
    size_t begin = i >= kContext ? i - kContext : 0, last = i;
    for (size_t k = i + 1; k < n && k <= last + 2 * kContext; ++k)
      if (changed(k)) last = k;
    size_t end = std::min(n, last + 1 + kContext);
    std::string body;
    size_t old_count = 0, new_count = 0;
    for (size_t k = begin; k < end; ++k) {
      if (!changed(k)) {
        body += " " + old_lines[k] + "\n";
        ++old_count, ++new_count;
        continue;
      }
      body += "-" + old_lines[k] + "\n";
      ++old_count;
      if (edited[k]) {
        body += "+" + *edited[k] + "\n";
        ++new_count;
      }
    }
    if (out.empty()) out = "--- a/" + path + "\n+++ b/" + path + "\n";
    size_t new_start = begin + 1 - deleted_before[begin];
    out += "@@ -" + std::to_string(begin + 1) + "," + std::to_string(old_count) + " +" +
           std::to_string(new_count ? new_start : new_start - 1) + "," + std::to_string(new_count) +
           " @@\n" + body;
    i = end;
  }
  return out;
}

}  // namespace testmap::diff
