#include "mapper/report/plan_view.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <numeric>

#include "core/errors.h"
#include "core/read_file.h"
#include "timings/strict_json.h"

namespace testmap::report {
namespace {

using nlohmann::json;

// A field of `j` that must be there with the right type; errors name the
// file and the line of the key (best effort) and say what the file should be.
class Fields {
 public:
  Fields(const std::string& file, const std::string& text, const char* what)
      : file_(file), text_(text), what_(what) {}

  const json& Need(const json& j, const char* key, json::value_t type) const {
    auto it = j.find(key);
    bool ok = it != j.end() &&
              (it->type() == type || (type == json::value_t::number_float && it->is_number()) ||
               (type == json::value_t::number_integer && it->is_number_integer()));
    if (!ok) Fail(key, std::string("needs `") + key + "` (" + TypeName(type) + ")");
    return *it;
  }
  double Number(const json& j, const char* key) const {
    return Need(j, key, json::value_t::number_float).get<double>();
  }
  int Integer(const json& j, const char* key) const {
    return Need(j, key, json::value_t::number_integer).get<int>();
  }
  [[noreturn]] void Fail(const char* key, const std::string& message) const {
    throw core::InputError(file_, key ? timings::LineOfKey(text_, key) : 0,
                           "not " + std::string(what_) + ": " + message);
  }

 private:
  static const char* TypeName(json::value_t t) {
    switch (t) {
      case json::value_t::array:
        return "a list";
      case json::value_t::object:
        return "an object";
      case json::value_t::string:
        return "a string";
      default:
        return "a number";
    }
  }
  const std::string& file_;
  const std::string& text_;
  const char* what_;
};

PlanViewSplit ReadSplit(const json& s, const Fields& f) {
  PlanViewSplit out;
  out.split = f.Integer(s, "split");
  out.group = s.value("group", "");
  out.predicted_seconds = f.Number(s, "predicted_seconds");
  out.item_seconds = f.Number(s, "item_seconds");
  out.estimated_seconds = f.Number(s, "estimated_seconds");
  out.tests = f.Integer(s, "tests");
  out.estimated_tests = f.Integer(s, "estimated_tests");
  for (const json& p : f.Need(s, "process_seconds", json::value_t::array)) {
    if (!p.is_number()) f.Fail("process_seconds", "`process_seconds` holds a non-number");
    out.process_seconds.push_back(p.get<double>());
  }
  std::vector<PlanViewItem> items;
  for (const json& item : f.Need(s, "items", json::value_t::array)) {
    if (!item.is_object()) f.Fail("items", "an item is not an object");
    const json& labels = f.Need(item, "labels", json::value_t::array);
    if (labels.empty() || !labels.front().is_string()) f.Fail("labels", "an item has no label");
    items.push_back({labels.front().get<std::string>(), labels.size(), f.Number(item, "seconds"),
                     f.Number(item, "estimated_seconds"), f.Integer(item, "tests")});
  }
  // The longest items stay, in plan order; the rest is summed.
  std::vector<size_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  if (items.size() > kMaxItemsPerSplit) {
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return items[a].seconds > items[b].seconds; });
    for (size_t i = kMaxItemsPerSplit; i < order.size(); ++i) {
      ++out.rest_items;
      out.rest_seconds += items[order[i]].seconds;
      out.rest_estimated_seconds += items[order[i]].estimated_seconds;
    }
    order.resize(kMaxItemsPerSplit);
    std::sort(order.begin(), order.end());
  }
  for (size_t i : order) out.items.push_back(std::move(items[i]));
  return out;
}

void ReadReport(const std::string& path, PlanView& view) {
  std::string text = core::ReadInputFile(path);
  json doc = timings::ParseJsonStrict(text, path);
  Fields f(path, text, "`testmap plan --report --format json` output");
  if (!doc.is_object()) f.Fail(nullptr, "the document is not an object");
  if (doc.contains("plan")) f.Fail("plan", "this is a plan; give it with --plan");
  view.report_source = path;
  view.report_planned_seconds = f.Number(doc, "planned_seconds");
  view.report_measured_seconds = f.Number(doc, "measured_seconds");
  view.unplanned_tests = f.Integer(doc, "unplanned_tests");
  for (const json& s : f.Need(doc, "splits", json::value_t::array)) {
    if (!s.is_object()) f.Fail("splits", "a split is not an object");
    int index = f.Integer(s, "split");
    auto it = std::find_if(view.splits.begin(), view.splits.end(),
                           [&](const PlanViewSplit& p) { return p.split == index; });
    if (it == view.splits.end()) {
      if (index >= 1 && static_cast<size_t>(index) <= view.split_count) continue;  // --split K
      throw core::InputError(path, 0,
                             "split " + std::to_string(index) + " is not in the plan " +
                                 view.source + " (" + std::to_string(view.split_count) +
                                 " splits): a report of another plan?");
    }
    it->planned_test_seconds = f.Number(s, "planned_seconds");
    it->measured_seconds = f.Number(s, "measured_seconds");
    it->measured_tests = f.Integer(s, "measured_tests");
  }
}

}  // namespace

PlanView ReadPlanView(const std::string& plan_path, const std::string& report_path) {
  std::string text = core::ReadInputFile(plan_path);
  json doc = timings::ParseJsonStrict(text, plan_path);
  Fields f(plan_path, text, "`testmap plan --format json` output");
  if (!doc.is_object()) f.Fail(nullptr, "the document is not an object");
  PlanView view;
  view.source = plan_path;
  const json& splits = f.Need(doc, "plan", json::value_t::array);
  view.split_count = f.Integer(doc, "splits");
  const json& options = f.Need(doc, "options", json::value_t::object);
  view.procs = f.Integer(options, "procs");
  view.granularity = options.value("granularity", "");
  view.method = doc.value("method", "");
  view.tests = f.Integer(doc, "tests");
  view.items = f.Integer(doc, "items");
  view.total_seconds = f.Number(doc, "total_seconds");
  view.estimated_seconds = f.Number(doc, "estimated_seconds");
  view.estimated_tests = f.Integer(doc, "estimated_tests");
  view.makespan_seconds = f.Number(doc, "makespan_seconds");
  view.lower_bound_seconds = f.Number(doc, "lower_bound_seconds");
  view.limit_seconds = f.Number(doc, "limit_seconds");
  for (const json& n : f.Need(doc, "notes", json::value_t::array))
    if (n.is_string()) view.notes.push_back(n.get<std::string>());
  for (const json& s : splits) {
    if (!s.is_object()) f.Fail("plan", "a split is not an object");
    view.splits.push_back(ReadSplit(s, f));
  }
  if (!report_path.empty()) ReadReport(report_path, view);
  return view;
}

}  // namespace testmap::report
