// The data a report page embeds (its `#testmap-data` island): one JSON
// document, format `testmap-report` version 1, that assets/page.js reads.
// Test lists are compact codes (compact_codes.h): a heatmap cell is a
// string of (test delta - 1, facet set) varint pairs, so a page over
// millions of (test, cell) entries stays a few megabytes.
//
//   {format, version, index: {dir, tests},
//    tests: {count, ids (front-coded), outcomes: [names], outcome (varint per
//            test: 1 + index into outcomes, 0 none), ms (1 + ms, 0 none)},
//    coverage: {tests, dtypes, facets: [[evidence, role]], facet_sets: [mask],
//               rows: [{op, cells: [[column (-1 any), count, code]]}]},
//    runs: [{id, record, outcomes, seconds}], plan: {...} | null,
//    admission: {backend, dispatch_key, origin, device, counts, notes,
//                ops: [{op, route, source, composite_explicit, blocks, tests}],
//                unavailable, backends}}
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "indexer/index_reader.h"
#include "mapper/report/admission_view.h"
#include "mapper/report/coverage_matrix.h"
#include "mapper/report/plan_view.h"
#include "mapper/report/run_summaries.h"

namespace testmap::report {

struct ReportData {
  std::string index_dir;
  size_t index_tests = 0;  // test records in the index, with evidence or not
  CoverageMatrix coverage;
  std::vector<indexer::TestSummary> summaries;  // one per coverage.tests
  std::vector<RunSummary> runs;
  std::optional<PlanView> plan;
  AdmissionView admission;
};

nlohmann::json PageData(const ReportData& data);

}  // namespace testmap::report
