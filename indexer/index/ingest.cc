#include "indexer/index/ingest.h"

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <unordered_set>

#include "indexer/index/index_error.h"
#include "indexer/timings/read_file_text.h"

namespace testmap::indexer {
namespace {

namespace fs = std::filesystem;

void ReadOne(const std::string& path, IngestInputs& inputs) {
  std::string text;
  try {
    text = ReadFileText(path);
  } catch (const std::exception& e) {
    throw IndexError(path, 0, std::string("cannot read: ") + e.what());
  }
  inputs.files.push_back(path);
  if (LooksLikeTrace(text)) {
    inputs.traces.push_back(ParseTrace(text, path));
  } else if (LooksLikeScan(text)) {
    inputs.scans.push_back(ParseScan(text, path));
  } else if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw IndexError(path, 0, "empty file: neither a trace shard nor scan output");
  } else {
    throw IndexError(path, 1,
                     "neither a testmap trace shard (first line a `run` record) nor `testmap scan "
                     "--format jsonl` output");
  }
}

// A test only traced, never scanned: what its node id alone says.
std::string MinimalTestRecord(const std::string& nodeid) {
  nlohmann::json rec = {{"nodeid", nodeid}, {"origin", "trace"}};
  size_t sep = nodeid.find("::");
  rec["file"] = nodeid.substr(0, sep);
  if (sep != std::string::npos) {
    std::string rest = nodeid.substr(sep + 2);
    size_t last = rest.rfind("::");
    rec["class"] = last == std::string::npos ? "" : rest.substr(0, last);
    rec["method"] = last == std::string::npos ? rest : rest.substr(last + 2);
  }
  return rec.dump();
}

}  // namespace

IngestInputs ReadIngestInputs(const std::vector<std::string>& paths) {
  IngestInputs inputs;
  for (const auto& path : paths) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<std::string> shards;
      for (const auto& entry : fs::directory_iterator(path)) {
        std::string name = entry.path().filename().string();
        if (name.starts_with("trace-") && name.ends_with(".jsonl"))
          shards.push_back(entry.path().string());
      }
      if (shards.empty()) throw IndexError(path, 0, "directory without trace-*.jsonl shards");
      std::sort(shards.begin(), shards.end());
      for (const auto& s : shards) ReadOne(s, inputs);
    } else if (!fs::exists(path, ec)) {
      throw IndexError(path, 0, "no such file or directory");
    } else {
      ReadOne(path, inputs);
    }
  }
  return inputs;
}

IngestSummary Ingest(IndexStore& store, const IngestInputs& inputs) {
  IngestSummary summary;
  summary.files = inputs.files.size();
  IndexBatch batch;
  std::unordered_set<std::string> scanned;
  for (const auto& scan : inputs.scans) {
    for (const auto& t : scan) {
      scanned.insert(t.nodeid);
      ++summary.scanned_tests;
      batch.Put(Cf::kTests, t.nodeid, t.record_json);
      if (!t.generic_id.empty()) batch.Put(Cf::kGeneric, JoinKey({t.generic_id, t.nodeid}), "");
      if (!t.static_packet.empty()) {
        std::string value = EncodeEdge({t.static_tuple});
        batch.Put(Cf::kOpTests, JoinKey({t.static_packet, kStaticOverload, t.nodeid, kStaticRunId}),
                  value);
        batch.Put(Cf::kTestOps, JoinKey({t.nodeid, t.static_packet, kStaticOverload, kStaticRunId}),
                  value);
        ++summary.edges;
        ++summary.observations;
      }
    }
  }
  std::unordered_set<std::string> minimal_done;
  for (const auto& trace : inputs.traces) {
    for (const auto& run : trace.runs) batch.Put(Cf::kRuns, run.id, run.record_json);
    summary.runs += trace.runs.size();
    for (const auto& t : trace.tests) {
      ++summary.traced_tests;
      batch.Put(Cf::kOutcomes, JoinKey({t.nodeid, t.run_id}), t.outcome_json);
      if (!scanned.count(t.nodeid) && !minimal_done.count(t.nodeid)) {
        minimal_done.insert(t.nodeid);
        if (!store.Get(Cf::kTests, t.nodeid))
          batch.Put(Cf::kTests, t.nodeid, MinimalTestRecord(t.nodeid));
      }
      // One edge per operator overload: all its (evidence, device, dtypes).
      std::map<std::pair<std::string_view, std::string_view>, std::vector<EdgeTuple>> edges;
      for (const auto& op : t.ops) edges[{op.packet, op.overload}].push_back(op.tuple);
      for (auto& [op, tuples] : edges) {
        summary.observations += tuples.size();
        std::string value = EncodeEdge(std::move(tuples));
        batch.Put(Cf::kOpTests, JoinKey({op.first, op.second, t.nodeid, t.run_id}), value);
        batch.Put(Cf::kTestOps, JoinKey({t.nodeid, op.first, op.second, t.run_id}),
                  std::move(value));
        ++summary.edges;
      }
    }
  }
  summary.keys = batch.size();
  store.Commit(batch);
  return summary;
}

}  // namespace testmap::indexer
