// `testmap backend scan|dump`: what a PyTorch backend registers with the
// dispatcher, read from its sources or from the live dispatcher
// (docs/backend.md). Options in, one library call, records out.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

#include "analyzers/backend/backend_scan.h"
#include "analyzers/backend/dispatcher_dump.h"
#include "analyzers/backend/registration_output.h"
#include "analyzers/torch_snapshot/torch_snapshot.h"
#include "cli/cache_options.h"
#include "cli/commands.h"
#include "cli/run_command.h"
#include "cli/shared_options.h"
#include "core/progress.h"

namespace testmap::cli {
namespace {

namespace tb = testmap::backend;

struct BackendArgs {
  std::vector<std::string> paths;
  std::string build_dir;
  std::string torch_python;
  std::string format = "table";
  int jobs = 0;
  CacheOptions cache;
  std::vector<std::string> modules;
  std::vector<std::string> python_path;
};

std::string TorchPython(const std::string& given) {
  return given.empty() ? torch_snapshot::DefaultTorchPython() : given;
}

tb::RecordFormat Format(const std::string& f) {
  return f == "json"    ? tb::RecordFormat::kJson
         : f == "jsonl" ? tb::RecordFormat::kJsonl
                        : tb::RecordFormat::kTable;
}

void PrintDiagnostics(const std::vector<tb::Diagnostic>& diagnostics) {
  for (const auto& d : diagnostics) std::cerr << tb::FormatDiagnostic(d) << "\n";
}

int RunScan(const BackendArgs& a) {
  tb::BackendScanOptions o;
  o.paths = a.paths;
  o.build_dir = a.build_dir;
  o.torch_python = TorchPython(a.torch_python);
  o.jobs = a.jobs;
  o.cache_dir = a.cache.Dir();
  o.snapshot_dir = a.cache.SnapshotDir();
  core::Progress progress("testmap backend scan: reading C++", "files");
  if (progress.enabled())
    o.progress = [&](size_t done, size_t total) {
      progress.SetTotal(total);
      progress.Set(done);
    };
  tb::BackendScan scan = tb::ScanBackend(o);
  progress.Finish();
  tb::RecordSet set{scan.records, scan.diagnostics, tb::Evidence::kStatic, scan.torch_version,
                    scan.base};
  tb::WriteRecords(set, Format(a.format), std::cout);
  std::cout.flush();
  PrintDiagnostics(scan.diagnostics);
  const auto& s = scan.stats;
  std::cerr << "testmap backend scan: " << s.cpp_units << " C++ files (" << s.cpp_prefiltered
            << " without registrations, " << s.cpp_cache_hits << " from the cache, " << s.cpp_read
            << " read by Clang), " << s.python_modules << " Python modules\n";
  bool unknown = false;
  for (const auto& r : scan.records) unknown = unknown || !r.in_registry;
  if (scan.partial()) {
    std::cerr << "testmap backend scan: some files were not read completely; "
                 "the answer is partial\n";
    return kExitBadInput;
  }
  // A registration of a name torch does not know is a bug in the backend
  // (or a torch it does not match): bad input, reported above.
  return unknown ? kExitBadInput : kExitAnswer;
}

int RunDump(const BackendArgs& a) {
  tb::DumpOptions o;
  o.python = TorchPython(a.torch_python);
  o.modules = a.modules;
  o.python_path = a.python_path;
  tb::DumpResult dump = tb::DumpDispatcher(o);
  tb::RecordSet set{dump.records, dump.diagnostics, tb::Evidence::kRuntime, dump.torch_version, ""};
  tb::WriteRecords(set, Format(a.format), std::cout);
  std::cout.flush();
  PrintDiagnostics(dump.diagnostics);
  for (const auto& d : dump.diagnostics)
    if (d.partial()) return kExitBadInput;
  return kExitAnswer;
}

void AddFormat(CLI::App* cmd, BackendArgs* args) {
  AddFormatOption(cmd, args->format, {"table", "json", "jsonl"});
  cmd->add_option("--torch-python", args->torch_python,
                  "Python whose torch the backend builds against (default: the active "
                  "virtualenv's, else $TESTMAP_PYTHON, else the one testmap was built with)");
}

}  // namespace

void RegisterBackendCommand(CLI::App& app) {
  auto args = std::make_shared<BackendArgs>();
  CLI::App* backend = app.add_subcommand(
      "backend",
      "What a PyTorch backend registers with the dispatcher, per dispatch key: kernels,\n"
      "fallbacks, fallthroughs, operator definitions, DispatchStub entries and hooks.\n"
      "`scan` reads its C++ (Clang) and Python (tree-sitter) sources; `dump` imports it\n"
      "and reads the live dispatcher. Records: docs/backend.md.");
  backend->require_subcommand(1);

  CLI::App* scan = backend->add_subcommand(
      "scan",
      "Read a backend's sources: TORCH_LIBRARY/_FRAGMENT/_IMPL blocks (m.impl, m.def,\n"
      "m.fallback, macros such as KERNEL_PRIVATEUSEONE read from their expansion),\n"
      "REGISTER_*_DISPATCH stubs, hooks, and Python torch.library registrations\n"
      "(register_kernel, Library.impl, custom_op, helpers over aten.<packet> lists).\n"
      "Exit status: 0 complete; 1 a file could not be read (syntax error, missing\n"
      "include) or a registered name is not torch's; 2 usage.");
  scan->add_option("PATH", args->paths, "backend source folders or files")->required();
  scan->add_option("-p,--build-dir", args->build_dir,
                   "build folder with compile_commands.json (default: flags of --torch-python's "
                   "torch, C++ standard and include paths, plus the backend's include folders)");
  scan->add_option("-j,--jobs", args->jobs, "Clang reader threads (default: all cores)")
      ->check(CLI::NonNegativeNumber);
  AddCacheOptions(scan, args->cache);
  AddFormat(scan, args.get());
  scan->callback([args] { RunCommand("backend scan", [&] { return RunScan(*args); }); });

  CLI::App* dump = backend->add_subcommand(
      "dump",
      "Import a backend with a real torch and print what the import registered: per\n"
      "dispatch key the new kernels and fallthroughs (overrides included), new backend\n"
      "fallbacks, new operator definitions. The ground truth for `scan`.\n"
      "Exit status: 0; 1 an import failed (its traceback on stderr); 2 usage.");
  dump->add_option("--import", args->modules, "module to import (repeatable, in order)")
      ->required();
  dump->add_option("--python-path", args->python_path,
                   "folder prepended to sys.path before importing (repeatable)");
  AddFormat(dump, args.get());
  dump->callback([args] { RunCommand("backend dump", [&] { return RunDump(*args); }); });
}

}  // namespace testmap::cli
