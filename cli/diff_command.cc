// `testmap diff OLD NEW`: the delta between two versions of a test suite
// (mapper/diff/diff.h, docs/diff.md).
#include <CLI/CLI.hpp>
#include <iostream>

#include "analyzers/torch_snapshot/torch_snapshot.h"
#include "cli/commands.h"
#include "cli/run_command.h"
#include "cli/shared_options.h"
#include "mapper/diff/diff.h"

namespace testmap::cli {
namespace {

struct DiffArgs {
  diff::DiffRequest request;
  std::string format;
  std::vector<std::string> devices{"cpu"};
  std::string cache_dir;
  bool no_cache = false;
};

int RunDiffCommand(DiffArgs& a) {
  for (diff::SideOptions* o : {&a.request.old_options, &a.request.new_options}) {
    o->devices = a.devices;
    if (!a.no_cache)
      o->cache_dir = a.cache_dir.empty() ? torch_snapshot::DefaultCacheDir() : a.cache_dir;
  }
  diff::DiffResult r = diff::RunDiff(a.request);
  diff::DiffFormat format = a.format == "json"      ? diff::DiffFormat::kJson
                            : a.format == "jsonl"   ? diff::DiffFormat::kJsonl
                            : a.format == "nodeids" ? diff::DiffFormat::kNodeids
                                                    : diff::DiffFormat::kTable;
  diff::RenderDiff(r, format, std::cout);
  for (const diff::Side* s : {&r.old_side, &r.new_side})
    for (const auto& p : s->problems)
      std::cerr << "testmap diff: " << s->label << ": " << p << "\n";
  if (r.partial()) {
    std::cerr << "testmap diff: partial answer: a side is missing tests (see above); "
                 "their absence reads as added or removed\n";
    return kExitBadInput;
  }
  return format == diff::DiffFormat::kNodeids && r.delta.counts.retrace == 0 ? kExitNoTests
                                                                             : kExitAnswer;
}

}  // namespace

void RegisterDiffCommand(CLI::App& app) {
  auto args = std::make_shared<DiffArgs>();
  CLI::App* cmd = app.add_subcommand(
      "diff",
      "The delta between two versions of a test suite (a PyTorch upgrade, a branch).\n"
      "OLD and NEW are each a `testmap scan --format jsonl` file, an index directory\n"
      "(its scan records), or a test tree (directory or .py file) scanned here with\n"
      "--old-torch-python / --new-torch-python. Reports generic tests added, removed,\n"
      "renamed (body unchanged) and changed, with what changed (body, decorators,\n"
      "setup, params, entry: an OpInfo/ModuleInfo's skips, xfails, decorators or\n"
      "sample inputs, dtypes), and per generic test the ids added, removed and\n"
      "changed. Formatting and comments never count. --format nodeids lists the ids\n"
      "to re-trace: `testmap trace -- pytest $(testmap diff OLD NEW --format nodeids)`.\n"
      "--config CONFIG: stale names, entries to re-evaluate, new tests falling to\n"
      "unlisted_test_mode, and a proposed patch (unified diff) of the YAML.\n"
      "Exit status: 0 the delta; 1 bad input, or a side partial (a scan that skipped\n"
      "files: its missing tests would read as removed); 2 usage errors; 4 --format\n"
      "nodeids with nothing to re-trace.");
  cmd->add_option("OLD", args->request.old_path, "the old side: scan JSONL, index, or tree")
      ->required();
  cmd->add_option("NEW", args->request.new_path, "the new side: scan JSONL, index, or tree")
      ->required();
  AddFormatOption(cmd, args->format, {"table", "json", "jsonl", "nodeids"});
  cmd->add_option("--old-torch-python", args->request.old_options.torch_python,
                  "Python whose torch expands @ops/@modules of an OLD tree");
  cmd->add_option("--new-torch-python", args->request.new_options.torch_python,
                  "Python whose torch expands @ops/@modules of a NEW tree");
  cmd->add_option("--old-snapshot", args->request.old_options.snapshot,
                  "torch metadata snapshot for an OLD tree, instead of a Python");
  cmd->add_option("--new-snapshot", args->request.new_options.snapshot,
                  "torch metadata snapshot for a NEW tree, instead of a Python");
  cmd->add_option("--device", args->devices,
                  "device types trees are instantiated for, as `scan --device` (default cpu)")
      ->delimiter(',');
  cmd->add_option("--config", args->request.config,
                  "a test_suite_config: its stale entries, entries to re-evaluate, new "
                  "unlisted tests, and a proposed patch");
  cmd->add_option("--root-token", args->request.root_token,
                  "what the config's paths start with for the node ids' root")
      ->capture_default_str();
  cmd->add_option("--cache-dir", args->cache_dir, "scan cache (default: ~/.cache/testmap)");
  cmd->add_flag("--no-cache", args->no_cache, "scan trees afresh");
  cmd->callback([args] { RunCommand("diff", [&] { return RunDiffCommand(*args); }); });
}

}  // namespace testmap::cli
