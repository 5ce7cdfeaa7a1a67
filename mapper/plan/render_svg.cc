// Bars rather than numbers: balance (and where estimates sit) is seen at a
// glance. Plain SVG, no scripts or external references, so CI can attach it.
#include <algorithm>
#include <cstdio>
#include <string>

#include "mapper/plan/render.h"

namespace testmap::plan {
namespace {

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

}  // namespace

void RenderSvg(const Plan& plan, std::ostream& out) {
  const int bar = 18, gap = 6, left = 150, width = 640, top = 40;
  const int height = top + static_cast<int>(plan.splits.size()) * (bar + gap) + 40;
  double scale_max = std::max({plan.makespan, plan.lower_bound, plan.limit_seconds, 1.0});
  auto x = [&](double seconds) { return left + seconds / scale_max * width; };
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                "font-family=\"sans-serif\" font-size=\"12\">\n",
                left + width + 120, height);
  out << buf;
  out << "<defs><pattern id=\"est\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
         "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#9ecae1\"/>"
         "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#3182bd\" stroke-width=\"2\"/>"
         "</pattern></defs>\n";
  std::snprintf(
      buf, sizeof buf,
      "<text x=\"10\" y=\"20\" font-size=\"14\">testmap plan: %zu splits, longest %.0f s, "
      "lower bound %.0f s (ratio %.3f); hatched = estimated</text>\n",
      plan.splits.size(), plan.makespan, plan.lower_bound,
      plan.lower_bound > 0 ? plan.makespan / plan.lower_bound : 1.0);
  out << buf;
  int y = top;
  for (const PlannedSplit& s : plan.splits) {
    // Measured and estimated parts scaled to the predicted duration (which
    // includes overhead and, with several processes, is their maximum).
    double sum = std::max(s.item_seconds, 1e-9);
    double est = s.seconds * (s.estimated_seconds / sum);
    std::string label = (s.group.empty() ? "" : s.group + " ") + "split " + std::to_string(s.index);
    std::snprintf(buf, sizeof buf, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
                  left - 8, y + bar - 5, Escape(label).c_str());
    out << buf;
    std::snprintf(buf, sizeof buf,
                  "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#3182bd\">"
                  "<title>%s: %.0f s predicted, %.0f s estimated, %d tests</title></rect>\n",
                  left, y, x(s.seconds - est) - left, bar, Escape(label).c_str(), s.seconds,
                  s.estimated_seconds, s.tests);
    out << buf;
    if (est > 0) {
      std::snprintf(buf, sizeof buf,
                    "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"url(#est)\"/>\n",
                    x(s.seconds - est), y, x(s.seconds) - x(s.seconds - est), bar);
      out << buf;
    }
    std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%d\">%.0f s</text>\n", x(s.seconds) + 4,
                  y + bar - 5, s.seconds);
    out << buf;
    y += bar + gap;
  }
  auto vline = [&](double seconds, const char* color, const char* name) {
    std::snprintf(buf, sizeof buf,
                  "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
                  "stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%d\" fill=\"%s\">%s</text>\n",
                  x(seconds), top - 6, x(seconds), y, color, x(seconds) + 3, y + 14, color, name);
    out << buf;
  };
  vline(plan.lower_bound, "#636363", "lower bound");
  if (plan.limit_seconds > 0) vline(plan.limit_seconds, "#de2d26", "limit");
  out << "</svg>\n";
}

}  // namespace testmap::plan
