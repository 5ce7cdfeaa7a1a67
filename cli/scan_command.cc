// `testmap scan`: enumerate the pytest ids of test files statically.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "analyzers/python/scan_output.h"
#include "analyzers/python/tree_scanner.h"
#include "cli/commands.h"

namespace testmap::cli {
namespace {

struct ScanArgs {
  std::vector<std::string> paths;
  std::string rootdir;
  std::vector<std::string> devices{"cpu"};
  std::string format = "table";
  int jobs = 0;
  std::string torch_python;
  std::string snapshot;
  std::string cache_dir;
  bool no_cache = false;
};

int RunScan(const ScanArgs& a) {
  namespace py = testmap::python;
  py::TreeScanOptions o;
  o.paths = a.paths;
  o.jobs = a.jobs;
  // Node ids are relative to the directory given, as pytest prints them
  // when run from there; several paths or a file: the current directory.
  std::error_code ec;
  if (!a.rootdir.empty())
    o.rootdir = a.rootdir;
  else if (a.paths.size() == 1 && std::filesystem::is_directory(a.paths[0], ec))
    o.rootdir = a.paths[0];
  else
    o.rootdir = ".";
  o.collect.devices.clear();
  for (const auto& d : a.devices) {
    // `privateuse1:openreg` instantiates PRIVATEUSE1 classes named openreg.
    size_t colon = d.find(':');
    if (colon != std::string::npos)
      o.collect.devices.push_back({d.substr(0, colon), d.substr(colon + 1)});
    else
      o.collect.devices.push_back({d, d});
  }
  o.snapshot_file = a.snapshot;
  o.torch_python = a.torch_python;
  if (o.torch_python.empty() && o.snapshot_file.empty()) {
    const char* env = std::getenv("TESTMAP_PYTHON");
    o.torch_python = env && *env ? env : "python3";
  }
  if (!a.no_cache)
    o.cache_dir = a.cache_dir.empty() ? torch_snapshot::DefaultCacheDir() : a.cache_dir;
  bool tty = isatty(STDERR_FILENO);
  if (tty)
    o.progress = [](size_t done, size_t total) {
      if (done == total || done % 64 == 0)
        std::fprintf(stderr, "\rscanning %zu/%zu files", done, total);
      if (done == total) std::fprintf(stderr, "\r\033[K");
    };

  // Deliberately never freed: releasing a large result at exit costs
  // measurable time for nothing (ninja does the same with its state).
  py::TreeScanResult& r = *new py::TreeScanResult(py::ScanTree(o));

  py::ScanFormat format = a.format == "json"      ? py::ScanFormat::kJson
                          : a.format == "jsonl"   ? py::ScanFormat::kJsonl
                          : a.format == "nodeids" ? py::ScanFormat::kNodeids
                                                  : py::ScanFormat::kTable;
  py::WriteScan(r, format, std::cout);
  std::cout.flush();

  for (const auto& w : r.warnings) std::cerr << "testmap scan: warning: " << w << "\n";
  size_t skipped = 0;
  for (const auto& f : r.files) {
    skipped += f.skipped;
    for (const auto& d : f.diagnostics)
      std::cerr << f.path << ":" << d.line << ": "
                << (d.severity == py::Diagnostic::Severity::kError ? "error" : "warning") << ": "
                << d.message << "\n";
  }
  if (!r.snapshot_error.empty())
    std::cerr << "testmap scan: torch metadata unavailable: " << r.snapshot_error << "\n";
  if (r.files.empty() && r.warnings.empty())
    std::cerr << "testmap scan: no test files (test_*.py, *_test.py) found\n";
  if (skipped) {
    std::cerr << "testmap scan: " << skipped
              << " file(s) skipped; their tests are missing from the output\n";
    return 1;
  }
  return 0;
}

}  // namespace

void RegisterScanCommand(CLI::App& app) {
  auto args = std::make_shared<ScanArgs>();
  CLI::App* cmd = app.add_subcommand(
      "scan",
      "Enumerate the pytest ids of PyTorch-style test files without importing them.\n"
      "Reads test_*.py / *_test.py under each PATH with tree-sitter and prints one\n"
      "record per test pytest would collect: node id, generic test, parameters\n"
      "(device, dtypes, OpInfo/ModuleInfo, @parametrize values), decorators, skips,\n"
      "source lines and a hash of the normalized source.\n"
      "@ops/@modules and dtype helpers expand from a snapshot of the installed torch's\n"
      "test metadata (taken once per torch install, cached).\n"
      "Exit status: 0 all files scanned, 1 some files skipped (syntax errors, bad\n"
      "encoding; reported on stderr), 2 usage errors.");
  cmd->add_option("PATH", args->paths, "test files or directories")->required();
  cmd->add_option("--format", args->format, "table (default), jsonl, json, or nodeids")
      ->check(CLI::IsMember({"table", "jsonl", "json", "nodeids"}));
  cmd->add_option("--device", args->devices,
                  "device types instantiate_device_type_tests creates (default: cpu); "
                  "privateuse1:NAME for a PrivateUse1 backend")
      ->delimiter(',');
  cmd->add_option("--rootdir", args->rootdir,
                  "directory node ids are relative to (default: PATH when it is one directory)");
  cmd->add_option("-j,--jobs", args->jobs, "threads (default: all cores)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--torch-python", args->torch_python,
                  "Python whose torch provides OpInfo/ModuleInfo metadata (default: "
                  "$TESTMAP_PYTHON or python3)");
  cmd->add_option("--snapshot", args->snapshot, "torch metadata snapshot file to use instead")
      ->check(CLI::ExistingFile);
  cmd->add_option("--cache-dir", args->cache_dir, "cache directory (default: ~/.cache/testmap)");
  cmd->add_flag("--no-cache", args->no_cache, "scan every file afresh");
  cmd->callback([args] {
    int rc = RunScan(*args);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace testmap::cli
