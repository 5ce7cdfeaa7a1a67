// `testmap report`: one self-contained HTML page about an index, for people
// who would rather look than read: the operator x dtype coverage heatmap
// (click a cell for its tests; evidence and role filters), admission per
// operator where a backend is known, a split plan as a Gantt of splits
// (predicted and measured), and the runs the evidence came from.
//
//   auto store = indexer::IndexStore::Open(".testmap", indexer::OpenMode::kRead);
//   indexer::IndexReader index(*store);
//   ReportSummary s = WriteReport(index, {.out_dir = "report", .plan = "plan.json"});
//
// Everything is read through the index's read API (indexer/index_reader.h).
#pragma once

#include <string>

#include "indexer/index_reader.h"
#include "mapper/report/admission_view.h"
#include "mapper/report/page_data.h"

namespace testmap::report {

struct ReportRequest {
  std::string out_dir;         // the page goes to OUT_DIR/index.html
  std::string plan;            // `testmap plan --format json` output, "" for none
  std::string plan_report;     // `testmap plan --report ... --format json` output, "" for none
  AdmissionRequest admission;  // which backend's admission to show (admission_view.h)
};

struct ReportSummary {
  std::string page;  // the file written
  size_t bytes = 0;
  size_t ops = 0, dtypes = 0, tests = 0, cells = 0, entries = 0, runs = 0, splits = 0;
  std::string admission;  // the backend whose admission the page shows, "" for none
};

// What the page shows, gathered from the index and the plan files.
ReportData GatherReport(const indexer::IndexReader& index, const ReportRequest& request);

// Gathers and writes the page: to a temporary file beside it, renamed over
// OUT_DIR/index.html, so a failed report never leaves half a page. Throws
// core::UsageError without --plan but with --plan-report, core::InputError
// for bad plan files or an OUT_DIR that cannot be made, and what admission
// throws for a backend named in the request.
ReportSummary WriteReport(const indexer::IndexReader& index, const ReportRequest& request);

}  // namespace testmap::report
