#include "mapper/query/op_coverage.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "mapper/query/yaml_emit.h"

namespace testmap::query {

std::vector<OpCoverage> ReadOpCoverage(const indexer::IndexReader& index, const std::string& sort) {
  std::map<std::string, OpCoverage> ops;
  index.ForEachEdge([&](const indexer::Edge& e) {
    auto& s = ops[e.Op()];
    s.tests.insert(e.nodeid);
    for (const auto& t : e.tuples) {
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
      return a.tests.size() > b.tests.size();
    });
  }
  return rows;
}

nlohmann::json OpCoverageJson(const OpCoverage& r) {
  return {{"op", r.op},
          {"tests", r.tests.size()},
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
    out << "OP" << std::string(w - 2 + 2, ' ') << "TESTS  PATH            DTYPES\n";
    for (const auto& r : rows) {
      std::string n = std::to_string(r.tests.size());
      std::string path = join(r.evidence);
      out << r.op << std::string(w - r.op.size() + 2, ' ')
          << std::string(5 - std::min<size_t>(5, n.size()), ' ') << n << "  " << path
          << std::string(16 - std::min<size_t>(15, path.size()), ' ') << join(r.dtypes) << "\n";
    }
    out << rows.size() << " operators\n";
    return;
  }
  json list = json::array();
  for (const auto& r : rows) list.push_back(OpCoverageJson(r));
  if (format == "jsonl") {
    for (const auto& j : list) out << j.dump() << "\n";
  } else if (format == "yaml") {
    EmitYaml({{"ops", list}}, out);
  } else {
    out << json{{"count", list.size()}, {"ops", list}}.dump(2) << "\n";
  }
}

}  // namespace testmap::query
