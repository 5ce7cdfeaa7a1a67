// `testmap plan`: CI split plans from timing files and the index. The work
// is mapper/plan/plan_request.h; timings from the index come through its
// read API (indexer/index_timings.h), so the planner never links RocksDB.
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/commands.h"
#include "cli/run_command.h"
#include "core/errors.h"
#include "indexer/index_store.h"
#include "indexer/index_timings.h"
#include "mapper/plan/plan_request.h"
#include "mapper/plan/render.h"
#include "timings/timing_file_reader.h"

namespace testmap::cli {
namespace {

struct PlanArgs {
  std::vector<std::string> timing_files;
  std::string index;
  std::string granularity = "test";
  std::string keep_together = "none";
  std::string group_by;
  std::string format = "table";
  std::vector<std::string> report;
  int split = 0;
  plan::PlanRequest request;
};

std::vector<timings::TimingRecord> ReadAll(const std::vector<std::string>& files) {
  std::vector<timings::TimingRecord> records;
  for (const std::string& file : files) {
    std::vector<timings::TimingRecord> more = timings::ReadTimingFile(file);
    records.insert(records.end(), std::make_move_iterator(more.begin()),
                   std::make_move_iterator(more.end()));
  }
  return records;
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
  std::vector<timings::TimingRecord> records = ReadAll(args.timing_files);
  if (!args.index.empty()) {
    // The outcomes of every run ingested into the index (docs/index.md).
    auto store = indexer::IndexStore::Open(args.index, indexer::OpenMode::kRead);
    auto more = indexer::ReadIndexTimings(*store);
    records.insert(records.end(), std::make_move_iterator(more.begin()),
                   std::make_move_iterator(more.end()));
  }
  plan::Plan p = plan::PlanFromRecords(records, args.request);
  if (args.split > static_cast<int>(p.splits.size())) {
    throw core::UsageError("--split " + std::to_string(args.split) + ": the plan has only " +
                           std::to_string(p.splits.size()) + " splits");
  }
  if (!args.report.empty()) {
    plan::PlanReport report = plan::ReportPlan(p, ReadAll(args.report), args.request.percentile);
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
  auto* splits = cmd->add_option("--splits", args->request.options.splits, "Number of splits")
                     ->check(CLI::PositiveNumber);
  auto* minutes = cmd->add_option("--max-minutes", args->request.options.max_minutes,
                                  "Fewest splits that each finish within M minutes")
                      ->check(CLI::PositiveNumber);
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
  cmd->add_option("--file-overhead", args->request.options.file_overhead,
                  "Seconds each file costs a split that runs it (start-up, imports)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--procs", args->request.options.procs,
                  "Parallel processes per split (PyTorch: 2)")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  cmd->add_option(
         "--cut-seconds", args->request.options.cut_seconds,
         "Cut items longer than this (by test, or equal pieces for file-level timings); 0: never")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--percentile", args->request.percentile,
                  "Summary of several runs per test (50 = median)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 100.0));
  cmd->add_option("--budget", args->request.options.step_budget,
                  "Improvement steps after LPT (deterministic, unlike a time limit)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--format", args->format, "Output format")
      ->capture_default_str()
      ->check(CLI::IsMember({"table", "json", "jsonl", "gha-matrix", "nodeids", "svg"}));
  cmd->add_option("--split", args->split, "Only split K (1-based)")->check(CLI::PositiveNumber);
  cmd->add_option("--report", args->report,
                  "JUnit XML of a run made with this plan: planned vs measured")
      ->check(CLI::ExistingFile);
  cmd->callback([args] { RunCommand("plan", [&] { return RunPlan(*args); }); });
}

}  // namespace testmap::cli
