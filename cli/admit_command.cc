// `testmap admit`: which tests a backend can run, and why the others not;
// `--rank` what to enable next, `--new-op` what enabling operators buys.
// The work is mapper/admit/ (admission.h, rank.h, admit_render.h).
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/commands.h"
#include "cli/run_command.h"
#include "cli/shared_options.h"
#include "cli/torch_options.h"
#include "core/errors.h"
#include "mapper/admit/admit_render.h"
#include "mapper/admit/supported_input.h"

namespace testmap::cli {
namespace {

struct AdmitArgs {
  std::string supported, backend, device, dispatch_key = "PrivateUse1";
  std::vector<std::string> ops, dtypes, new_ops;
  std::string state, index, format, root_token = "${TORCH_ROOT}";
  bool rank = false;
  size_t steps = 10;
  TorchOptions torch;
};

// `privateuse1:openreg` or `openreg` -> `openreg`.
std::string DeviceName(const std::string& device) {
  if (device.empty()) return "";
  size_t colon = device.find(':');
  if (colon == std::string::npos) return device;
  if (device.substr(0, colon) != "privateuse1")
    throw core::UsageError(
        "--device takes privateuse1:NAME (a PrivateUse1 backend's device), not `" + device + "`");
  return device.substr(colon + 1);
}

int RunAdmit(AdmitArgs& a) {
  if (a.supported.empty() && a.ops.empty())
    throw core::UsageError("say what the backend supports: --supported FILE and/or --ops LIST");
  admit::AdmitRequest request;
  admit::Supported supported;
  if (!a.supported.empty()) {
    supported = admit::ReadSupported(a.supported, a.dispatch_key);
    for (const auto& w : supported.warnings) std::cerr << "testmap admit: " << w.ToString() << "\n";
    request.caps = supported.caps;
  } else {
    request.caps.dispatch_key = a.dispatch_key;
    request.caps.origin = "--ops";
  }
  admit::AddListedOps(request.caps, a.ops);
  if (!a.dtypes.empty()) admit::AddListedDtypes(request.caps, a.dtypes);
  request.device = DeviceName(a.device);
  request.caps.backend = !a.backend.empty() ? a.backend : request.device;
  if (supported.config) request.config = &*supported.config;
  request.root_token = a.root_token;
  torch_snapshot::TorchSnapshot torch = LoadTorch(a.torch);
  request.torch = &torch;

  auto store = indexer::IndexStore::Open(a.index, indexer::OpenMode::kRead);
  indexer::IndexReader index(*store);
  admit::Admission admission = admit::Admit(index, request);
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
      "  testmap admit --ops add,mul,sub,view --dtypes float32,bfloat16 --state blocked\n"
      "  testmap admit --supported spyre.yaml --rank\n"
      "  pytest $(testmap admit --supported openreg.jsonl --new-op aten::abs --format nodeids)");
  cmd->add_option("--supported", args->supported,
                  "Backend records (JSONL/JSON) or a test_suite_config (YAML)");
  cmd->add_option("--ops", args->ops,
                  "Operators the backend supports (any spelling; packets "
                  "mean all overloads)")
      ->delimiter(',');
  cmd->add_option("--dtypes", args->dtypes, "Dtypes the backend supports (the ceiling)")
      ->delimiter(',');
  cmd->add_option("--backend", args->backend, "The backend's name (default: the device name)");
  cmd->add_option("--device", args->device,
                  "privateuse1:NAME: answer for the backend's own scanned ids, joined to the "
                  "traced ones by generic test and params");
  cmd->add_option("--dispatch-key", args->dispatch_key, "The backend's dispatch key")
      ->capture_default_str();
  cmd->add_option("--state", args->state, "List only tests in this state")
      ->check(CLI::IsMember({"admitted", "blocked", "unknown"}));
  cmd->add_flag("--rank", args->rank,
                "Operators to enable next, by tests each admits, and a greedy sequence");
  cmd->add_option("--steps", args->steps, "Length of the --rank sequence")->capture_default_str();
  cmd->add_option("--new-op", args->new_ops,
                  "Exactly the tests enabling these operators would admit")
      ->delimiter(',');
  cmd->add_option("--root-token", args->root_token,
                  "What a config's paths start with for the node ids' root")
      ->capture_default_str();
  AddFormatOption(cmd, args->format, {"table", "json", "jsonl", "nodeids", "yaml"});
  AddIndexOption(cmd, args->index);
  AddTorchOptions(cmd, args->torch);
  cmd->callback([args] { RunCommand("admit", [&] { return RunAdmit(*args); }); });
}

}  // namespace testmap::cli
