#include "mapper/query/query_json.h"

namespace testmap::query {
namespace {

using nlohmann::json;

json UseJson(const OpUse& u) {
  json dtypes = json::array();
  for (const auto& combo : u.dtypes) dtypes.push_back(combo);
  return {{"dtypes", dtypes}, {"devices", u.devices}, {"evidence", u.evidence},
          {"roles", u.roles}, {"calls", u.calls},     {"runs", u.runs}};
}

}  // namespace

json TestMatchJson(const TestMatch& m) {
  json ops = json::object();
  for (const auto& [op, use] : m.ops) ops[op] = UseJson(use);
  json j = {{"nodeid", m.nodeid},
            {"generic_id", m.generic_id.empty() ? json(nullptr) : json(m.generic_id)},
            {"file", m.file.empty() ? json(nullptr) : json(m.file)},
            {"line_start", m.line_start ? json(m.line_start) : json(nullptr)},
            {"line_end", m.line_end ? json(m.line_end) : json(nullptr)},
            {"ops", ops},
            {"outcome", m.outcome.empty() ? json(nullptr) : json(m.outcome)},
            {"duration", m.duration ? json(*m.duration) : json(nullptr)},
            {"runs", m.runs}};
  return j;
}

json GenericMatchJson(const GenericMatch& g) {
  json tests = json::array();
  double seconds = 0;
  for (const auto* t : g.tests) {
    tests.push_back(TestMatchJson(*t));
    if (t->duration) seconds += *t->duration;
  }
  return {{"generic_id", g.generic_id}, {"tests", tests}, {"duration", seconds}};
}

json QueryQuestionJson(const QueryResult& r) {
  json ops = json::array();
  for (const auto& op : r.resolved) ops.push_back(op.canonical);
  json q = {{"ops", ops},
            {"match", r.options.any ? "any" : "all"},
            {"dtypes", r.options.dtypes},
            {"device", r.options.device.empty() ? json(nullptr) : json(r.options.device)},
            {"path", r.options.path.empty() ? json(nullptr) : json(r.options.path)},
            {"roles", r.roles},
            {"group", r.options.group}};
  return q;
}

json QueryResultJson(const QueryResult& r) {
  bool generic = r.options.group == "generic";
  json doc = {{"query", QueryQuestionJson(r)},
              {"count", generic ? r.groups.size() : r.tests.size()},
              {"tests_in_other_roles", r.tests_in_other_roles},
              {"untested_ops", r.untested_ops}};
  json items = json::array();
  if (generic) {
    for (const auto& g : r.groups) items.push_back(GenericMatchJson(g));
    doc["generic_tests"] = std::move(items);
    doc["tests"] = r.tests.size();
  } else {
    for (const auto& m : r.tests) items.push_back(TestMatchJson(m));
    doc["tests"] = std::move(items);
  }
  return doc;
}

}  // namespace testmap::query
