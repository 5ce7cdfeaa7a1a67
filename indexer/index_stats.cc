#include "indexer/index_stats.h"

#include <filesystem>
#include <set>

#include "indexer/index_reader.h"
#include "indexer/index_test_facts.h"

namespace testmap::indexer {

nlohmann::json ReadIndexStats(const IndexStore& store) {
  using nlohmann::json;
  IndexReader index(store);
  std::set<std::string> ops, traced_tests;
  std::map<std::string, size_t> by_evidence;
  size_t edges = 0;
  index.ForEachEdge([&](const Edge& e) {
    ++edges;
    ops.insert(e.Op());
    std::set<std::string> ev;
    for (const auto& t : e.tuples) ev.insert(t.evidence);
    for (const auto& x : ev) ++by_evidence[x];
    if (e.run != "static") traced_tests.insert(e.nodeid);
  });
  // Traced: with a trace record, whether or not it dispatched anything (a
  // skipped test), as `testmap trace` and `ingest` count.
  store.Scan(Cf::kOutcomes, "", [&](std::string_view k, std::string_view) {
    traced_tests.insert(std::string(SplitKey(k).front()));
    return true;
  });
  std::set<std::string> generic;
  store.Scan(Cf::kGeneric, "", [&](std::string_view k, std::string_view) {
    generic.insert(std::string(SplitKey(k).front()));
    return true;
  });
  json runs = json::array();
  index.ForEachRun([&](const std::string& id, const std::string& text) {
    json r = json::parse(text, nullptr, false);
    json meta = r.is_object() ? r.value("metadata", json::object()) : json::object();
    runs.push_back({{"id", id},
                    {"source", r.value("source", "")},
                    {"worker", r.value("worker", "")},
                    {"start_time", meta.value("start_time", "")},
                    {"torch", meta.contains("torch") ? meta["torch"].value("version", "") : ""},
                    {"recorder", meta.value("recorder", "")}});
  });
  // How much of the scanned suite has evidence at all: admission answers
  // `unknown` for the rest.
  size_t scanned = 0, scanned_traced = 0;
  ForEachTestFacts(store, [&](TestFacts&& t) {
    if (!t.scanned) return;
    ++scanned;
    if (t.runs > 0) ++scanned_traced;
  });
  uintmax_t bytes = 0;
  for (const auto& f : std::filesystem::directory_iterator(store.dir())) {
    if (f.is_regular_file()) bytes += f.file_size();
  }
  return {{"index", store.dir()},
          {"tests", index.CountKeys(Cf::kTests)},
          {"generic_tests", generic.size()},
          {"traced_tests", traced_tests.size()},
          {"evidence",
           {{"scanned", scanned},
            {"with_evidence", scanned_traced},
            {"share", scanned ? double(scanned_traced) / scanned : 0.0}}},
          {"operators", ops.size()},
          {"edges", edges},
          {"edges_by_evidence", by_evidence},
          {"outcomes", index.CountKeys(Cf::kOutcomes)},
          {"runs", runs},
          {"bytes", bytes}};
}

}  // namespace testmap::indexer
