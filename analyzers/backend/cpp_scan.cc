#include "analyzers/backend/cpp_scan.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "analyzers/backend/clang_protocol.h"
#include "analyzers/backend/compile_commands.h"
#include "analyzers/backend/cpp_prefilter.h"
#include "analyzers/backend/subprocess.h"
#include "core/content_hash.h"
#include "core/read_file.h"

namespace testmap::backend {
namespace {

namespace fs = std::filesystem;
using core::ContentHash;
using core::HexDigest;

// Content hashes of files, each read once per scan.
class FileHashes {
 public:
  explicit FileHashes(const std::map<std::string, std::string>* known) : known_(known) {}
  std::string Of(const std::string& path) {
    auto it = hashes_.find(path);
    if (it != hashes_.end()) return it->second;
    auto k = known_->find(path);
    if (k != known_->end()) return hashes_[path] = HexDigest(ContentHash(k->second));
    Diagnostic ignored;
    std::optional<std::string> text = ReadSourceFile(path, &ignored);
    return hashes_[path] = text ? HexDigest(ContentHash(*text)) : "missing";
  }

 private:
  const std::map<std::string, std::string>* known_;
  std::map<std::string, std::string> hashes_;
};

// A cached unit result is good while every backend header it included is
// unchanged.
std::optional<UnitResult> CachedUnit(python::KeyValueCache* cache, const std::string& key,
                                     FileHashes& hashes) {
  if (!cache) return std::nullopt;
  std::optional<std::string> value = cache->Get(key);
  if (!value) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(*value, nullptr, false);
  if (!j.is_object() || !j.contains("deps") || !j.contains("result")) return std::nullopt;
  for (const auto& [path, hash] : j["deps"].items())
    if (!hash.is_string() || hashes.Of(path) != hash.get<std::string>()) return std::nullopt;
  try {
    return DecodeResult(j["result"].get<std::string>());
  } catch (const std::exception&) {
    return std::nullopt;  // a corrupt entry is a miss
  }
}

// The torch headers at least two units include, directly or through the
// backend's own headers: the prelude the Clang reader precompiles once.
std::vector<std::string> PreludeHeaders(const std::vector<std::string>& units,
                                        const std::map<std::string, std::string>& texts,
                                        const std::vector<std::string>& torch_includes) {
  std::map<std::string, bool> is_torch;  // include name -> found under torch's include dirs
  auto torch_header = [&](const std::string& name) {
    auto [it, fresh] = is_torch.try_emplace(name, false);
    if (fresh)
      for (const auto& dir : torch_includes)
        if (fs::exists(fs::path(dir) / name)) it->second = true;
    return it->second;
  };
  // A backend header an include names: by path relative to the including
  // file's folder, else by the end of its path.
  auto own_header = [&](const std::string& from, const std::string& name) -> const std::string* {
    auto it = texts.find((fs::path(from).parent_path() / name).lexically_normal().string());
    if (it != texts.end()) return &it->first;
    for (const auto& [path, _] : texts)
      if (path.size() > name.size() &&
          path.compare(path.size() - name.size(), name.size(), name) == 0 &&
          path[path.size() - name.size() - 1] == '/')
        return &path;
    return nullptr;
  };
  std::map<std::string, int> count;
  std::vector<std::string> order;
  for (const auto& unit : units) {
    std::set<std::string> seen{unit}, found;
    std::vector<std::string> todo{unit};
    while (!todo.empty()) {
      std::string file = todo.back();
      todo.pop_back();
      for (const auto& name : IncludedNames(texts.at(file))) {
        if (const std::string* own = own_header(file, name)) {
          if (seen.insert(*own).second) todo.push_back(*own);
        } else if (torch_header(name) && found.insert(name).second && !count.count(name)) {
          order.push_back(name);
        }
      }
    }
    for (const auto& h : found) ++count[h];
  }
  std::vector<std::string> prelude;
  for (const auto& h : order)
    if (count[h] >= 2) prelude.push_back(h);
  return prelude;
}

std::string ReaderIdentity(const std::string& reader) {
  static std::map<std::string, std::string> memo;
  auto it = memo.find(reader);
  if (it != memo.end()) return it->second;
  // Any rebuild of the reader makes new keys: no version number to forget.
  return memo[reader] = HexDigest(ContentHash(core::ReadInputFile(reader)));
}

}  // namespace

std::string FindClangReader() {
  if (const char* env = std::getenv("TESTMAP_BACKEND_CLANG"); env && *env) return env;
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path reader = self.parent_path() / "testmap-backend-clang";
    if (fs::exists(reader, ec)) return reader.string();
  }
  return "";
}

