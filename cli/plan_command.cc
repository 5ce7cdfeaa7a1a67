// `testmap plan`: CI split plans from timing files and the index. The work
// is mapper/plan/plan_request.h; timings from the index come through its
// read API (indexer/index_timings.h), so the planner never links RocksDB.
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/commands.h"
#include "cli/run_command.h"
#include "core/errors.h"
#include "core/read_file.h"
#include "indexer/index_reader.h"
#include "indexer/index_store.h"
#include "indexer/index_timings.h"
#include "indexer/scan_input.h"
#include "mapper/plan/plan_request.h"
#include "mapper/plan/render.h"
#include "timings/timing_record.h"

namespace testmap::cli {
namespace {

struct PlanArgs {
  std::vector<std::string> timing_files;
  std::string index;
  std::string granularity = "test";
  std::string keep_together = "none";
  std::string group_by;
  std::string format = "table";
  std::string pieces;  // "yes", "no", or "" = by format
  std::vector<std::string> report;
  std::vector<std::string> collected;
  int split = 0;
  bool overhead_given = false;
  plan::PlanRequest request;
};

// --collected FILE: `testmap scan` JSONL, or node ids a line
// (`testmap scan --format nodeids`, `pytest --collect-only -q`).
void ReadCollected(const std::string& path, std::vector<std::string>& ids) {
  std::string text = core::ReadInputFile(path);
  if (indexer::LooksLikeScan(text)) {
    for (const auto& t : indexer::ParseScan(text, path)) ids.push_back(t.nodeid);
    return;
  }
  for (const std::string& id : plan::ReadTestList(path)) ids.push_back(id);
}

int RunPlan(PlanArgs& args) {
  if (args.timing_files.empty() && args.index.empty()) {
    throw core::UsageError(
        "no timing files given (JUnit XML, .test_durations, test-times.json) and no --index");
  }
  plan::PlanOptions& o = args.request.options;
  o.granularity = args.granularity == "file"    ? plan::Granularity::kFile
                  : args.granularity == "class" ? plan::Granularity::kClass
                                                : plan::Granularity::kTest;
  o.keep_together = args.keep_together == "file"    ? plan::KeepTogether::kFile
                    : args.keep_together == "class" ? plan::KeepTogether::kClass
                                                    : plan::KeepTogether::kNone;
  o.group_by_feature = args.group_by == "feature";
  // pytest cannot run a piece of a file (`test_nn#2/3`): a list of node ids
  // gets real test ids or whole files; runners that shard files may take
  // pieces.
  const bool nodeids = args.format == "nodeids";
  if (args.pieces == "yes" && nodeids) {
    throw core::UsageError(
        "--pieces yes: --format nodeids lists only what pytest runs, and pytest cannot run a "
        "piece of a file (test_nn#2/3); use --format json or jsonl for a runner that shards");
  }
  o.equal_pieces = args.pieces.empty() ? !nodeids : args.pieces == "yes";
  args.request.learn_fixed_costs = !args.overhead_given;
  for (const std::string& path : args.collected) ReadCollected(path, args.request.known_ids);
  timings::TimingInput input = timings::ReadTimingFiles(args.timing_files);
  if (!args.index.empty()) {
    // The outcomes of every run ingested into the index (docs/index.md),
    // and the tests it knows: what each file collects (when fixed costs are
    // learned), and what a file timed only as a whole is cut into.
    auto store = indexer::IndexStore::Open(args.index, indexer::OpenMode::kRead);
    indexer::AppendIndexTimings(*store, input);
    if (args.request.learn_fixed_costs || !o.equal_pieces) {
      indexer::IndexReader(*store).ForEachTest([&](const std::string& nodeid, const std::string&) {
        args.request.known_ids.push_back(nodeid);
      });
    }
  }
  plan::Plan p = plan::PlanFromRecords(std::move(input), args.request);
  if (args.split > static_cast<int>(p.splits.size())) {
    throw core::UsageError("--split " + std::to_string(args.split) + ": the plan has only " +
                           std::to_string(p.splits.size()) + " splits");
  }
  if (!args.report.empty()) {
    plan::PlanReport report =
        plan::ReportPlan(p, timings::ReadTimingFiles(args.report), args.request.percentile);
    if (args.format == "json") {
      std::cout << plan::ReportToJson(report).dump(2) << "\n";
    } else {
      plan::RenderReportTable(report, std::cout);
    }
    return kExitAnswer;
  }
  if (args.format == "json") {
    std::cout << plan::PlanToJson(p, args.split).dump(2) << "\n";
  } else if (args.format == "jsonl") {
    plan::RenderJsonl(p, args.split, std::cout);
  } else if (args.format == "gha-matrix") {
    plan::RenderGhaMatrix(p, std::cout);
  } else if (args.format == "nodeids") {
    // stdout is pytest's argument list; what the plan has to say goes to
    // stderr (files kept whole, fallbacks, empty splits).
    for (const std::string& note : p.notes) std::cerr << "testmap plan: note: " << note << "\n";
    plan::RenderNodeIds(p, args.split, std::cout);
    // An empty list would make `pytest $(testmap plan ...)` run everything.
    if (args.split && p.splits[args.split - 1].items.empty()) {
      std::cerr << "testmap plan: split " << args.split << " is empty\n";
      return kExitNoTests;
    }
  } else if (args.format == "svg") {
    plan::RenderSvg(p, std::cout);
  } else {
    plan::RenderTable(p, args.split, std::cout);
  }
  return kExitAnswer;
}

}  // namespace

void RegisterPlanCommand(CLI::App& app) {
  auto args = std::make_shared<PlanArgs>();
  CLI::App* cmd = app.add_subcommand(
      "plan", "Split tests into CI jobs that finish together, from real timings");
  cmd->footer(
      "Reads JUnit XML (pytest --junitxml, either junit family), pytest-split's .test_durations,\n"
      "PyTorch's test-times.json (file or class level) and testmap trace shards; several runs\n"
      "of a test are summarized by their median. Tests without timings are estimated (other\n"
      "configs, sibling params, class, file, suite) and the plan says how much is estimated.\n\n"
      "Examples:\n"
      "  testmap plan junit/*.xml --splits 8\n"
      "  testmap plan test-times.json --job linux-jammy-py3.10-gcc11 --config default \\\n"
      "      --granularity file --max-minutes 30 --procs 2\n"
      "  pytest $(testmap plan .test_durations --splits 4 --format nodeids --split 2)\n"
      "  testmap plan test-times.json --splits 8 --collected ids.txt --format nodeids --split 1\n"
      "  testmap plan junit/*.xml --splits 8 --report new-run/*.xml   # planned vs measured");
  cmd->add_option("timing_files", args->timing_files,
                  "JUnit XML, .test_durations or test-times.json files")
      ->check(CLI::ExistingFile);
  cmd->add_option("--index", args->index,
                  "Read timings from a testmap index (the outcomes of every ingested trace run)");
  cmd->add_option("--job", args->request.job,
                  "test-times.json job / build environment (default: \"default\")");
  cmd->add_option("--config", args->request.config,
                  "test-times.json test config (e.g. default, slow)");
  cmd->add_option("--tests", args->request.tests_file,
                  "File of node ids to plan, one a line (others' timings only inform estimates)");
  auto* splits = cmd->add_option("--splits", args->request.options.splits,
                                 "Number of splits (1 to " + std::to_string(plan::kMaxSplits) + ")")
                     ->check(CLI::Range(1, plan::kMaxSplits));
  auto* minutes = cmd->add_option("--max-minutes", args->request.options.max_minutes,
                                  "Fewest splits that each finish within M minutes")
                      ->check(CLI::Range(0.01, 7 * 24 * 60.0));
  splits->excludes(minutes);
  cmd->add_option("--margin", args->request.options.margin,
                  "Safety margin under --max-minutes (fraction)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 0.9));
  cmd->add_option("--granularity", args->granularity, "Unit placed and listed")
      ->capture_default_str()
      ->check(CLI::IsMember({"test", "class", "file"}));
  cmd->add_option("--keep-together", args->keep_together,
                  "Never spread a file or class over splits")
      ->capture_default_str()
      ->check(CLI::IsMember({"none", "file", "class"}));
  cmd->add_option("--group-by", args->group_by, "Plan each feature group within itself")
      ->check(CLI::IsMember({"feature"}));
  cmd->add_option("--feature-map", args->request.feature_map_file,
                  "File of \"path-prefix feature\" lines (else JUnit <property name=feature>)")
      ->check(CLI::ExistingFile);
  auto* file_overhead =
      cmd->add_option("--file-overhead", args->request.options.file_overhead,
                      "Seconds each file costs a process that runs it (collection, imports); "
                      "default: learned from JUnit suites and trace runs")
          ->check(CLI::Range(0.0, 86400.0));
  auto* process_overhead =
      cmd->add_option("--process-overhead", args->request.options.process_overhead,
                      "Seconds each process pays once (start-up, torch import); default: learned")
          ->check(CLI::Range(0.0, 86400.0));
  cmd->add_option("--startup", args->request.startup_seconds,
                  "Seconds each process spends outside its pytest session (interpreter, plugins, "
                  "exit); default: learned from the gaps between sessions run one after another")
      ->check(CLI::Range(0.0, 86400.0));
  cmd->add_option("--procs", args->request.options.procs,
                  "Parallel processes per split (PyTorch: 2)")
      ->capture_default_str()
      ->check(CLI::Range(1, plan::kMaxProcs));
  cmd->add_option("--pieces", args->pieces,
                  "Cut files timed only as a whole into equal pieces (test_nn#2/3, for "
                  "run_test.py); default: yes, except with --format nodeids")
      ->check(CLI::IsMember({"yes", "no"}));
  cmd->add_option("--collected", args->collected,
                  "Node ids that exist (testmap scan output, pytest --collect-only -q): what "
                  "pytest collects of each file a split runs, and what long files timed only as "
                  "a whole are cut into")
      ->check(CLI::ExistingFile);
  cmd->add_option(
         "--cut-seconds", args->request.options.cut_seconds,
         "Cut items longer than this (by test, or equal pieces for file-level timings); 0: never")
      ->capture_default_str()
      ->check(CLI::Range(0.0, timings::kMaxDurationSeconds));
  cmd->add_option("--percentile", args->request.percentile,
                  "Summary of several runs per test (50 = median)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 100.0));
  cmd->add_option("--budget", args->request.options.step_budget,
                  "Improvement steps after LPT (deterministic, unlike a time limit)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{0}, int64_t{1'000'000'000'000}));
  cmd->add_option("--format", args->format, "Output format")
      ->capture_default_str()
      ->check(CLI::IsMember({"table", "json", "jsonl", "gha-matrix", "nodeids", "svg"}));
  cmd->add_option("--split", args->split, "Only split K (1-based)")
      ->check(CLI::Range(1, plan::kMaxSplits));
  cmd->add_option("--report", args->report,
                  "JUnit XML of a run made with this plan: planned vs measured")
      ->check(CLI::ExistingFile);
  cmd->callback([args, file_overhead, process_overhead] {
    args->overhead_given = file_overhead->count() > 0 || process_overhead->count() > 0;
    RunCommand("plan", [&] { return RunPlan(*args); });
  });
}

}  // namespace testmap::cli
