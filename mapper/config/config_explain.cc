#include "mapper/config/config_explain.h"

#include <algorithm>
#include <set>

#include "core/device_names.h"
#include "core/errors.h"
#include "core/node_id.h"
#include "indexer/index_test_facts.h"

namespace testmap::config {
namespace {

using nlohmann::json;

std::string Pad(const std::string& s, size_t width) {
  return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

const char* kNotGoverned = "not governed";

}  // namespace

TestFacts ConfigFacts(const indexer::TestFacts& t) {
  TestFacts f;
  f.file = t.file.empty() ? core::NodeId::Parse(t.nodeid).path : t.file;
  f.generic_method = t.generic_method;
  if (f.generic_method.empty()) {
    // Only traced: the generic method as the node id suggests it.
    core::NodeId guess = core::NodeId::Parse(core::GuessGenericId(t.nodeid));
    f.generic_method = guess.name;
  }
  f.dtypes = t.dtypes;
  f.opinfo = t.opinfo;
  f.module = t.module;
  return f;
}

Explanation Explain(const indexer::IndexStore& store, const Config& config,
                    const ExplainRequest& request) {
  Explanation e;
  e.config = config.path;
  ConfigRules rules(config, request.root_token);
  std::set<std::string> devices_seen;  // for telling a typo from no match
  indexer::ForEachTestFacts(store, [&](indexer::TestFacts&& t) {
    if (!t.device.empty()) devices_seen.insert(t.device);
    if (!request.test.empty() && t.nodeid != request.test && t.generic_id != request.test) return;
    if (!request.device.empty() && t.device != request.device) return;
    Decision d = rules.Decide(ConfigFacts(t));
    ExplainedTest x;
    x.nodeid = t.nodeid;
    x.file = t.file;
    if (!t.generic_class.empty()) x.generic = t.generic_class + "::" + t.generic_method;
    x.governed = d.governed;
    x.mode = d.mode;
    x.decided_by = d.decided_by;
    x.rule = d.rule;
    ++e.counts[d.governed ? ModeName(d.mode) : kNotGoverned];
    e.tests.push_back(std::move(x));
  });
  core::CheckDeviceFilter(request.device, {devices_seen.begin(), devices_seen.end()});
  if (!request.test.empty() && e.tests.empty())
    throw core::UnknownNameError(
        "test", request.test, {},
        "no test or generic test `" + request.test + "` in " + store.dir());
  return e;
}

json ExplainedJson(const ExplainedTest& t) {
  return {{"nodeid", t.nodeid},
          {"file", t.file},
          {"generic", t.generic},
          {"governed", t.governed},
          {"mode", t.governed ? json(ModeName(t.mode)) : json(nullptr)},
          {"decided_by", t.decided_by},
          {"rule", t.rule.empty() ? json(nullptr) : json(t.rule)}};
}

json ExplanationJson(const Explanation& e) {
  json tests = json::array();
  for (const auto& t : e.tests) tests.push_back(ExplainedJson(t));
  return {{"config", e.config}, {"counts", e.counts}, {"tests", tests}};
}

void RenderExplanation(const Explanation& e, const std::string& format, std::ostream& out) {
  if (format == "json") {
    out << ExplanationJson(e).dump(2) << "\n";
    return;
  }
  if (format == "jsonl") {
    for (const auto& t : e.tests) out << ExplainedJson(t).dump() << "\n";
    return;
  }
  std::string counts;
  for (const auto& [mode, n] : e.counts)
    counts += (counts.empty() ? " " : ", ") + std::to_string(n) + " " + mode;
  out << e.config << ": " << e.tests.size() << " tests:" << counts << "\n\n";
  size_t width = 18;
  for (const auto& t : e.tests) {
    std::string mode = t.governed ? ModeName(t.mode) : kNotGoverned;
    out << Pad(mode, width) << t.nodeid;
    if (t.governed) {
      out << "  <- " << t.decided_by;
      if (!t.rule.empty()) out << "; " << t.rule;
    }
    out << "\n";
  }
}

}  // namespace testmap::config
