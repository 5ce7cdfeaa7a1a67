#include "analyzers/backend/backend_scan.h"

#include <algorithm>
#include <memory>
#include <set>
#include <thread>

#include "analyzers/backend/cpp_scan.h"
#include "analyzers/backend/python_reader.h"
#include "analyzers/backend/schema_registry.h"
#include "analyzers/backend/source_tree.h"
#include "analyzers/backend/torch_probe.h"
#include "analyzers/python/kv_cache.h"
#include "analyzers/torch_snapshot/torch_snapshot.h"
#include "core/closest_names.h"

namespace testmap::backend {

bool BackendScan::partial() const {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.partial(); });
}

BackendScan ScanBackend(const BackendScanOptions& options) {
  BackendScan scan;
  SourceTree tree = DiscoverSources(options.paths);
  scan.base = tree.base;
  for (const auto& m : tree.missing)
    scan.diagnostics.push_back({Diagnostic::Severity::kError, m, 0, "no such file or directory"});

  std::unique_ptr<python::KeyValueCache> cache;
  if (!options.cache_dir.empty()) {
    std::string err;
    cache = python::KeyValueCache::Open(options.cache_dir + "/backend", &err);
    if (!cache)
      scan.diagnostics.push_back({Diagnostic::Severity::kWarning, "", 0,
                                  "backend cache unavailable, scanning without it: " + err});
  }
  std::unique_ptr<TorchProbe> torch;
  try {
    torch = std::make_unique<TorchProbe>(ProbeTorch(options.torch_python, cache.get()));
    scan.torch_version = torch->torch_version;
  } catch (const std::exception& e) {
    scan.diagnostics.push_back(
        {Diagnostic::Severity::kError, "", 0, std::string("torch unavailable: ") + e.what()});
  }

  // The operator registry comes from the torch snapshot (shared with the
  // test scan and the index), cached per torch install.
  std::unique_ptr<torch_snapshot::TorchSnapshot> snapshot;
  try {
    std::string dir =
        options.snapshot_dir.empty() ? torch_snapshot::DefaultCacheDir() : options.snapshot_dir;
    snapshot = std::make_unique<torch_snapshot::TorchSnapshot>(torch_snapshot::LoadTorchSnapshot(
        torch_snapshot::EnsureTorchSnapshot(options.torch_python, dir)));
  } catch (const std::exception& e) {
    scan.diagnostics.push_back({Diagnostic::Severity::kError, "", 0,
                                std::string("torch's operator registry unavailable: ") + e.what()});
  }
  SchemaRegistry registry;
  if (snapshot) registry = SchemaRegistry::FromSnapshot(*snapshot);
  if (torch) registry.AddTorchScriptOnly(torch->torchscript_only_schemas);

  CppScanOptions cpp;
  cpp.build_dir = options.build_dir;
  cpp.torch = torch.get();
  cpp.cache = cache.get();
  cpp.jobs = options.jobs > 0 ? options.jobs
                              : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  cpp.clang_reader = options.clang_reader.empty() ? FindClangReader() : options.clang_reader;
  cpp.progress = options.progress;
  CppScanResult c = ScanCpp(tree, cpp);
  scan.stats.cpp_units = c.units;
  scan.stats.cpp_prefiltered = c.prefiltered;
  scan.stats.cpp_cache_hits = c.cache_hits;
  scan.stats.cpp_read = c.read;
  scan.stats.clang_seconds = c.clang_seconds;
  scan.backend_macros = c.backend_macros;

  // A C++ c10::register_privateuse1_backend("name") renames for Python too.
  std::set<std::string> renamed;
  for (const auto& r : c.records)
    if (r.kind == Kind::kHook && r.symbol == "BackendName") {
      std::string name = r.kernel;
      if (name.size() >= 2 && name.front() == '"') name = name.substr(1, name.size() - 2);
      if (!name.empty()) renamed.insert(name);
    }
  TorchFacts facts;
  facts.schemas = &registry;
  if (torch) {
    facts.dispatch_keys.insert(torch->dispatch_keys.begin(), torch->dispatch_keys.end());
    facts.device_keys = torch->device_keys;
  }
  PythonScanResult py = ScanPython(tree, facts, renamed);
  scan.stats.python_modules = py.modules;

  for (auto* list : {&c.records, &py.records})
    for (auto& r : *list) scan.records.push_back(std::move(r));
  for (auto* list : {&c.diagnostics, &py.diagnostics})
    for (auto& d : *list) scan.diagnostics.push_back(std::move(d));

  // One record per registration even when a header block was seen by
  // several translation units.
  for (auto& r : scan.records) r.file = RelativeTo(r.file, tree.base);
  std::sort(scan.records.begin(), scan.records.end(), OutputOrder);
  scan.records.erase(std::unique(scan.records.begin(), scan.records.end(),
                                 [](const Registration& a, const Registration& b) {
                                   return a.Identity() == b.Identity() && a.file == b.file &&
                                          a.line == b.line && a.mechanism == b.mechanism &&
                                          a.symbol == b.symbol;
                                 }),
                     scan.records.end());

  // Names: torch's operators, plus what the backend defines itself.
  std::set<std::string> defined;
  for (const auto& r : scan.records)
    if (r.kind == Kind::kDefinition) defined.insert(r.op);
  if (snapshot) {
    scan.known_ops = registry.Names();
    scan.known_ops.insert(scan.known_ops.end(), defined.begin(), defined.end());
    auto bare = [](std::string_view n) {
      size_t ns = n.find("::");
      if (ns != std::string_view::npos) n.remove_prefix(ns + 2);
      return n.substr(0, n.find('.'));
    };
    for (auto& r : scan.records) {
      if (r.op.empty() || r.kind == Kind::kDefinition || defined.count(r.op)) continue;
      if (const OpSchema* s = registry.Find(r.op)) {
        if (s->torchscript_only)
          scan.diagnostics.push_back(
              {Diagnostic::Severity::kWarning, r.file, r.line,
               r.op + " is a TorchScript-only overload: the dispatcher never calls a kernel "
                      "registered for it"});
        continue;
      }
      r.in_registry = false;
      std::string message = r.op + " is not an operator of torch " + snapshot->torch_version +
                            " nor one this backend defines; the registration is kept "
                            "(in_registry: false)";
      std::vector<std::string> close = core::ClosestNames(r.op, scan.known_ops, 3, bare);
      for (size_t i = 0; i < close.size(); ++i)
        message += (i == 0 ? "; did you mean " : ", ") + close[i];
      scan.diagnostics.push_back({Diagnostic::Severity::kWarning, r.file, r.line, message});
    }
  }
  for (auto& d : scan.diagnostics) d.file = RelativeTo(d.file, tree.base);
  return scan;
}

}  // namespace testmap::backend
