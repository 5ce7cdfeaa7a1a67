#include "mapper/query/evidence_runs.h"

#include <nlohmann/json.hpp>
#include <vector>

#include "core/closest_names.h"
#include "core/errors.h"
#include "indexer/scan_input.h"
#include "indexer/scan_supersede.h"

namespace testmap::query {
namespace {

std::vector<long> Release(const std::string& v, std::string* rest) {
  std::vector<long> parts;
  size_t i = 0;
  while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) {
    long n = 0;
    while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i])))
      n = n * 10 + (v[i++] - '0');
    parts.push_back(n);
    if (i < v.size() && v[i] == '.') ++i;
  }
  *rest = v.substr(i);
  return parts;
}

}  // namespace

bool TorchVersionLess(const std::string& a, const std::string& b) {
  std::string ra, rb;
  std::vector<long> pa = Release(a, &ra), pb = Release(b, &rb);
  if (pa != pb) return pa < pb;
  return ra < rb;
}

namespace {

// Run id -> the torch version it was traced on ("" when it does not say).
std::map<std::string, std::string> RunTorchVersions(const indexer::IndexStore& store) {
  std::map<std::string, std::string> out;
  store.Scan(indexer::Cf::kRuns, "", [&](std::string_view id, std::string_view json) {
    nlohmann::json r = nlohmann::json::parse(json, nullptr, false);
    std::string v;
    if (r.is_object() && r.contains("metadata") && r["metadata"].is_object() &&
        r["metadata"].contains("torch") && r["metadata"]["torch"].is_object())
      v = r["metadata"]["torch"].value("version", "");
    out.emplace(std::string(id), v);
    return true;
  });
  return out;
}

bool FiltersWith(const indexer::IndexStore& store, const std::set<std::string>& versions,
                 const std::string& torch) {
  return versions.size() > 1 || !torch.empty() ||
         store.Get(indexer::Cf::kDefault, indexer::kSupersededKey).has_value();
}

// The versions runs name. A run that names none (a TORCH_LOGS log ingested
// with `--test`, a hand-made shard) is no version of its own: it counts
// with whichever version answers for its test.
std::set<std::string> NamedVersions(const std::map<std::string, std::string>& run_torch) {
  std::set<std::string> versions;
  for (const auto& [run, v] : run_torch)
    if (!v.empty()) versions.insert(v);
  return versions;
}

}  // namespace

bool EvidenceRuns::Filters(const indexer::IndexStore& store, const std::string& torch) {
  return FiltersWith(store, NamedVersions(RunTorchVersions(store)), torch);
}

EvidenceRuns::EvidenceRuns(const indexer::IndexReader& index, const std::string& torch)
    : index_(index), torch_(torch) {
  run_torch_ = RunTorchVersions(index.store());
  std::set<std::string> versions = NamedVersions(run_torch_);
  if (!torch_.empty() && !versions.count(torch_)) {
    std::vector<std::string> known(versions.begin(), versions.end());
    std::string have;
    for (const auto& v : known) have += (have.empty() ? "" : ", ") + (v.empty() ? "(none)" : v);
    throw core::UnknownNameError(
        "torch version", torch_, core::ClosestNames(torch_, known),
        "no run in the index was traced on torch " + torch_ + " (its runs are on: " + have + ")");
  }
  active_ = FiltersWith(index.store(), versions, torch_);
}

const EvidenceRuns::TestRuns& EvidenceRuns::For(const std::string& nodeid) {
  auto [it, fresh] = tests_.try_emplace(nodeid);
  TestRuns& t = it->second;
  if (!fresh) return t;
  if (auto rec = index_.TestRecord(nodeid)) {
    nlohmann::json r = nlohmann::json::parse(*rec, nullptr, false);
    if (r.is_object()) {
      t.removed = r.value("removed", false);
      if (r.contains("retired_runs") && r["retired_runs"].is_array())
        for (const auto& run : r["retired_runs"])
          if (run.is_string()) t.retired.insert(run.get<std::string>());
    }
  }
  if (!torch_.empty()) {
    t.version = torch_;
    return t;
  }
  // The newest version among the test's live runs (outcomes and edges).
  std::set<std::string> runs;
  for (const auto& o : index_.Outcomes(nodeid)) runs.insert(o.run);
  for (const auto& e : index_.EdgesOfTest(nodeid)) runs.insert(e.run);
  bool any = false;
  for (const auto& run : runs) {
    auto v = run_torch_.find(run);
    if (v == run_torch_.end() || v->second.empty() || t.retired.count(run)) continue;
    if (!any || TorchVersionLess(t.version, v->second)) t.version = v->second;
    any = true;
  }
  return t;
}

bool EvidenceRuns::KeepTest(const std::string& nodeid) { return !active_ || !For(nodeid).removed; }

bool EvidenceRuns::Keep(const std::string& nodeid, const std::string& run) {
  if (!active_) return true;
  const TestRuns& t = For(nodeid);
  if (t.removed) return false;
  if (run == indexer::kStaticRunId) return true;
  if (t.retired.count(run)) return false;
  auto v = run_torch_.find(run);
  return v != run_torch_.end() && (v->second.empty() || v->second == t.version);
}

}  // namespace testmap::query
