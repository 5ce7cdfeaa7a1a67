#include "mcp/index_session.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "core/errors.h"
#include "mcp/limits.h"

namespace testmap::mcp {
namespace {

std::string StatStamp(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return "-";
  return std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino) + ":" +
         std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec);
}

// The fields of a run record worth repeating with every answer: enough to
// tell which torch, which tests and when, the rest is one read away
// (resources/read testmap://run/ID).
json Summarize(const std::string& id, const std::string& record) {
  json r = json::parse(record, nullptr, false);
  json out = {{"id", id}};
  if (!r.is_object()) return out;
  json meta = r.value("metadata", json::object());
  if (!meta.is_object()) meta = json::object();
  auto copy = [&](const char* key, const json& from, const char* as = nullptr) {
    auto it = from.find(key);
    if (it != from.end() && !it->is_null()) out[as ? as : key] = *it;
  };
  copy("start_time", meta);
  if (meta.contains("torch") && meta["torch"].is_object()) {
    json torch = json::object();
    for (const char* k : {"version", "git_version", "cuda", "hip", "debug"}) {
      if (meta["torch"].contains(k)) torch[k] = meta["torch"][k];
    }
    out["torch"] = torch;
  }
  copy("tests_git_sha", meta);
  copy("testmap_version", meta);
  copy("recorder", meta);
  copy("compile_logs", meta);
  if (meta.contains("python") && meta["python"].is_object())
    copy("version", meta["python"], "python");
  if (meta.contains("os") && meta["os"].is_object()) copy("platform", meta["os"], "os");
  copy("hostname", meta);
  copy("command", meta);
  copy("worker", r);
  copy("source", r);
  return out;
}

}  // namespace

OpenIndex::OpenIndex(std::unique_ptr<indexer::IndexStore> store, uint64_t generation)
    : store_(std::move(store)),
      reader_(*store_),
      generation_(generation),
      derived_(kSharedDerivations) {}

const json& OpenIndex::RunSummary(const std::string& id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = runs_.find(id);
  if (it != runs_.end()) return it->second;
  auto record = reader_.Run(id);
  json summary = record ? Summarize(id, *record) : json{{"id", id}, {"missing", true}};
  return runs_.emplace(id, std::move(summary)).first->second;
}

std::set<std::string> OpenIndex::AllRuns() const {
  std::set<std::string> ids;
  reader_.ForEachRun([&](const std::string& id, const std::string&) { ids.insert(id); });
  return ids;
}

json OpenIndex::Provenance(const std::set<std::string>& runs) const {
  json list = json::array();
  bool static_evidence = false;
  for (const auto& id : runs) {
    if (id == "static") {
      static_evidence = true;
      continue;
    }
    list.push_back(RunSummary(id));
  }
  return {
      {"index", dir()}, {"generation", generation_}, {"runs", list}, {"static", static_evidence}};
}

IndexSession::IndexSession(const std::string& dir)
    : dir_(std::filesystem::absolute(dir).lexically_normal().string()) {
  while (dir_.size() > 1 && dir_.back() == '/') dir_.pop_back();
}

std::string IndexSession::Fingerprint() const {
  std::string stamp = StatStamp(dir_) + "|" + StatStamp(dir_ + "/CURRENT");
  std::ifstream current(dir_ + "/CURRENT");
  std::string manifest;
  std::getline(current, manifest);
  if (!manifest.empty() && manifest.find('/') == std::string::npos) {
    stamp += "|" + manifest + "|" + StatStamp(dir_ + "/" + manifest);
  }
  return stamp;
}

std::shared_ptr<const OpenIndex> IndexSession::Current() {
  std::lock_guard<std::mutex> lock(mu_);
  std::string now = Fingerprint();
  if (open_ && now == fingerprint_) return open_;
  try {
    auto store = indexer::IndexStore::Open(dir_, indexer::OpenMode::kRead);
    open_ = std::make_shared<OpenIndex>(std::move(store), ++generation_);
    fingerprint_ = now;
    std::cerr << "testmap mcp: " << (generation_ == 1 ? "opened" : "index changed, reopened") << " "
              << dir_ << " (generation " << generation_ << ")\n";
  } catch (const core::InputError&) {
    // Mid-replace, or not there yet: keep answering from what is open.
    if (!open_) throw;
  }
  return open_;
}

}  // namespace testmap::mcp
