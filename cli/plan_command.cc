// `testmap plan`: CI split plans from timing files and the index.
// Parsing, input loading and output only; planning is mapper/planner.h.
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

#include "cli/commands.h"
#include "indexer/index/index_store.h"
#include "indexer/index/index_timings.h"
#include "indexer/timings/read_file_text.h"
#include "indexer/timings/timing_error.h"
#include "indexer/timings/timing_file_reader.h"
#include "indexer/timings/timing_summary.h"
#include "mapper/estimator.h"
#include "mapper/planner.h"
#include "mapper/render.h"
#include "mapper/report.h"
#include "mapper/timing_selection.h"

namespace testmap::cli {
namespace {

struct PlanArgs {
  std::vector<std::string> timing_files;
  std::string index;
  std::string job;
  std::string config;
  std::string tests_file;
  std::string feature_map_file;
  std::string granularity = "test";
  std::string keep_together = "none";
  std::string group_by;
  std::string format = "table";
  std::vector<std::string> report;
  double percentile = 50;
  int split = 0;
  mapper::PlanOptions options;
};

// Lines of `path`, '#' comments and blanks dropped; `line_numbers` gets each
// kept line's number for error messages.
std::vector<std::string> ReadLines(const std::string& path, std::vector<int>& line_numbers) {
  std::istringstream in(indexer::ReadFileText(path));
  std::vector<std::string> lines;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    size_t a = line.find_first_not_of(" \t\r");
    size_t b = line.find_last_not_of(" \t\r");
    if (a == std::string::npos || line[a] == '#') continue;
    lines.push_back(line.substr(a, b - a + 1));
    line_numbers.push_back(n);
  }
  return lines;
}

// --tests FILE: the node ids to plan, e.g. `pytest --collect-only -q` output.
std::vector<std::string> ReadTestList(const std::string& path) {
  std::vector<int> numbers;
  std::vector<std::string> ids = ReadLines(path, numbers);
  std::map<std::string, int> seen;
  std::vector<std::string> out;
  for (size_t i = 0; i < ids.size(); ++i) {
    // pytest -q ends with "N tests collected in ..."; not an id.
    if (ids[i].find(' ') != std::string::npos && ids[i].find("::") == std::string::npos) continue;
    auto [it, fresh] = seen.emplace(ids[i], numbers[i]);
    if (!fresh) {
      throw indexer::TimingError(
          path, numbers[i],
          "test " + ids[i] + " listed twice (first on line " + std::to_string(it->second) + ")");
    }
    out.push_back(ids[i]);
  }
  if (out.empty()) throw indexer::TimingError(path, 0, "no test ids in the --tests file");
  return out;
}

// --feature-map FILE: "prefix feature" (or "prefix=feature") a line.
std::map<std::string, std::string> ReadFeatureMap(const std::string& path) {
  std::vector<int> numbers;
  std::vector<std::string> lines = ReadLines(path, numbers);
  std::map<std::string, std::string> map;
  for (size_t i = 0; i < lines.size(); ++i) {
    size_t sep = lines[i].find_first_of(" \t=");
    size_t value = sep == std::string::npos ? sep : lines[i].find_first_not_of(" \t=", sep);
    if (value == std::string::npos) {
      throw indexer::TimingError(path, numbers[i],
                                 "expected \"path-prefix feature\", got \"" + lines[i] + "\"");
    }
    std::string prefix = lines[i].substr(0, sep);
    if (!map.emplace(prefix, lines[i].substr(value)).second) {
      throw indexer::TimingError(path, numbers[i], "prefix " + prefix + " mapped twice");
    }
  }
  return map;
}

std::vector<indexer::TimingRecord> ReadAll(const std::vector<std::string>& files) {
  std::vector<indexer::TimingRecord> records;
  for (const std::string& file : files) {
    std::vector<indexer::TimingRecord> more = indexer::ReadTimingFile(file);
    records.insert(records.end(), std::make_move_iterator(more.begin()),
                   std::make_move_iterator(more.end()));
  }
  return records;
}

void RunPlan(PlanArgs& args) {
  if (args.timing_files.empty() && args.index.empty()) {
    throw std::invalid_argument(
        "no timing files given (JUnit XML, .test_durations, test-times.json) and no --index");
  }
  mapper::PlanOptions& o = args.options;
  o.granularity = args.granularity == "file"    ? mapper::Granularity::kFile
                  : args.granularity == "class" ? mapper::Granularity::kClass
                                                : mapper::Granularity::kTest;
  o.keep_together = args.keep_together == "file"    ? mapper::KeepTogether::kFile
                    : args.keep_together == "class" ? mapper::KeepTogether::kClass
                                                    : mapper::KeepTogether::kNone;
  o.group_by_feature = args.group_by == "feature";
  if (!args.feature_map_file.empty()) {
    if (!o.group_by_feature) throw std::invalid_argument("--feature-map needs --group-by feature");
    o.feature_map = ReadFeatureMap(args.feature_map_file);
  }

  indexer::SummaryOptions summary;
  summary.percentile = args.percentile;
  std::vector<indexer::TimingRecord> records = ReadAll(args.timing_files);
  if (!args.index.empty()) {
    // The outcomes of every run ingested into the index (docs/index.md).
    auto store = indexer::IndexStore::Open(args.index, indexer::OpenMode::kRead);
    auto more = indexer::ReadIndexTimings(*store);
    records.insert(records.end(), std::make_move_iterator(more.begin()),
                   std::make_move_iterator(more.end()));
  }
  mapper::TimingSelection selection =
      mapper::SelectTimings(indexer::Summarize(records, summary), args.job, args.config);
  std::vector<std::string> wanted;
  if (!args.tests_file.empty()) wanted = ReadTestList(args.tests_file);
  mapper::Plan plan = mapper::MakePlan(mapper::BuildPlanTests(selection, wanted), o);
  plan.notes.insert(plan.notes.begin(), selection.notes.begin(), selection.notes.end());

  if (args.split > static_cast<int>(plan.splits.size())) {
    throw std::invalid_argument("--split " + std::to_string(args.split) + ": the plan has only " +
                                std::to_string(plan.splits.size()) + " splits");
  }
  if (!args.report.empty()) {
    mapper::PlanReport report =
        mapper::ComparePlanWithRun(plan, indexer::Summarize(ReadAll(args.report), summary));
    if (args.format == "json") {
      std::cout << mapper::ReportToJson(report).dump(2) << "\n";
    } else {
      mapper::RenderReportTable(report, std::cout);
    }
    return;
  }
  if (args.format == "json") {
    std::cout << mapper::PlanToJson(plan, args.split).dump(2) << "\n";
  } else if (args.format == "jsonl") {
    mapper::RenderJsonl(plan, args.split, std::cout);
  } else if (args.format == "gha-matrix") {
    mapper::RenderGhaMatrix(plan, std::cout);
  } else if (args.format == "nodeids") {
    mapper::RenderNodeIds(plan, args.split, std::cout);
    // An empty list would make `pytest $(testmap plan ...)` run everything.
    if (args.split && plan.splits[args.split - 1].items.empty()) {
      std::cerr << "testmap plan: warning: split " << args.split << " is empty\n";
    }
  } else if (args.format == "svg") {
    mapper::RenderSvg(plan, std::cout);
  } else {
    mapper::RenderTable(plan, args.split, std::cout);
  }
}

}  // namespace

