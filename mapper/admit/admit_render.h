// Renderings of an admission (and of --rank / --new-op): a table for
// people, JSON (one document) and JSONL (one test a line) for machines,
// node ids for `pytest $(...)`, YAML (the JSON document as YAML). The JSON
// field names are the struct fields of admission.h and rank.h.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "mapper/admit/admission.h"
#include "mapper/admit/rank.h"

namespace testmap::admit {

struct AdmitReport {
  const Admission* admission = nullptr;
  std::optional<State> only;  // list only tests in this state (nodeids: admitted by default)
  std::optional<Ranking> ranking;
  // --new-op: the operators and exactly the tests they would admit.
  std::vector<std::string> new_ops;
  std::optional<std::vector<const TestAdmission*>> would_admit;
};

nlohmann::json TestJson(const TestAdmission& t);
nlohmann::json RankingJson(const Ranking& r);
// The whole answer; what `--format json` prints and the MCP server returns
// (`tests`: false leaves the per-test list out, for a summary).
nlohmann::json AdmitReportJson(const AdmitReport& report, bool tests = true);

// The node ids `--format nodeids` prints, in order.
std::vector<std::string> ReportNodeIds(const AdmitReport& report);

// table | json | jsonl | nodeids | yaml
void RenderAdmitReport(const AdmitReport& report, const std::string& format, std::ostream& out);

}  // namespace testmap::admit
