#include "indexer/index_verify.h"

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/op_names.h"
#include "indexer/index_counters.h"
#include "indexer/index_layout.h"
#include "indexer/index_reader.h"
#include "indexer/scan_input.h"

namespace testmap::indexer {
namespace {

std::string Printable(std::string_view key) {
  std::string out(key);
  for (auto& c : out) {
    if (c == '\0') c = '|';
  }
  return out;
}

}  // namespace

VerifyReport VerifyIndex(const IndexStore& store, size_t max_problems) {
  VerifyReport report;
  auto problem = [&](const std::string& text) {
    if (report.problems.size() < max_problems) report.problems.push_back(text);
    ++report.problem_count;
  };
  auto has_test = [&](const std::string& nodeid) {
    return store.Get(Cf::kTests, nodeid).has_value();
  };
  auto has_run = [&](const std::string& run) {
    return run == kStaticRunId || store.Get(Cf::kRuns, run).has_value();
  };

  store.Scan(Cf::kTests, "", [&](std::string_view k, std::string_view v) {
    ++report.tests;
    auto rec = nlohmann::json::parse(v, nullptr, false);
    if (!rec.is_object() || rec.value("nodeid", std::string()) != k) {
      problem("tests: record of `" + std::string(k) + "` is not a JSON object with that nodeid");
    }
    return true;
  });
  store.Scan(Cf::kRuns, "", [&](std::string_view k, std::string_view v) {
    ++report.runs;
    if (!nlohmann::json::parse(v, nullptr, false).is_object())
      problem("runs: record of `" + std::string(k) + "` is not JSON");
    return true;
  });
  store.Scan(Cf::kGeneric, "", [&](std::string_view k, std::string_view) {
    ++report.generic_links;
    auto f = SplitKey(k);
    if (f.size() != 2) return problem("generic: malformed key `" + Printable(k) + "`"), true;
    auto rec = store.Get(Cf::kTests, std::string(f[1]));
    if (!rec)
      return problem("generic: `" + std::string(f[0]) + "` links to unknown test `" +
                     std::string(f[1]) + "`"),
             true;
    auto j = nlohmann::json::parse(*rec, nullptr, false);
    if (!j.is_object() || j.value("generic_id", std::string()) != f[0]) {
      problem("generic: test `" + std::string(f[1]) + "` does not name generic id `" +
              std::string(f[0]) + "`");
    }
    return true;
  });
  // Both directions of every edge, each checked against the other.
  auto check_edges = [&](Cf cf, Cf twin_cf, bool count) {
    store.Scan(cf, "", [&](std::string_view k, std::string_view v) {
      Edge e;
      try {
        e = cf == Cf::kOpTests ? EdgeFromOpTestsKey(k, v) : EdgeFromTestOpsKey(k, v);
      } catch (const core::InputError& err) {
        problem(std::string(CfName(cf)) + ": `" + Printable(k) + "`: " + err.what());
        return true;
      }
      if (count) ++report.edges;
      std::string twin = cf == Cf::kOpTests ? JoinKey({e.nodeid, e.packet, e.overload, e.run})
                                            : JoinKey({e.packet, e.overload, e.nodeid, e.run});
      auto other = store.Get(twin_cf, twin);
      if (!other) {
        problem(std::string(CfName(cf)) + ": edge " + e.Op() + " / " + e.nodeid + " / run " +
                e.run + " has no " + CfName(twin_cf) + " twin");
      } else if (*other != v) {
        problem(std::string(CfName(cf)) + ": edge " + e.Op() + " / " + e.nodeid +
                " differs from its twin");
      }
      if (!count) return true;
      auto op = core::ParseOpName(e.Op());
      if (!op || op->Packet() != e.packet)
        problem("op_tests: `" + e.Op() + "` is not an operator name");
      if (!has_test(e.nodeid))
        problem("op_tests: edge " + e.Op() + " names unknown test `" + e.nodeid + "`");
      if (!has_run(e.run))
        problem("op_tests: edge " + e.Op() + " / " + e.nodeid + " names unknown run `" + e.run +
                "`");
      if (e.tuples.empty())
        problem("op_tests: edge " + e.Op() + " / " + e.nodeid + " records nothing");
      return true;
    });
  };
  check_edges(Cf::kOpTests, Cf::kTestOps, true);
  check_edges(Cf::kTestOps, Cf::kOpTests, false);
  store.Scan(Cf::kOutcomes, "", [&](std::string_view k, std::string_view v) {
    ++report.outcomes;
    auto f = SplitKey(k);
    if (f.size() != 2) return problem("outcomes: malformed key `" + Printable(k) + "`"), true;
    if (!has_test(std::string(f[0]))) problem("outcomes: unknown test `" + std::string(f[0]) + "`");
    if (!has_run(std::string(f[1])))
      problem("outcomes: `" + std::string(f[0]) + "` names unknown run `" + std::string(f[1]) +
              "`");
    if (!nlohmann::json::parse(v, nullptr, false).is_object())
      problem("outcomes: value of `" + std::string(f[0]) + "` is not JSON");
    return true;
  });
  // The counters stats reads must be what a walk counts.
  try {
    if (auto stored = ReadCounters(store)) {
      std::string diff = CountersDifference(*stored, CountIndex(store));
      if (!diff.empty()) problem("counters: stored counts differ from the index's (" + diff + ")");
    }
  } catch (const core::InputError& e) {
    problem(std::string("counters: ") + e.what());
  }
  return report;
}

}  // namespace testmap::indexer
