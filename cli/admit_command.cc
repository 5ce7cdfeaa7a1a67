// `testmap admit`: which tests a backend can run, and why the others not;
// `--rank` what to enable next, `--new-op` what enabling operators buys.
// The work is mapper/admit/ (admission.h, rank.h, admit_render.h).
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/admit_options.h"
#include "cli/commands.h"
#include "cli/run_command.h"
#include "cli/shared_options.h"
#include "mapper/admit/admit_render.h"

namespace testmap::cli {
namespace {

struct AdmitArgs {
  AdmitInputs in;
  std::vector<std::string> new_ops;
  std::string state, index, format;
  bool rank = false;
  size_t steps = 10;
};

int RunAdmit(AdmitArgs& a) {
  auto store = indexer::IndexStore::Open(a.index, indexer::OpenMode::kRead);
  auto setup = SetUpAdmission(a.in, "admit", *store);
  indexer::IndexReader index(*store);
  // Never freed: a suite's worth of answers takes a noticeable share of the
  // run to free one by one, and the process ends right after.
  admit::Admission& admission = *new admit::Admission(admit::Admit(index, setup->request));
  admit::AdmitReport report;
  report.admission = &admission;
  if (!a.state.empty()) {
    for (auto s : {admit::State::kAdmitted, admit::State::kBlocked, admit::State::kUnknown})
      if (a.state == admit::StateName(s)) report.only = s;
  }
  if (a.rank) report.ranking = admit::RankOps(admission, a.steps);
  if (!a.new_ops.empty()) {
    report.new_ops = a.new_ops;
    report.would_admit = admit::WouldAdmit(admission, a.new_ops);
  }
  admit::RenderAdmitReport(report, a.format, std::cout);
  if (a.format == "nodeids" && admit::ReportNodeIds(report).empty()) return kExitNoTests;
  return kExitAnswer;
}

}  // namespace

void RegisterAdmitCommand(CLI::App& app) {
  auto args = std::make_shared<AdmitArgs>();
  CLI::App* cmd = app.add_subcommand(
      "admit", "Which tests a backend can run (admitted, blocked with reasons, unknown)");
  cmd->footer(
      "A test is admitted when its dtype parameters pass the dtype rules and every operator\n"
      "it dispatched, in every role, is runnable: a kernel on the backend's key, a backend\n"
      "fallback, or a CompositeImplicitAutograd decomposition (docs/admit.md). Tests without\n"
      "complete evidence (never traced, skipped, crashed) are `unknown`, never admitted.\n\n"
      "--supported takes backend records (`testmap backend scan|dump` output) or a\n"
      "test_suite_config (its global section and per-test dtype edits).\n\n"
      "Examples:\n"
      "  testmap admit --supported openreg.jsonl --backend openreg\n"
      "  testmap admit --backend openreg             (records ingested under that name)\n"
      "  testmap admit --ops add,mul,sub,view --dtypes float32,bfloat16 --state blocked\n"
      "  testmap admit --supported spyre.yaml --rank\n"
      "  pytest $(testmap admit --supported openreg.jsonl --new-op aten::abs --format nodeids)");
  AddAdmitInputOptions(cmd, args->in);
  cmd->add_option("--state", args->state, "List only tests in this state")
      ->check(CLI::IsMember({"admitted", "blocked", "unknown"}));
  cmd->add_flag("--rank", args->rank,
                "Operators to enable next, by tests each admits, and a greedy sequence");
  cmd->add_option("--steps", args->steps, "Length of the --rank sequence")->capture_default_str();
  cmd->add_option("--new-op", args->new_ops,
                  "Exactly the tests enabling these operators would admit")
      ->delimiter(',');
  AddFormatOption(cmd, args->format, {"table", "json", "jsonl", "nodeids", "yaml"});
  AddIndexOption(cmd, args->index);
  cmd->callback([args] { RunCommand("admit", [&] { return RunAdmit(*args); }); });
}

}  // namespace testmap::cli
