// A split plan as the report draws it (a Gantt of splits): read from what
// `testmap plan --format json` printed (mapper/plan/render_json.cc is its
// schema) and, optionally, what `testmap plan --report ... --format json`
// measured for the same plan (planned versus measured seconds per split).
//
// Plans at test granularity list every test; a page needs only what it
// draws, so each split keeps its kMaxItemsPerSplit longest items and sums
// the rest into `rest_*`.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace testmap::report {

inline constexpr size_t kMaxItemsPerSplit = 200;

struct PlanViewItem {
  std::string label;  // the first label; "+N" more when a chunk has several
  size_t labels = 1;
  double seconds = 0;
  double estimated_seconds = 0;
  int tests = 0;
};

struct PlanViewSplit {
  int split = 0;  // 1-based
  std::string group;
  // The plan's whole predicted time of the split (its longest process,
  // fixed costs inside and outside the pytest session included).
  double predicted_seconds = 0;
  double item_seconds = 0;  // sum of its items
  double estimated_seconds = 0;
  std::vector<double> process_seconds;  // with --procs > 1
  int tests = 0, estimated_tests = 0;
  std::vector<PlanViewItem> items;  // in plan order, the longest kMaxItemsPerSplit
  size_t rest_items = 0;
  double rest_seconds = 0, rest_estimated_seconds = 0;
  // From the plan report, when given: sums of test durations, planned and
  // measured; the predicted session time of the split as the report
  // computed it (mapper/plan/report.h: the process's time outside its
  // session left out); and the session wall time of the processes that ran
  // the split, which compares with it, when the reports know them.
  std::optional<double> planned_test_seconds, measured_seconds, session_predicted_seconds,
      measured_wall_seconds;
  int measured_tests = 0, processes = 0;
};

struct PlanView {
  std::string source;         // the plan file
  std::string report_source;  // the report file, "" when none
  size_t split_count = 0;     // splits in the plan (the file may list one: --split K)
  int procs = 1;
  std::string granularity, method;
  size_t tests = 0, items = 0;
  double total_seconds = 0, estimated_seconds = 0, makespan_seconds = 0, lower_bound_seconds = 0,
         limit_seconds = 0;
  int estimated_tests = 0;
  std::vector<std::string> notes;
  std::vector<PlanViewSplit> splits;
  std::optional<double> report_planned_seconds, report_measured_seconds;
  // What the plan adds to each split outside the sessions, as the report
  // says (0 in reports that predate it).
  std::optional<double> report_startup_seconds;
  int unplanned_tests = 0;
};

// Throws core::InputError naming the file (and line, for syntax errors)
// when `plan_path` is not `testmap plan --format json` output, or
// `report_path` ("" for none) not `plan --report --format json` output or
// not of this plan (a split it does not have).
PlanView ReadPlanView(const std::string& plan_path, const std::string& report_path);

}  // namespace testmap::report
