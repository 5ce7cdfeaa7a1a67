#include "indexer/ingest_counters.h"

#include <algorithm>
#include <set>

#include "indexer/index_layout.h"
#include "indexer/index_op_keys.h"
#include "indexer/index_test_facts.h"
#include "indexer/latest_outcome.h"
#include "indexer/scan_input.h"

namespace testmap::indexer {
namespace {

std::string_view FirstField(std::string_view key) { return key.substr(0, key.find('\0')); }
std::string_view LastField(std::string_view key) {
  size_t nul = key.rfind('\0');
  return nul == std::string_view::npos ? key : key.substr(nul + 1);
}

// What the batch does to one test.
struct Touch {
  std::string_view nodeid;
  std::string_view record;  // the last put of its record, when `has_record`
  bool has_record = false, outcome = false, traced = false;
};

void AddSigned(uint64_t& counter, bool after, bool before) {
  counter += static_cast<uint64_t>(after) - static_cast<uint64_t>(before);
}

}  // namespace

IngestCounters::IngestCounters(const IndexStore& store)
    : store_(store), counters_(CurrentCounters(store)) {
  // Every other key names a test with a record (`index verify`).
  empty_before_ = counters_.tests == 0;
}

bool IngestCounters::RunMayExist(std::string_view run_id) const {
  if (run_id == kStaticRunId) return true;
  auto it = old_runs_.find(std::string(run_id));
  if (it != old_runs_.end()) return it->second;
  bool exists = store_.Get(Cf::kRuns, run_id).has_value();
  old_runs_.emplace(std::string(run_id), exists);
  return exists;
}

void IngestCounters::AddBatch(const IndexBatch& batch, const std::vector<std::string_view>& traced,
                              const std::vector<std::string_view>& op_keys) {
  // Operators: distinct canonical spellings, old and new (a few hundred).
  std::set<std::string> ops;
  if (!empty_before_) {
    for (const OpKey& k : ListOpKeys(store_)) ops.insert(k.Canonical());
  }
  size_t ops_before = ops.size();
  for (std::string_view key : op_keys) {
    size_t nul = key.find('\0');
    ops.insert(
        OpKey{std::string(key.substr(0, nul)), std::string(key.substr(nul + 1))}.Canonical());
  }
  counters_.operators += ops.size() - ops_before;

  // Generic tests: ids whose first link this batch writes.
  std::vector<std::string_view> generic;
  for (const auto& e : batch.entries(static_cast<int>(Cf::kGeneric)))
    generic.push_back(FirstField(e.key));
  std::sort(generic.begin(), generic.end());
  generic.erase(std::unique(generic.begin(), generic.end()), generic.end());
  auto generic_cursor = store_.NewCursor(Cf::kGeneric);
  generic_cursor->Seek("");
  std::string prefix;
  for (std::string_view id : generic) {
    prefix.assign(id);
    prefix.push_back('\0');
    AdvanceTo(*generic_cursor, prefix);
    bool known = generic_cursor->Valid() && generic_cursor->key().starts_with(prefix);
    if (!known) ++counters_.generic_tests;
  }

  // Outcomes: keys not there before.
  std::vector<std::string_view> outcomes;
  for (const auto& e : batch.entries(static_cast<int>(Cf::kOutcomes))) outcomes.push_back(e.key);
  std::sort(outcomes.begin(), outcomes.end());
  outcomes.erase(std::unique(outcomes.begin(), outcomes.end()), outcomes.end());
  for (std::string_view key : outcomes) {
    bool known = RunMayExist(LastField(key)) && store_.Get(Cf::kOutcomes, key).has_value();
    if (!known) ++counters_.outcomes;
  }

  // Tests: every test the batch writes a record, an outcome or an edge for,
  // against what the index said of it.
  std::vector<Touch> touches;
  for (const auto& e : batch.entries(static_cast<int>(Cf::kTests)))
    touches.push_back({e.key, e.value, true, false, false});
  for (std::string_view key : outcomes)
    touches.push_back({FirstField(key), {}, false, true, false});
  for (std::string_view nodeid : traced) touches.push_back({nodeid, {}, false, false, true});
  // Stable: of several records of one test, the last put wins, as in the commit.
  std::stable_sort(touches.begin(), touches.end(),
                   [](const Touch& a, const Touch& b) { return a.nodeid < b.nodeid; });
  auto tests = store_.NewCursor(Cf::kTests);
  auto old_outcomes = store_.NewCursor(Cf::kOutcomes);
  auto test_ops = store_.NewCursor(Cf::kTestOps);
  for (auto* c : {tests.get(), old_outcomes.get(), test_ops.get()}) c->Seek("");
  for (size_t i = 0; i < touches.size();) {
    Touch t = touches[i];
    for (++i; i < touches.size() && touches[i].nodeid == t.nodeid; ++i) {
      const Touch& more = touches[i];
      if (more.has_record) t.record = more.record, t.has_record = true;
      t.outcome |= more.outcome;
      t.traced |= more.traced;
    }
    // Node ids are printable, so NODEID \0 sorts as NODEID does and every
    // cursor only moves forward.
    bool old_record = false, old_scanned = false, old_outcome = false, old_traced = false;
    if (!empty_before_) {
      AdvanceTo(*tests, t.nodeid);
      old_record = tests->Valid() && tests->key() == t.nodeid;
      old_scanned = old_record && IsScanRecord(tests->value());
      prefix.assign(t.nodeid);
      prefix.push_back('\0');
      AdvanceTo(*old_outcomes, prefix);
      old_outcome = old_outcomes->Valid() && old_outcomes->key().starts_with(prefix);
      old_traced = old_outcome;
      if (!old_traced && (t.outcome || t.traced)) {
        AdvanceTo(*test_ops, prefix);
        for (; !old_traced && test_ops->Valid() && test_ops->key().starts_with(prefix);
             test_ops->Next())
          old_traced = LastField(test_ops->key()) != kStaticRunId;
      }
    }
    bool scanned = t.has_record ? IsScanRecord(t.record) : old_scanned;
    bool outcome = old_outcome || t.outcome;
    AddSigned(counters_.tests, old_record || t.has_record, old_record);
    AddSigned(counters_.scanned_tests, scanned, old_scanned);
    AddSigned(counters_.scanned_traced, scanned && outcome, old_scanned && old_outcome);
    AddSigned(counters_.traced_tests, old_traced || t.outcome || t.traced, old_traced);
  }
}

void IngestCounters::CountEvidence(std::string_view value, int64_t by) {
  ForEachEvidenceOf(value, [&](std::string_view evidence) {
    for (auto& [name, n] : evidence_) {
      if (name == evidence) return void(n += by);
    }
    evidence_.emplace_back(std::string(evidence), by);
  });
}

void IngestCounters::AddEdge(std::string_view key, bool may_exist) {
  bool existed = false;
  if (may_exist && !empty_before_) {
    if (!old_edges_) {
      old_edges_ = store_.NewCursor(Cf::kOpTests);
      old_edges_->Seek(key);
    }
    AdvanceTo(*old_edges_, key);
    existed = old_edges_->Valid() && old_edges_->key() == key;
    if (existed) CountEvidence(old_edges_->value(), -1);
  }
  if (!existed) ++counters_.edges;
}

const IndexCounters& IngestCounters::Finish() {
  for (const auto& [value, n] : new_values_)
    CountEvidence({value.first, value.second}, static_cast<int64_t>(n));
  new_values_.clear();
  for (const auto& [name, n] : evidence_) {
    uint64_t& total = counters_.edges_by_evidence[name];
    total += static_cast<uint64_t>(n);
    if (total == 0) counters_.edges_by_evidence.erase(name);
  }
  evidence_.clear();
  return counters_;
}

}  // namespace testmap::indexer
