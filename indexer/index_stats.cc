#include "indexer/index_stats.h"

#include <filesystem>

#include "indexer/index_counters.h"
#include "indexer/index_reader.h"

namespace testmap::indexer {

nlohmann::json ReadIndexStats(const IndexStore& store) {
  using nlohmann::json;
  // Kept at ingest (index_counters.h): a few point reads, not a walk.
  IndexCounters c = CurrentCounters(store);
  json runs = json::array();
  IndexReader(store).ForEachRun([&](const std::string& id, const std::string& text) {
    json r = json::parse(text, nullptr, false);
    json meta = r.is_object() ? r.value("metadata", json::object()) : json::object();
    runs.push_back({{"id", id},
                    {"source", r.value("source", "")},
                    {"worker", r.value("worker", "")},
                    {"start_time", meta.value("start_time", "")},
                    {"torch", meta.contains("torch") ? meta["torch"].value("version", "") : ""},
                    {"recorder", meta.value("recorder", "")}});
  });
  uintmax_t bytes = 0;
  for (const auto& f : std::filesystem::directory_iterator(store.dir())) {
    if (f.is_regular_file()) bytes += f.file_size();
  }
  // How much of the scanned suite has evidence at all: admission answers
  // `unknown` for the rest.
  return {{"index", store.dir()},
          {"tests", c.tests},
          {"generic_tests", c.generic_tests},
          {"traced_tests", c.traced_tests},
          {"evidence",
           {{"scanned", c.scanned_tests},
            {"with_evidence", c.scanned_traced},
            {"share", c.scanned_tests ? double(c.scanned_traced) / c.scanned_tests : 0.0}}},
          {"operators", c.operators},
          {"edges", c.edges},
          {"edges_by_evidence", c.edges_by_evidence},
          {"outcomes", c.outcomes},
          {"runs", runs},
          {"bytes", bytes}};
}

nlohmann::json ReadIndexStats(const std::string& dir) {
  auto store = IndexStore::Open(dir, OpenMode::kRead, CfBit(Cf::kRuns));
  if (!ReadCounters(*store)) store = IndexStore::Open(dir, OpenMode::kRead);
  return ReadIndexStats(*store);
}

}  // namespace testmap::indexer
