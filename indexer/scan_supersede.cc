#include "indexer/scan_supersede.h"

#include <simdjson.h>

#include <map>
#include <set>

#include "core/node_id.h"
#include "indexer/index_reader.h"

namespace testmap::indexer {
namespace {

struct Identity {
  bool scanned = false;  // a scan record with content identities
  bool removed = false;
  std::string source_hash, content;
  std::set<std::string> retired;
};

Identity ReadIdentity(std::string_view json) {
  Identity id;
  thread_local simdjson::dom::parser parser;
  simdjson::dom::object rec;
  if (parser.parse(json.data(), json.size()).get_object().get(rec) != simdjson::SUCCESS) return id;
  std::string_view s;
  simdjson::dom::object content;
  if (rec["content"].get_object().get(content) == simdjson::SUCCESS) {
    id.scanned = true;
    id.content = simdjson::minify(content);
  }
  if (rec["source_hash"].get_string().get(s) == simdjson::SUCCESS) id.source_hash = s;
  bool removed = false;
  if (rec["removed"].get_bool().get(removed) == simdjson::SUCCESS) id.removed = removed;
  simdjson::dom::array runs;
  if (rec["retired_runs"].get_array().get(runs) == simdjson::SUCCESS)
    for (auto r : runs)
      if (r.get_string().get(s) == simdjson::SUCCESS) id.retired.emplace(s);
  return id;
}

// Every run the index holds evidence or an outcome of for `nodeid`.
std::set<std::string> RunsOf(const IndexStore& store, const std::string& nodeid) {
  IndexReader index(store);
  std::set<std::string> runs;
  for (const auto& o : index.Outcomes(nodeid)) runs.insert(o.run);
  for (const auto& e : index.EdgesOfTest(nodeid)) runs.insert(e.run);
  return runs;
}

std::string WithFields(std::string json, const std::set<std::string>& retired, bool removed) {
  size_t end = json.rfind('}');
  if (end == std::string::npos) return json;
  std::string add = removed ? ",\"removed\":true" : "";
  add += ",\"retired_runs\":[";
  bool first = true;
  for (const auto& r : retired) {
    add += first ? "\"" : ",\"";
    add += r;  // run ids are hex digests or "static": nothing to escape
    add += '"';
    first = false;
  }
  add += ']';
  json.insert(end, add);
  return json;
}

}  // namespace

bool PutScannedRecords(const IndexStore& store, const std::vector<std::vector<ScannedTest>>& scans,
                       IndexBatch& batch) {
  // file -> its scanned tests (the last scan of a node id wins), and the
  // devices its scans cover.
  struct File {
    std::map<std::string_view, const ScannedTest*> tests;
    std::set<std::string> devices;
  };
  std::map<std::string_view, File> files;
  for (const auto& scan : scans)
    for (const auto& t : scan) {
      std::string_view id = t.nodeid;
      File& f = files[id.substr(0, id.find("::"))];
      f.tests[id] = &t;
      f.devices.insert(t.device);
    }
  bool retired = false;
  for (const auto& [file, f] : files) {
    std::map<std::string, std::string> stored;
    store.Scan(Cf::kTests, std::string(file) + "::", [&](std::string_view k, std::string_view v) {
      stored.emplace(k, v);
      return true;
    });
    for (const auto& [id, t] : f.tests) {
      auto it = stored.find(std::string(id));
      // New, or the common rescan (the same record, nothing retired).
      if (it == stored.end() || it->second == t->record_json) {
        batch.Put(Cf::kTests, t->nodeid, t->record_json);
        continue;
      }
      Identity before = ReadIdentity(it->second), now = ReadIdentity(t->record_json);
      std::set<std::string> runs = before.retired;
      if (before.scanned && now.scanned &&
          (before.removed || before.content != now.content ||
           before.source_hash != now.source_hash))
        for (const auto& r : RunsOf(store, t->nodeid))
          if (r != kStaticRunId) runs.insert(r);
      retired = retired || runs.size() > before.retired.size();
      batch.Put(Cf::kTests, t->nodeid,
                runs.empty() ? t->record_json : WithFields(t->record_json, runs, false));
    }
    // Stored scanned tests this file's scans no longer have.
    simdjson::dom::parser parser;
    for (const auto& [nodeid, json] : stored) {
      if (f.tests.count(nodeid) || json.find("\"origin\":\"scan\"") == std::string::npos) continue;
      Identity id = ReadIdentity(json);
      if (!id.scanned || id.removed) continue;
      simdjson::dom::object rec;
      std::string_view device;
      if (parser.parse(json).get_object().get(rec) != simdjson::SUCCESS ||
          rec["params"]["device"].get_string().get(device) != simdjson::SUCCESS ||
          !f.devices.count(std::string(device)))
        continue;
      std::set<std::string> runs = id.retired;
      for (const auto& r : RunsOf(store, nodeid)) runs.insert(r);
      runs.insert(kStaticRunId);
      batch.Put(Cf::kTests, nodeid, WithFields(json, runs, true));
      retired = true;
    }
  }
  return retired;
}

}  // namespace testmap::indexer
