#include "mapper/report/report.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/errors.h"
#include "mapper/report/report_page.h"

namespace testmap::report {

namespace fs = std::filesystem;

ReportData GatherReport(const indexer::IndexReader& index, const ReportRequest& request) {
  if (request.plan.empty() && !request.plan_report.empty())
    throw core::UsageError("--plan-report needs the plan it measured (--plan PLAN.json)");
  ReportData d;
  // Plan files first: bad input is reported before the index is walked.
  if (!request.plan.empty()) d.plan = ReadPlanView(request.plan, request.plan_report);
  d.index_dir = index.store().dir();
  d.index_tests = index.CountKeys(indexer::Cf::kTests);
  d.coverage = ReadCoverage(index);
  d.summaries = index.TestSummaries(d.coverage.tests);
  d.runs = ReadRunSummaries(index);
  d.admission = ReadAdmissionView(index, d.coverage, request.admission);
  return d;
}

ReportSummary WriteReport(const indexer::IndexReader& index, const ReportRequest& request) {
  ReportData d = GatherReport(index, request);
  std::error_code ec;
  fs::create_directories(request.out_dir, ec);
  if (ec || !fs::is_directory(request.out_dir))
    throw core::InputError(request.out_dir, 0,
                           "cannot make the report directory" +
                               (ec ? ": " + ec.message() : std::string(": not a directory")));
  ReportSummary s;
  s.page = (fs::path(request.out_dir) / "index.html").string();
  std::string tmp = s.page + ".tmp-" + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw core::InputError(tmp, 0, "cannot write the report");
    RenderReportPage(PageData(d), out);
    out.flush();
    if (!out) {
      out.close();
      fs::remove(tmp, ec);
      throw core::InputError(tmp, 0, "cannot write the report (disk full?)");
    }
  }
  fs::rename(tmp, s.page, ec);
  if (ec) {
    fs::remove(tmp);
    throw core::InputError(s.page, 0, "cannot move the report into place: " + ec.message());
  }
  s.bytes = fs::file_size(s.page);
  s.ops = d.coverage.rows.size();
  s.dtypes = d.coverage.dtypes.size();
  s.tests = d.coverage.tests.size();
  for (const CoverageRow& r : d.coverage.rows) {
    s.cells += r.cells.size() - 1;  // the "any" column is not a dtype cell
    for (const CoverageCell& c : r.cells) s.entries += c.entries.size();
  }
  s.runs = d.runs.size();
  s.splits = d.plan ? d.plan->splits.size() : 0;
  if (d.admission.unavailable.empty())
    s.admission = d.admission.backend.empty() ? "(unnamed)" : d.admission.backend;
  return s;
}

}  // namespace testmap::report
