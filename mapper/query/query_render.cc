// Output of `testmap query` in every --format. JSON field names are part of
// the interface agents rely on: see docs/index.md before renaming one.
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "mapper/query/query.h"
#include "mapper/query/query_json.h"
#include "mapper/yaml/yaml_emit.h"

namespace testmap::query {
namespace {

using nlohmann::json;

// Distinct dtypes across every matched op, in first-seen order.
std::string DtypeSummary(const TestMatch& m) {
  std::vector<std::string> seen;
  for (const auto& [op, use] : m.ops) {
    for (const auto& combo : use.dtypes) {
      for (const auto& d : combo) {
        if (std::find(seen.begin(), seen.end(), d) == seen.end()) seen.push_back(d);
      }
    }
  }
  std::string out;
  for (const auto& d : seen) out += (out.empty() ? "" : ",") + d;
  return out.empty() ? "-" : out;
}

std::string PathSummary(const TestMatch& m) {
  std::set<std::string> ev;
  for (const auto& [op, use] : m.ops) ev.insert(use.evidence.begin(), use.evidence.end());
  std::string out;
  for (const auto& e : ev) out += (out.empty() ? "" : ",") + e;
  return out;
}

std::string Seconds(std::optional<double> s) {
  if (!s) return "-";
  std::ostringstream o;
  o << std::fixed << std::setprecision(3) << *s;
  return o.str();
}

void Table(const std::vector<std::vector<std::string>>& rows, std::ostream& out) {
  std::vector<size_t> width;
  for (const auto& row : rows) {
    width.resize(std::max(width.size(), row.size()));
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      line += row[c];
      if (c + 1 < row.size()) line += std::string(width[c] - row[c].size() + 2, ' ');
    }
    out << line << "\n";
  }
}

std::string OpsText(const QueryResult& r) {
  std::string ops;
  for (size_t i = 0; i < r.resolved.size(); ++i) {
    if (i) ops += r.options.any ? " or " : " and ";
    ops += r.resolved[i].canonical;
  }
  return ops;
}

}  // namespace

void RenderQuery(const QueryResult& r, const std::string& format, std::ostream& out) {
  bool generic = r.options.group == "generic";
  if (format == "nodeids") {
    // One id a line, ready for `pytest $(testmap query ... --format nodeids)`;
    // generic ids for --group generic (the form backend YAML configs use).
    if (generic) {
      for (const auto& g : r.groups) out << g.generic_id << "\n";
    } else {
      for (const auto& m : r.tests) out << m.nodeid << "\n";
    }
    return;
  }
  if (format == "jsonl") {
    if (generic) {
      for (const auto& g : r.groups) out << GenericMatchJson(g).dump() << "\n";
    } else {
      for (const auto& m : r.tests) out << TestMatchJson(m).dump() << "\n";
    }
    return;
  }
  if (format == "json" || format == "yaml") {
    json doc = QueryResultJson(r);
    if (format == "json") {
      out << doc.dump(2) << "\n";
    } else {
      yaml::EmitYaml(doc, out);
    }
    return;
  }
  std::vector<std::vector<std::string>> rows;
  if (generic) {
    rows.push_back({"GENERIC TEST", "TESTS", "DTYPES", "PATH", "SECONDS"});
    for (const auto& g : r.groups) {
      TestMatch merged;
      double seconds = 0;
      bool timed = false;
      for (const auto* t : g.tests) {
        for (const auto& [op, use] : t->ops) {
          auto& u = merged.ops[op];
          u.dtypes.insert(use.dtypes.begin(), use.dtypes.end());
          u.evidence.insert(use.evidence.begin(), use.evidence.end());
        }
        if (t->duration) seconds += *t->duration, timed = true;
      }
      rows.push_back({g.generic_id, std::to_string(g.tests.size()), DtypeSummary(merged),
                      PathSummary(merged), timed ? Seconds(seconds) : "-"});
    }
  } else {
    rows.push_back({"TEST", "DTYPES", "PATH", "SECONDS", "OUTCOME", "SOURCE"});
    for (const auto& m : r.tests) {
      std::string source =
          m.file.empty() ? "-" : m.file + (m.line_start ? ":" + std::to_string(m.line_start) : "");
      rows.push_back({m.nodeid, DtypeSummary(m), PathSummary(m), Seconds(m.duration),
                      m.outcome.empty() ? "-" : m.outcome, source});
    }
  }
  if (rows.size() > 1) Table(rows, out);
  double total = 0;
  for (const auto& m : r.tests) total += m.duration.value_or(0);
  out << r.tests.size() << (r.tests.size() == 1 ? " test" : " tests");
  if (generic) out << " (" << r.groups.size() << " generic)";
  out << " run " << OpsText(r);
  std::string roles;
  for (const auto& role : r.roles) roles += (roles.empty() ? "" : ",") + role;
  out << " in role" << (r.roles.size() == 1 ? " " : "s ") << roles;
  if (!r.options.dtypes.empty() || !r.options.device.empty() || !r.options.path.empty()) {
    out << " (filtered:";
    for (const auto& d : r.options.dtypes) out << " dtype " << d;
    if (!r.options.device.empty()) out << " device " << r.options.device;
    if (!r.options.path.empty()) out << " path " << r.options.path;
    out << ")";
  }
  out << "; " << Seconds(total) << " s in their latest runs\n";
  for (const auto& op : r.untested_ops)
    out << "torch registers " << op << ", but no test in the index runs it\n";
  if (r.tests_in_other_roles) {
    out << r.tests_in_other_roles
        << (r.tests_in_other_roles == 1 ? " more test runs" : " more tests run")
        << " it only in other roles (assertEqual, make_tensor, setup...): --role all\n";
  }
}

}  // namespace testmap::query