CppScanResult ScanCpp(const SourceTree& tree, const CppScanOptions& options) {
  CppScanResult result;
  result.units = tree.cpp_sources.size();
  if (tree.cpp_sources.empty()) return result;

  // Every C++ file's text: the macro discovery and include folders need
  // the headers too.
  std::map<std::string, std::string> texts;
  std::vector<std::string_view> views;
  for (const auto* list : {&tree.cpp_sources, &tree.headers})
    for (const auto& f : *list) {
      Diagnostic error;
      if (std::optional<std::string> text = ReadSourceFile(f, &error))
        texts[f] = std::move(*text);
      else
        result.diagnostics.push_back(std::move(error));
    }
  for (const auto& [_, t] : texts) views.push_back(t);
  CppPrefilter prefilter(views);
  result.backend_macros.assign(prefilter.backend_macros().begin(),
                               prefilter.backend_macros().end());

  std::vector<std::string> candidates;
  for (const auto& f : tree.cpp_sources)
    if (texts.count(f) && prefilter.Matches(texts[f])) candidates.push_back(f);
  result.prefiltered = tree.cpp_sources.size() - candidates.size();
  if (candidates.empty()) return result;

  CompileCommands db;
  if (!options.build_dir.empty()) {
    try {
      db = CompileCommands::FromBuildDir(options.build_dir);
    } catch (const std::exception& e) {
      result.diagnostics.push_back({Diagnostic::Severity::kError, "", 0, e.what()});
      return result;
    }
  } else if (!options.torch) {
    result.diagnostics.push_back(
        {Diagnostic::Severity::kError, "", 0,
         "C++ sources not read: no compile_commands.json (-p) and no torch for default flags"});
    return result;
  }
  if (options.clang_reader.empty()) {
    result.diagnostics.push_back({Diagnostic::Severity::kError, "", 0,
                                  "C++ sources not read: testmap-backend-clang not found "
                                  "(build it, or set TESTMAP_BACKEND_CLANG)"});
    return result;
  }
  std::vector<std::string> include_dirs = BackendIncludeDirs(tree.roots, tree.headers, views);

  ClangRequest request;
  request.roots = tree.roots;
  request.body_triggers = prefilter.Words();
  request.jobs = std::max(1, options.jobs);
  std::string common_context = ReaderIdentity(options.clang_reader) + "\n" +
                               (options.torch ? options.torch->identity : "") + "\n" +
                               HexDigest(ContentHash(nlohmann::json(request.roots).dump() +
                                                     nlohmann::json(request.body_triggers).dump()));
  FileHashes hashes(&texts);
  std::map<std::string, std::string> keys;  // unit file -> cache key
  std::vector<std::string> keys_in_order;   // the units to read
  size_t done = 0;
  for (const auto& f : candidates) {
    CompileUnit unit;
    if (const CompileUnit* u = db.Find(f)) {
      unit = *u;
    } else {
      if (!options.build_dir.empty())
        result.diagnostics.push_back({Diagnostic::Severity::kWarning, f, 0,
                                      "not in compile_commands.json; read with default flags"});
      if (!options.torch) continue;
      unit = DefaultCompileUnit(f, *options.torch, include_dirs);
    }
    std::string key = "unit/" + hashes.Of(f) + "/" +
                      HexDigest(ContentHash(common_context + nlohmann::json(unit.arguments).dump() +
                                            unit.directory));
    if (std::optional<UnitResult> hit = CachedUnit(options.cache, key, hashes)) {
      ++result.cache_hits;
      for (auto& r : hit->records) result.records.push_back(std::move(r));
      for (auto& d : hit->diagnostics) result.diagnostics.push_back(std::move(d));
      if (options.progress) options.progress(++done, candidates.size());
      continue;
    }
    keys[f] = key;
    keys_in_order.push_back(f);
    request.units.push_back(std::move(unit));
  }
  if (request.units.empty()) return result;
  if (options.torch && request.units.size() > 1)
    request.pch_prelude = PreludeHeaders(keys_in_order, texts, options.torch->include_paths);

  auto start = std::chrono::steady_clock::now();
  size_t seen = 0;
  auto on_line = [&](const std::string& line) {
    UnitResult r;
    try {
      r = DecodeResult(line);
    } catch (const std::exception& e) {
      result.diagnostics.push_back({Diagnostic::Severity::kError, "", 0, e.what()});
      return;
    }
    ++seen;
    ++result.read;
    bool clean = r.parsed;
    for (const auto& d : r.diagnostics) clean = clean && !d.partial();
    // Only clean reads are cached: a unit with errors is read again next
    // time, after its include or syntax problem may have been fixed.
    if (options.cache && clean && keys.count(r.file)) {
      nlohmann::json deps = nlohmann::json::object();
      for (const auto& d : r.deps) deps[d] = hashes.Of(d);
      options.cache->Put(keys[r.file],
                         nlohmann::json{{"result", EncodeResult(r)}, {"deps", deps}}.dump());
    }
    for (auto& rec : r.records) result.records.push_back(std::move(rec));
    for (auto& d : r.diagnostics) result.diagnostics.push_back(std::move(d));
    if (options.progress) options.progress(++done, candidates.size());
  };
  ProcessResult p = RunProcess({options.clang_reader}, EncodeRequest(request), on_line);
  result.clang_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (p.status != 0 || seen != request.units.size()) {
    std::string err = p.err.size() > 2000 ? "..." + p.err.substr(p.err.size() - 2000) : p.err;
    result.diagnostics.push_back({Diagnostic::Severity::kError, "", 0,
                                  "the Clang reader stopped after " + std::to_string(seen) +
                                      " of " + std::to_string(request.units.size()) +
                                      " files (status " + std::to_string(p.status) + ")" +
                                      (err.empty() ? "" : ":\n" + err)});
  }
  if (options.cache) options.cache->Flush();
  return result;
}

}  // namespace testmap::backend
