// `testmap scan`: enumerate the pytest ids of test files statically. The
// rootdir rule is analyzers/python/pytest_rootdir.h; the scan is
// analyzers/python/tree_scanner.h.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "analyzers/python/pytest_rootdir.h"
#include "analyzers/python/scan_output.h"
#include "analyzers/python/tree_scanner.h"
#include "cli/cache_options.h"
#include "cli/commands.h"
#include "cli/run_command.h"
#include "cli/shared_options.h"
#include "core/errors.h"
#include "core/progress.h"

namespace testmap::cli {
namespace {

struct ScanArgs {
  std::vector<std::string> paths;
  std::string rootdir, config_file;
  std::vector<std::string> devices{"cpu"};
  std::string format;
  int jobs = 0;
  std::string torch_python;
  std::string snapshot;
  CacheOptions cache;
  uint64_t max_file_size = python::kDefaultMaxFileBytes;
};

int RunScan(const ScanArgs& a) {
  namespace py = testmap::python;
  // Node ids as `pytest --collect-only -q` prints them from here with the
  // same arguments.
  py::PytestSetup setup = py::DeterminePytestSetup({a.paths, a.rootdir, a.config_file, ""});
  py::TreeScanOptions o;
  o.paths = setup.paths;
  o.rootdir = setup.rootdir;
  o.jobs = a.jobs;
  o.max_file_bytes = a.max_file_size;
  o.collect.devices = py::ParseDeviceSpecs(a.devices);
  o.snapshot_file = a.snapshot;
  std::string python_source = "--torch-python";
  o.torch_python = a.torch_python;
  if (o.snapshot_file.empty() && o.torch_python.empty())
    o.torch_python = torch_snapshot::DefaultTorchPython(&python_source);
  o.cache_dir = a.cache.Dir();
  o.snapshot_dir = a.cache.SnapshotDir();
  py::ScanFormat format = a.format == "json"      ? py::ScanFormat::kJson
                          : a.format == "jsonl"   ? py::ScanFormat::kJsonl
                          : a.format == "nodeids" ? py::ScanFormat::kNodeids
                                                  : py::ScanFormat::kTable;
  o.output = format;
  core::Progress progress("testmap scan:", "files");
  if (progress.enabled())
    o.progress = [&](size_t done, size_t total) {
      progress.SetTotal(total);
      progress.Set(done);
    };

  // Deliberately never freed: releasing a large result at exit costs
  // measurable time for nothing (ninja does the same with its state).
  py::TreeScanResult& r = *new py::TreeScanResult(py::ScanTree(o));
  progress.Finish();
  // A --torch-python the user named must work, needed or not.
  if (!a.torch_python.empty() && !r.snapshot_setup_error.empty())
    throw core::InputError("--torch-python: " + r.snapshot_setup_error);

  std::cout.flush();
  if (!r.output.WriteTo(STDOUT_FILENO)) std::cout.setstate(std::ios::badbit);  // reported on return

  for (const auto& key : setup.unhonoured_keys)
    std::cerr << "testmap scan: warning: " << setup.config_file << " sets " << key
              << ", which the scan does not honour: pytest may collect other files or tests\n";
  for (const auto& w : r.warnings) std::cerr << "testmap scan: warning: " << w << "\n";
  for (const auto& e : r.errors) std::cerr << "testmap scan: error: " << e << "\n";
  size_t skipped = 0;
  for (const auto& f : r.files) {
    skipped += f.skipped;
    for (const auto& d : f.diagnostics)
      std::cerr << f.path << ":" << d.line << ": "
                << (d.severity == py::Diagnostic::Severity::kError ? "error" : "warning") << ": "
                << d.message << "\n";
  }
  if (!r.snapshot_error.empty())
    std::cerr << "testmap scan: torch metadata unavailable from " << o.torch_python << " ("
              << python_source << "): " << r.snapshot_error
              << "; pass --torch-python with a Python that has torch\n";
  if (r.files.empty() && r.errors.empty())
    std::cerr << "testmap scan: no test files (test_*.py, *_test.py) found\n";
  if (skipped)
    std::cerr << "testmap scan: " << skipped
              << " file(s) skipped; their tests are missing from the output\n";
  if (py::IsPartial(r)) {
    std::cerr << "testmap scan: partial answer: tests may be missing (see above)\n";
    return kExitBadInput;
  }
  return format == py::ScanFormat::kNodeids && r.tests == 0 ? kExitNoTests : kExitAnswer;
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
      "source lines and a hash of the normalized source. Node ids are those\n"
      "`pytest --collect-only -q` prints with the same arguments from the same\n"
      "directory: relative to pytest's rootdir (the directory of the first\n"
      "pytest.ini, pyproject.toml, tox.ini or setup.cfg with pytest settings above\n"
      "the paths; -c and --rootdir as in pytest). Without PATH: the config's\n"
      "testpaths, else the current directory.\n"
      "@ops/@modules and dtype helpers expand from a snapshot of the installed torch's\n"
      "test metadata (taken once per torch install, cached).\n"
      "Exit status: 0 every test found; 1 a partial answer (files skipped or missing,\n"
      "tests that could not be enumerated, torch metadata unavailable: all named on\n"
      "stderr) or bad input; 2 usage errors; 4 --format nodeids found no test.");
  cmd->add_option("PATH", args->paths, "test files or directories (default: as pytest)");
  AddFormatOption(cmd, args->format, {"table", "jsonl", "json", "nodeids"});
  cmd->add_option("--device", args->devices,
                  "device types instantiate_device_type_tests creates (default: cpu); "
                  "privateuse1:NAME for a PrivateUse1 backend")
      ->delimiter(',');
  cmd->add_option("--rootdir", args->rootdir, "pytest's --rootdir: node ids are relative to it");
  cmd->add_option("-c,--config-file", args->config_file,
                  "pytest's -c: the config file (its directory is the rootdir)");
  cmd->add_option("-j,--jobs", args->jobs, "threads (default: all cores)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--torch-python", args->torch_python,
                  "Python whose torch provides OpInfo/ModuleInfo metadata (default: the active "
                  "virtualenv's, else $TESTMAP_PYTHON, else the one testmap was built with)");
  cmd->add_option("--snapshot", args->snapshot, "torch metadata snapshot file to use instead");
  AddCacheOptions(cmd, args->cache);
  cmd->add_option("--max-file-size", args->max_file_size,
                  "larger test files are not read (default 8MiB; suffixes k, m, g)")
      ->transform(CLI::AsSizeValue(false));
  cmd->callback([args] { RunCommand("scan", [&] { return RunScan(*args); }); });
}

}  // namespace testmap::cli
