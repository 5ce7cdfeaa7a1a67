#include "mapper/query/query.h"

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unordered_map>

#include "core/closest_names.h"
#include "core/device_names.h"
#include "core/dtype_names.h"
#include "core/errors.h"
#include "core/trace_format.h"
#include "mapper/query/evidence_runs.h"

namespace testmap::query {
namespace {

struct Filter {
  std::vector<std::string> dtypes;
  std::string device, path;
  std::vector<std::string> roles;
  bool PassesRole(const indexer::EdgeTuple& t) const {
    return std::find(roles.begin(), roles.end(), t.role) != roles.end();
  }
  // Every filter but the role.
  bool Passes(const indexer::EdgeTuple& t) const {
    if (!path.empty() && t.evidence != path) return false;
    if (!device.empty() && t.device != device) return false;
    if (dtypes.empty()) return true;
    for (const auto& d : t.dtypes) {
      if (std::find(dtypes.begin(), dtypes.end(), d) != dtypes.end()) return true;
    }
    return false;
  }
};

}  // namespace

std::string CanonicalDtypeOrThrow(const std::string& text) {
  if (auto d = core::NormalizeDtype(text)) return *d;
  throw core::UnknownNameError("dtype", text, core::ClosestNames(text, core::AllDtypes()));
}

std::vector<std::string> CanonicalRolesOrThrow(const std::vector<std::string>& values) {
  std::set<std::string> wanted;
  for (const auto& value : values) {
    for (size_t start = 0; start <= value.size();) {
      size_t comma = std::min(value.find(',', start), value.size());
      std::string name = value.substr(start, comma - start);
      start = comma + 1;
      if (name == "all") {
        wanted.insert(core::kRoles.begin(), core::kRoles.end());
      } else if (core::IsRoleName(name)) {
        wanted.insert(name);
      } else {
        std::vector<std::string> known(core::kRoles.begin(), core::kRoles.end());
        known.push_back("all");
        throw core::UnknownNameError("role", name, core::ClosestNames(name, known),
                                     "unknown role `" + name +
                                         "` (roles: test, assert, inputs, "
                                         "setup, teardown, or all)");
      }
    }
  }
  if (wanted.empty()) throw core::UsageError("--role needs at least one role");
  std::vector<std::string> roles;
  for (auto r : core::kRoles) {
    if (wanted.count(std::string(r))) roles.emplace_back(r);
  }
  return roles;
}

QueryResult RunQuery(const indexer::IndexReader& index, const QueryOptions& options) {
  QueryResult result;
  result.options = options;
  if (options.ops.empty()) throw core::UsageError("give at least one --op");
  if (!options.path.empty() && options.path != "eager" && options.path != "compile" &&
      options.path != "static") {
    throw core::UnknownNameError("path", options.path, {"eager", "compile", "static"});
  }
  if (options.group != "test" && options.group != "generic") {
    throw core::UsageError("--group must be test or generic, not `" + options.group + "`");
  }
  result.roles = CanonicalRolesOrThrow(options.roles);
  Filter filter{{}, options.device, options.path, result.roles};
  for (const auto& d : options.dtypes) filter.dtypes.push_back(CanonicalDtypeOrThrow(d));

  // Per test seen: its index into result.tests (once it matched), how many
  // of the ops it ran in the asked roles and in any role, and the last op
  // counted for each, so that several edges of one op (runs, overloads)
  // count once. One map: a large answer's cost is mostly this bookkeeping.
  struct Seen {
    size_t at = SIZE_MAX;
    size_t hits = 0, hits_any_role = 0;
    size_t last_op = SIZE_MAX, last_op_any_role = SIZE_MAX;
  };
  std::unordered_map<std::string, Seen> seen;
  std::optional<std::vector<std::string>> known;        // loaded only when needed
  std::optional<std::vector<std::string>> torch_known;  // the same, of torch's registry
  std::set<std::string> devices_seen;                   // for telling a typo from no match
  EvidenceRuns runs(index, options.torch);              // per test: which runs count
  for (size_t i = 0; i < options.ops.size(); ++i) {
    ResolvedOp op = ParseQueryOp(options.ops[i]);
    bool any_edge = false;
    index.ForEachEdgeOfOp(op.packet, op.overload, [&](const indexer::Edge& e) {
      any_edge = true;
      if (!runs.Keep(e.nodeid, e.run)) return;
      OpUse* use = nullptr;
      Seen* test = nullptr;
      for (const auto& t : e.tuples) {
        if (!t.device.empty()) devices_seen.insert(t.device);
        if (!filter.Passes(t)) continue;
        if (!test) test = &seen[e.nodeid];
        if (test->last_op_any_role != i) {
          test->last_op_any_role = i;
          ++test->hits_any_role;
        }
        if (!filter.PassesRole(t)) continue;
        if (!use) {
          if (test->at == SIZE_MAX) {
            test->at = result.tests.size();
            result.tests.push_back(TestMatch{});
            result.tests.back().nodeid = e.nodeid;
          }
          if (test->last_op != i) {
            test->last_op = i;
            ++test->hits;
          }
          if (!options.uses) break;  // matched: what it did is not asked for
          use = &result.tests[test->at].ops[e.Op()];
          use->runs.insert(e.run);
        }
        use->dtypes.insert(t.dtypes);
        if (!t.device.empty()) use->devices.insert(t.device);
        use->evidence.insert(t.evidence);
        use->roles.insert(t.role);
        use->calls += t.count;
      }
    });
    if (!any_edge) {
      // Only now is the full operator list worth reading: to tell "unknown"
      // from "known under another overload" and to suggest names.
      if (!known) known = index.KnownOps();
      if (!IsKnownOp(op, *known)) {
        if (!torch_known && options.torch_operators) torch_known = options.torch_operators();
        if (torch_known && IsKnownOp(op, *torch_known)) {
          result.untested_ops.push_back(op.canonical);
        } else {
          std::vector<std::string> names = *known;
          if (torch_known) names.insert(names.end(), torch_known->begin(), torch_known->end());
          std::sort(names.begin(), names.end());
          names.erase(std::unique(names.begin(), names.end()), names.end());
          throw core::UnknownNameError(
              "operator", options.ops[i], ClosestOps(options.ops[i], names),
              torch_known
                  ? "neither torch nor any test in the index has operator `" + op.canonical + "`"
                  : "no test in the index runs operator `" + op.canonical + "`");
        }
      }
    }
    result.resolved.push_back(op);
  }
  core::CheckDeviceFilter(options.device, {devices_seen.begin(), devices_seen.end()});
  const size_t needed = options.any ? 1 : options.ops.size();
  std::vector<size_t> hits(result.tests.size());
  for (const auto& [nodeid, test] : seen) {
    if (test.at != SIZE_MAX) hits[test.at] = test.hits;
    bool matched = test.at != SIZE_MAX && test.hits >= needed;
    if (test.hits_any_role >= needed && !matched) ++result.tests_in_other_roles;
  }
  // All of the ops, unless --any: drop tests that missed one.
  if (!options.any && options.ops.size() > 1) {
    std::vector<TestMatch> kept;
    for (size_t t = 0; t < result.tests.size(); ++t) {
      if (hits[t] == options.ops.size()) kept.push_back(std::move(result.tests[t]));
    }
    result.tests = std::move(kept);
  }
  std::sort(result.tests.begin(), result.tests.end(),
            [](const TestMatch& a, const TestMatch& b) { return a.nodeid < b.nodeid; });
  if (options.details || options.group == "generic") FillTestDetails(index, result.tests);
  if (options.group == "generic") {
    std::map<std::string, GenericMatch> groups;
    for (const auto& m : result.tests) {
      const std::string& key = m.generic_id.empty() ? m.nodeid : m.generic_id;
      auto& g = groups[key];
      g.generic_id = key;
      g.tests.push_back(&m);
    }
    for (auto& [k, g] : groups) result.groups.push_back(std::move(g));
  }
  return result;
}

std::unique_ptr<indexer::IndexStore> OpenForQuery(const std::string& dir,
                                                  const QueryOptions& options) {
  using indexer::Cf, indexer::CfBit;
  indexer::CfSet cfs = CfBit(Cf::kOpTests) | CfBit(Cf::kRuns);
  if (options.details || options.group == "generic")
    cfs |= CfBit(Cf::kTests) | CfBit(Cf::kOutcomes);
  auto store = indexer::IndexStore::Open(dir, indexer::OpenMode::kRead, cfs);
  if (EvidenceRuns::Filters(*store, options.torch)) {
    cfs |= CfBit(Cf::kTests) | CfBit(Cf::kOutcomes) | CfBit(Cf::kTestOps);
    store = indexer::IndexStore::Open(dir, indexer::OpenMode::kRead, cfs);
  }
  return store;
}

}  // namespace testmap::query