void RegisterPlanCommand(CLI::App& app) {
  auto args = std::make_shared<PlanArgs>();
  CLI::App* cmd = app.add_subcommand(
      "plan",
      "Split tests into CI jobs that finish together, from real timings.\n\n"
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
  cmd->add_option("--job", args->job,
                  "test-times.json job / build environment (default: \"default\")");
  cmd->add_option("--config", args->config, "test-times.json test config (e.g. default, slow)");
  cmd->add_option("--tests", args->tests_file,
                  "File of node ids to plan, one a line (others' timings only inform estimates)");
  auto* splits = cmd->add_option("--splits", args->options.splits, "Number of splits")
                     ->check(CLI::PositiveNumber);
  auto* minutes = cmd->add_option("--max-minutes", args->options.max_minutes,
                                  "Fewest splits that each finish within M minutes")
                      ->check(CLI::PositiveNumber);
  splits->excludes(minutes);
  cmd->add_option("--margin", args->options.margin, "Safety margin under --max-minutes (fraction)")
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
  cmd->add_option("--feature-map", args->feature_map_file,
                  "File of \"path-prefix feature\" lines (else JUnit <property name=feature>)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--file-overhead", args->options.file_overhead,
                  "Seconds each file costs a split that runs it (start-up, imports)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--procs", args->options.procs, "Parallel processes per split (PyTorch: 2)")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  cmd->add_option(
         "--cut-seconds", args->options.cut_seconds,
         "Cut items longer than this (by test, or equal pieces for file-level timings); 0: never")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--percentile", args->percentile,
                  "Summary of several runs per test (50 = median)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 100.0));
  cmd->add_option("--budget", args->options.step_budget,
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
  cmd->callback([args] {
    try {
      RunPlan(*args);
    } catch (const std::exception& e) {
      std::cerr << "testmap plan: error: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
  });
}

}  // namespace testmap::cli
