#include "mapper/query/test_document.h"

#include <algorithm>
#include <map>

#include "core/errors.h"
#include "mapper/query/evidence_runs.h"

namespace testmap::query {
namespace {

using nlohmann::json;

json OneTest(const indexer::IndexReader& index, const std::string& nodeid,
             std::map<std::string, json>& runs) {
  json doc = {{"nodeid", nodeid}};
  auto rec = index.TestRecord(nodeid);
  json test = rec ? json::parse(*rec, nullptr, false) : json(nullptr);
  if (test.is_object()) {
    for (const char* f : {"generic_id", "file", "class", "method", "kind", "line_start", "line_end",
                          "params", "decorators", "skips", "source_hash", "origin"}) {
      if (test.contains(f)) doc[f] = test[f];
    }
  }
  json ops = json::array();
  EvidenceRuns evidence(index, "");
  for (const auto& e : index.EdgesOfTest(nodeid)) {
    json obs = json::array();
    for (const auto& t : e.tuples) {
      obs.push_back({{"evidence", t.evidence},
                     {"role", t.role},
                     {"device", t.device.empty() ? json(nullptr) : json(t.device)},
                     {"dtypes", t.dtypes},
                     {"calls", t.count}});
    }
    json op = {{"op", e.Op()}, {"run", e.run}, {"observations", obs}};
    // Kept whole, but marked: answers leave these out (docs/diff.md).
    if (!evidence.Keep(nodeid, e.run)) op["superseded"] = true;
    ops.push_back(std::move(op));
    if (e.run != "static") runs.emplace(e.run, nullptr);
  }
  doc["ops"] = ops;
  json outcomes = json::array();
  for (const auto& o : index.Outcomes(nodeid)) {
    json j = json::parse(o.json, nullptr, false);
    j["run"] = o.run;
    outcomes.push_back(j);
    runs.emplace(o.run, nullptr);
  }
  // Latest first: the question is usually "how did it do last time".
  std::sort(outcomes.begin(), outcomes.end(), [](const json& a, const json& b) {
    return a.value("start", 0.0) > b.value("start", 0.0);
  });
  doc["outcomes"] = outcomes;
  return doc;
}

}  // namespace

nlohmann::json TestDocument(const indexer::IndexReader& index, const std::string& test) {
  std::map<std::string, json> runs;
  json doc;
  if (index.TestRecord(test)) {
    doc = OneTest(index, test, runs);
  } else if (auto members = index.TestsOfGeneric(test); !members.empty()) {
    doc = {{"generic_id", test}};
    json tests = json::array();
    for (const auto& m : members) tests.push_back(OneTest(index, m, runs));
    doc["tests"] = tests;
  } else {
    throw core::UnknownNameError(
        "test", test, {},
        "no test or generic test `" + test + "` in " + index.store().dir() +
            " (node ids look like file.py::Class::test_x_cpu_float32; generic ids like "
            "file.py::Class::test_x)");
  }
  json run_docs = json::object();
  for (auto& [id, _] : runs) {
    auto r = index.Run(id);
    run_docs[id] = r ? json::parse(*r, nullptr, false) : json(nullptr);
  }
  doc["runs"] = run_docs;
  return doc;
}

}  // namespace testmap::query
