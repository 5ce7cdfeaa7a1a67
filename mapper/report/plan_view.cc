#include "mapper/report/plan_view.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>

#include "core/errors.h"
#include "core/read_file.h"
#include "timings/json_document.h"

namespace testmap::report {
namespace {

using timings::JsonValue;
using Kind = JsonValue::Kind;

// Fields of a document that must be there with the right kind; errors name
// the file and the line of the value (or of the object that lacks it) and
// say what the file should have been.
class Fields {
 public:
  Fields(const std::string& file, const char* what) : file_(file), what_(what) {}

  const JsonValue& Need(const JsonValue& object, const char* key, Kind kind) const {
    for (const auto& [k, v] : object.members) {
      if (k != key) continue;
      if (v.kind != kind) Fail(v.line, std::string("`") + key + "` is not " + KindName(kind));
      return v;
    }
    Fail(object.line, std::string("needs `") + key + "` (" + KindName(kind) + ")");
  }
  double Number(const JsonValue& object, const char* key) const {
    return Need(object, key, Kind::kNumber).number;
  }
  int Integer(const JsonValue& object, const char* key) const {
    const JsonValue& v = Need(object, key, Kind::kNumber);
    if (v.number != static_cast<double>(static_cast<int64_t>(v.number)) || v.number < 0)
      Fail(v.line, std::string("`") + key + "` is not a count");
    return static_cast<int>(v.number);
  }
  std::string String(const JsonValue& object, const char* key) const {
    for (const auto& [k, v] : object.members)
      if (k == key && v.is_string()) return v.string;
    return "";
  }
  // A number, or nullopt when absent or null.
  std::optional<double> OptionalNumber(const JsonValue& object, const char* key) const {
    for (const auto& [k, v] : object.members) {
      if (k != key || v.kind == Kind::kNull) continue;
      if (!v.is_number()) Fail(v.line, std::string("`") + key + "` is not a number");
      return v.number;
    }
    return std::nullopt;
  }
  bool Has(const JsonValue& object, const char* key) const {
    for (const auto& [k, v] : object.members)
      if (k == key) return true;
    return false;
  }
  const JsonValue& Object(const JsonValue& v, const char* what) const {
    if (!v.is_object()) Fail(v.line, std::string(what) + " is not an object");
    return v;
  }
  [[noreturn]] void Fail(int line, const std::string& message) const {
    throw core::InputError(file_, line, "not " + std::string(what_) + ": " + message);
  }

 private:
  static const char* KindName(Kind k) {
    switch (k) {
      case Kind::kArray:
        return "a list";
      case Kind::kObject:
        return "an object";
      case Kind::kString:
        return "a string";
      default:
        return "a number";
    }
  }
  const std::string& file_;
  const char* what_;
};

PlanViewSplit ReadSplit(const JsonValue& s, const Fields& f) {
  PlanViewSplit out;
  out.split = f.Integer(s, "split");
  out.group = f.String(s, "group");
  out.predicted_seconds = f.Number(s, "predicted_seconds");
  out.item_seconds = f.Number(s, "item_seconds");
  out.estimated_seconds = f.Number(s, "estimated_seconds");
  out.tests = f.Integer(s, "tests");
  out.estimated_tests = f.Integer(s, "estimated_tests");
  for (const JsonValue& p : f.Need(s, "process_seconds", Kind::kArray).elements) {
    if (!p.is_number()) f.Fail(p.line, "`process_seconds` holds a non-number");
    out.process_seconds.push_back(p.number);
  }
  std::vector<PlanViewItem> items;
  for (const JsonValue& item : f.Need(s, "items", Kind::kArray).elements) {
    f.Object(item, "an item");
    const JsonValue& labels = f.Need(item, "labels", Kind::kArray);
    if (labels.elements.empty() || !labels.elements.front().is_string())
      f.Fail(labels.line, "an item has no label");
    items.push_back({labels.elements.front().string, labels.elements.size(),
                     f.Number(item, "seconds"), f.Number(item, "estimated_seconds"),
                     f.Integer(item, "tests")});
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
  JsonValue doc = timings::ParseJsonDocument(core::ReadInputFile(path), path);
  Fields f(path, "`testmap plan --report --format json` output");
  f.Object(doc, "the document");
  if (f.Has(doc, "plan")) f.Fail(doc.line, "this is a plan; give it with --plan");
  view.report_source = path;
  view.report_planned_seconds = f.Number(doc, "planned_seconds");
  view.report_measured_seconds = f.Number(doc, "measured_seconds");
  view.unplanned_tests = f.Integer(doc, "unplanned_tests");
  view.report_startup_seconds = f.OptionalNumber(doc, "startup_seconds").value_or(0);
  for (const JsonValue& s : f.Need(doc, "splits", Kind::kArray).elements) {
    f.Object(s, "a split");
    int index = f.Integer(s, "split");
    auto it = std::find_if(view.splits.begin(), view.splits.end(),
                           [&](const PlanViewSplit& p) { return p.split == index; });
    if (it == view.splits.end()) {
      if (index >= 1 && static_cast<size_t>(index) <= view.split_count) continue;  // --split K
      throw core::InputError(path, s.line,
                             "split " + std::to_string(index) + " is not in the plan " +
                                 view.source + " (" + std::to_string(view.split_count) +
                                 " splits): a report of another plan?");
    }
    it->planned_test_seconds = f.Number(s, "planned_seconds");
    it->measured_seconds = f.Number(s, "measured_seconds");
    it->measured_tests = f.Integer(s, "measured_tests");
    it->session_predicted_seconds = f.Number(s, "predicted_seconds");
    it->measured_wall_seconds = f.OptionalNumber(s, "measured_wall_seconds");
    if (f.Has(s, "processes")) it->processes = f.Integer(s, "processes");
  }
}

}  // namespace

PlanView ReadPlanView(const std::string& plan_path, const std::string& report_path) {
  JsonValue doc = timings::ParseJsonDocument(core::ReadInputFile(plan_path), plan_path);
  Fields f(plan_path, "`testmap plan --format json` output");
  f.Object(doc, "the document");
  PlanView view;
  view.source = plan_path;
  const JsonValue& splits = f.Need(doc, "plan", Kind::kArray);
  view.split_count = f.Integer(doc, "splits");
  const JsonValue& options = f.Need(doc, "options", Kind::kObject);
  view.procs = f.Integer(options, "procs");
  view.granularity = f.String(options, "granularity");
  view.method = f.String(doc, "method");
  view.tests = f.Integer(doc, "tests");
  view.items = f.Integer(doc, "items");
  view.total_seconds = f.Number(doc, "total_seconds");
  view.estimated_seconds = f.Number(doc, "estimated_seconds");
  view.estimated_tests = f.Integer(doc, "estimated_tests");
  view.makespan_seconds = f.Number(doc, "makespan_seconds");
  view.lower_bound_seconds = f.Number(doc, "lower_bound_seconds");
  view.limit_seconds = f.Number(doc, "limit_seconds");
  for (const JsonValue& n : f.Need(doc, "notes", Kind::kArray).elements)
    if (n.is_string()) view.notes.push_back(n.string);
  for (const JsonValue& s : splits.elements)
    view.splits.push_back(ReadSplit(f.Object(s, "a split"), f));
  if (!report_path.empty()) ReadReport(report_path, view);
  return view;
}

}  // namespace testmap::report
