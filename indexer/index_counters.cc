#include "indexer/index_counters.h"

#include <nlohmann/json.hpp>
#include <set>

#include "core/errors.h"
#include "indexer/index_layout.h"
#include "indexer/index_reader.h"
#include "indexer/index_test_facts.h"
#include "indexer/scan_input.h"

namespace testmap::indexer {
namespace {

// Each counter with its name, for encoding and comparing in one place.
template <class Counters, class Fn>
void ForEachCount(Counters& c, Fn&& fn) {
  fn("tests", c.tests);
  fn("generic_tests", c.generic_tests);
  fn("traced_tests", c.traced_tests);
  fn("scanned_tests", c.scanned_tests);
  fn("scanned_traced", c.scanned_traced);
  fn("operators", c.operators);
  fn("edges", c.edges);
  fn("outcomes", c.outcomes);
}

}  // namespace

std::string EncodeCounters(const IndexCounters& c) {
  nlohmann::json j = nlohmann::json::object();
  ForEachCount(c, [&](const char* name, uint64_t n) { j[name] = n; });
  j["edges_by_evidence"] = c.edges_by_evidence;
  return j.dump();
}

std::optional<IndexCounters> ReadCounters(const IndexStore& store) {
  auto value = store.Get(Cf::kDefault, kCountersKey);
  if (!value || value->empty()) return std::nullopt;
  auto j = nlohmann::json::parse(*value, nullptr, false);
  if (!j.is_object()) throw core::InputError(store.dir() + ": damaged index: unreadable counters");
  IndexCounters c;
  try {
    ForEachCount(c, [&](const char* name, uint64_t& n) { n = j.at(name).get<uint64_t>(); });
    c.edges_by_evidence = j.at("edges_by_evidence").get<std::map<std::string, uint64_t>>();
  } catch (const nlohmann::json::exception& e) {
    throw core::InputError(store.dir() + ": damaged index: unreadable counters (" + e.what() + ")");
  }
  return c;
}

IndexCounters CountIndex(const IndexStore& store) {
  IndexCounters c;
  IndexReader index(store);
  std::set<std::string> ops, traced_tests;
  index.ForEachEdge([&](const Edge& e) {
    ++c.edges;
    ops.insert(e.Op());
    std::set<std::string> ev;
    for (const auto& t : e.tuples) ev.insert(t.evidence);
    for (const auto& x : ev) ++c.edges_by_evidence[x];
    if (e.run != kStaticRunId) traced_tests.insert(e.nodeid);
  });
  // Traced: with a trace record, whether or not it dispatched anything (a
  // skipped test), as `testmap trace` and `ingest` count.
  store.Scan(Cf::kOutcomes, "", [&](std::string_view k, std::string_view) {
    ++c.outcomes;
    traced_tests.insert(std::string(SplitKey(k).front()));
    return true;
  });
  std::set<std::string> generic;
  store.Scan(Cf::kGeneric, "", [&](std::string_view k, std::string_view) {
    generic.insert(std::string(SplitKey(k).front()));
    return true;
  });
  // How much of the scanned suite has evidence at all: admission answers
  // `unknown` for the rest.
  ForEachTestFacts(store, [&](TestFacts&& t) {
    ++c.tests;
    if (!t.scanned) return;
    ++c.scanned_tests;
    if (t.runs > 0) ++c.scanned_traced;
  });
  c.generic_tests = generic.size();
  c.traced_tests = traced_tests.size();
  c.operators = ops.size();
  return c;
}

IndexCounters CurrentCounters(const IndexStore& store) {
  if (auto c = ReadCounters(store)) return *c;
  return CountIndex(store);
}

std::string CountersDifference(const IndexCounters& a, const IndexCounters& b) {
  std::vector<std::pair<const char*, uint64_t>> left;
  ForEachCount(a, [&](const char* name, uint64_t n) { left.emplace_back(name, n); });
  std::string out;
  size_t i = 0;
  ForEachCount(b, [&](const char* name, uint64_t n) {
    if (left[i++].second != n)
      out += std::string(out.empty() ? "" : ", ") + name + ": " +
             std::to_string(left[i - 1].second) + " != " + std::to_string(n);
  });
  if (a.edges_by_evidence != b.edges_by_evidence) {
    auto text = [](const std::map<std::string, uint64_t>& m) { return nlohmann::json(m).dump(); };
    out += std::string(out.empty() ? "" : ", ") +
           "edges_by_evidence: " + text(a.edges_by_evidence) + " != " + text(b.edges_by_evidence);
  }
  return out;
}

}  // namespace testmap::indexer
