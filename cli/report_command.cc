// `testmap report --out DIR`: one self-contained HTML page about the index
// (mapper/report/report.h); this file parses options and prints where the
// page went.
#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/admit_options.h"
#include "cli/commands.h"
#include "cli/run_command.h"
#include "cli/shared_options.h"
#include "mapper/report/report.h"

namespace testmap::cli {

void RegisterReportCommand(CLI::App& app) {
  struct Args {
    std::string index, format;
    report::ReportRequest request;
    AdmitInputs admit;
    torch_snapshot::TorchSnapshot torch;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "report", "Write an HTML page: op x dtype coverage heatmap, admission, split plan, runs");
  cmd->footer(
      "The page (DIR/index.html) is self-contained: no network, no CDN, opens from file://.\n"
      "Heatmap: tests per operator and dtype; click a cell for its tests; filters for\n"
      "evidence (eager, compile, static) and, where traces recorded them, roles.\n"
      "Admission per operator (as `testmap admit`) for the backend named with admit's options\n"
      "(--backend, --supported, --ops...), else for the one backend whose records the index\n"
      "holds (`ingest --backend NAME`).\n\n"
      "Examples:\n"
      "  testmap report --out report/\n"
      "  testmap plan --index .testmap --splits 8 --format json > plan.json\n"
      "  testmap report --out report/ --plan plan.json\n"
      "  testmap plan --index .testmap --splits 8 --report run/*.xml --format json > "
      "measured.json\n"
      "  testmap report --out report/ --plan plan.json --plan-report measured.json");
  cmd->add_option("--out", args->request.out_dir, "Directory for index.html (made if missing)")
      ->required();
  cmd->add_option("--plan", args->request.plan,
                  "A split plan to draw: `testmap plan --format json` output")
      ->check(CLI::ExistingFile);
  cmd->add_option("--plan-report", args->request.plan_report,
                  "What a run of that plan measured: `testmap plan --report ... --format json`")
      ->check(CLI::ExistingFile);
  AddAdmitInputOptions(cmd, args->admit);
  AddFormatOption(cmd, args->format, {"table", "json"});
  AddIndexOption(cmd, args->index);
  cmd->callback([args] {
    RunCommand("report", [&] {
      auto store = indexer::IndexStore::Open(args->index, indexer::OpenMode::kRead);
      indexer::IndexReader index(*store);
      if (!args->admit.empty()) args->request.admission.inputs = args->admit;
      args->request.admission.torch = [&] {
        args->torch = LoadTorch(args->admit.torch);
        return &args->torch;
      };
      report::ReportSummary s = report::WriteReport(index, args->request);
      if (args->format == "json") {
        std::cout << nlohmann::json{{"page", s.page},
                                    {"bytes", s.bytes},
                                    {"operators", s.ops},
                                    {"dtypes", s.dtypes},
                                    {"tests", s.tests},
                                    {"cells", s.cells},
                                    {"entries", s.entries},
                                    {"runs", s.runs},
                                    {"splits", s.splits},
                                    {"admission", s.admission.empty()
                                                      ? nlohmann::json(nullptr)
                                                      : nlohmann::json(s.admission)}}
                         .dump(2)
                  << "\n";
      } else {
        std::cout << "testmap report: " << s.page << " (" << s.bytes / 1024 << " KiB): " << s.ops
                  << " operators x " << s.dtypes << " dtypes, " << s.cells
                  << " non-empty cells over " << s.tests << " tests, " << s.runs << " run(s)";
        if (s.splits) std::cout << ", a plan of " << s.splits << " splits";
        if (!s.admission.empty()) std::cout << ", admission of backend " << s.admission;
        std::cout << "\n";
      }
      return kExitAnswer;
    });
  });
}

}  // namespace testmap::cli
