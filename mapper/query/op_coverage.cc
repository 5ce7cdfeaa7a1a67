#include "mapper/query/op_coverage.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "core/trace_format.h"
#include "mapper/query/evidence_runs.h"
#include "mapper/yaml/yaml_emit.h"

namespace testmap::query {

std::vector<OpCoverage> ReadOpCoverage(const indexer::IndexReader& index, const std::string& sort) {
  std::map<std::string, OpCoverage> ops;
  EvidenceRuns runs(index, "");
  index.ForEachEdge([&](const indexer::Edge& e) {
    if (!runs.Keep(e.nodeid, e.run)) return;
    auto& s = ops[e.Op()];
    s.tests_any_role.insert(e.nodeid);
    for (const auto& t : e.tuples) {
      if (t.role == core::kRoleTest) s.tests.insert(e.nodeid);
      s.tests_by_role[t.role].insert(e.nodeid);
      s.dtypes.insert(t.dtypes.begin(), t.dtypes.end());
      s.evidence.insert(t.evidence);
      if (!t.device.empty()) s.devices.insert(t.device);
    }
  });
  std::vector<OpCoverage> rows;
  for (auto& [op, s] : ops) {
    s.op = op;
    rows.push_back(std::move(s));
  }
  if (sort == "tests") {
    std::stable_sort(rows.begin(), rows.end(), [](const OpCoverage& a, const OpCoverage& b) {
      return std::make_pair(a.tests.size(), a.tests_any_role.size()) >
             std::make_pair(b.tests.size(), b.tests_any_role.size());
    });
  }
  return rows;
}

namespace {

std::set<std::string> RolesOf(const OpCoverage& r) {
  std::set<std::string> roles;
  for (const auto& [role, _] : r.tests_by_role) roles.insert(role);
  return roles;
}

}  // namespace

nlohmann::json OpCoverageJson(const OpCoverage& r) {
  nlohmann::json by_role = nlohmann::json::object();
  for (const auto& [role, tests] : r.tests_by_role) by_role[role] = tests.size();
  return {{"op", r.op},
          {"tests", r.tests.size()},
          {"tests_any_role", r.tests_any_role.size()},
          {"tests_by_role", by_role},
          {"roles", RolesOf(r)},
          {"dtypes", r.dtypes},
          {"evidence", r.evidence},
          {"devices", r.devices}};
}

void RenderOpCoverage(const std::vector<OpCoverage>& rows, const std::string& format,
                      std::ostream& out) {
  using nlohmann::json;
  auto join = [](const std::set<std::string>& s) {
    std::string text;
    for (const auto& x : s) text += (text.empty() ? "" : ",") + x;
    return text.empty() ? std::string("-") : text;
  };
  if (format == "table") {
    size_t w = 2;
    for (const auto& r : rows) w = std::max(w, r.op.size());
    auto right = [](const std::string& s, size_t width) {
      return std::string(width - std::min(width, s.size()), ' ') + s;
    };
    auto left = [](const std::string& s, size_t width) {
      return s + std::string(width - std::min(width - 1, s.size()), ' ');
    };
    // TESTS counts role `test` (the test's own code), ANY ROLE every role.
    out << "OP" << std::string(w - 2 + 2, ' ')
        << "TESTS  ANY ROLE  PATH            ROLES                         DTYPES\n";
    for (const auto& r : rows) {
      out << r.op << std::string(w - r.op.size() + 2, ' ')
          << right(std::to_string(r.tests.size()), 5) << "  "
          << right(std::to_string(r.tests_any_role.size()), 8) << "  " << left(join(r.evidence), 16)
          << left(join(RolesOf(r)), 30) << join(r.dtypes) << "\n";
    }
    out << rows.size() << " operators (TESTS: in the test's own code; ANY ROLE: also in "
        << "assertEqual, input makers, setup, teardown)\n";
    return;
  }
  json list = json::array();
  for (const auto& r : rows) list.push_back(OpCoverageJson(r));
  if (format == "jsonl") {
    for (const auto& j : list) out << j.dump() << "\n";
  } else if (format == "yaml") {
    yaml::EmitYaml({{"ops", list}}, out);
  } else {
    out << json{{"count", list.size()}, {"ops", list}}.dump(2) << "\n";
  }
}

}  // namespace testmap::query
