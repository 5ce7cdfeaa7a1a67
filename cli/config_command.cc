// `testmap config check|explain|generate`: backend test configs in the
// test_suite_config schema (docs/config.md). The work is mapper/config/.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/admit_options.h"
#include "cli/commands.h"
#include "cli/run_command.h"
#include "cli/shared_options.h"
#include "core/errors.h"
#include "core/read_file.h"
#include "mapper/config/base_edit.h"
#include "mapper/config/config_check.h"
#include "mapper/config/config_explain.h"
#include "mapper/config/config_generate.h"
#include "mapper/config/config_reader.h"

namespace testmap::cli {
namespace {

namespace fs = std::filesystem;

struct ConfigArgs {
  std::string config, index, format, root_token = "${TORCH_ROOT}", test, device;
  bool strict = false, no_index = false;
  TorchOptions torch;
  // generate
  AdmitInputs in;
  std::string base, output, unrun_mode = "xfail";
};

int RunCheck(ConfigArgs& a, bool index_given) {
  config::CheckRequest request;
  request.read.strict = a.strict;
  request.root_token = a.root_token;
  std::unique_ptr<indexer::IndexStore> store;
  // Index checks when there is an index to check against; a missing index
  // is an error only when named explicitly.
  if (!a.no_index && (index_given || fs::exists(a.index + "/CURRENT"))) {
    store = indexer::IndexStore::Open(a.index, indexer::OpenMode::kRead);
    request.index = store.get();
  }
  torch_snapshot::TorchSnapshot torch = LoadTorch(a.torch);
  request.torch = &torch;
  config::CheckResult result = config::CheckConfig(a.config, request);
  config::RenderCheck(result, a.format, std::cout);
  return result.HasErrors() ? kExitBadInput : kExitAnswer;
}

int RunExplain(ConfigArgs& a) {
  std::vector<config::Diagnostic> warnings;
  config::Config cfg = config::LoadConfig(a.config, &warnings);
  for (const auto& w : warnings) std::cerr << "testmap config explain: " << w.ToString() << "\n";
  auto store = indexer::IndexStore::Open(a.index, indexer::OpenMode::kRead);
  config::ExplainRequest request{a.root_token, a.test, a.device};
  config::Explanation e = config::Explain(*store, cfg, request);
  config::RenderExplanation(e, a.format, std::cout);
  return kExitAnswer;
}

// Writes `text` to `path` in one step (a temporary file renamed over it),
// so that a failed run leaves nothing half-written.
void WriteWhole(const std::string& path, const std::string& text) {
  std::string tmp = path + ".tmp-" + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out.flush()) {
      fs::remove(tmp);
      throw core::InputError(path, 0, "cannot write");
    }
  }
  fs::rename(tmp, path);
}

int RunGenerate(ConfigArgs& a) {
  auto mode = config::ParseMode(a.unrun_mode);
  if (!mode) throw core::UsageError("--unrun-mode must be a mode, not `" + a.unrun_mode + "`");
  auto store = indexer::IndexStore::Open(a.index, indexer::OpenMode::kRead);
  auto setup = SetUpAdmission(a.in, "config generate", *store);
  std::optional<config::Config> base;
  std::string base_text;
  if (!a.base.empty()) {
    base_text = core::ReadInputFile(a.base);
    base = config::ConfigOrThrow(config::ParseConfig(base_text, a.base));
  }
  indexer::IndexReader index(*store);
  admit::Admission admission = admit::Admit(index, setup->request);
  config::GenerateRequest request;
  request.root_token = a.in.root_token;
  request.unrun_mode = *mode;
  request.supported = setup->request.config;
  config::GeneratedConfig generated = config::PlanConfig(admission, request);
  std::string text;
  if (base) {
    config::BaseEdit edit =
        config::EditBase(base_text, *base, generated, admission, a.in.root_token);
    for (const auto& c : edit.changes) std::cerr << "testmap config generate: " << c << "\n";
    if (edit.changes.empty())
      std::cerr << "testmap config generate: the evidence agrees with " << a.base << "\n";
    text = std::move(edit.text);
  } else {
    text = config::EmitConfig(generated);
  }
  if (!generated.inexact.empty())
    std::cerr << "testmap config generate: " << generated.inexact.size()
              << " blocked or unknown tests run under an xfail entry: their variants differ only "
                 "by parameters a config cannot select\n";
  if (a.output.empty())
    std::cout << text;
  else
    WriteWhole(a.output, text);
  return kExitAnswer;
}

}  // namespace

void RegisterConfigCommand(CLI::App& app) {
  auto args = std::make_shared<ConfigArgs>();
  CLI::App* config = app.add_subcommand(
      "config", "Backend test configs in the test_suite_config schema: check, explain, generate");
  config->require_subcommand(1);
  config->footer(
      "Configs are the YAML that PrivateUse1 backends' test frameworks read (torch-spyre's\n"
      "test_suite_config): per file, unlisted_test_mode and test entries with a mode\n"
      "(mandatory_success, xfail, xfail_strict, skip) and edits; global supported_ops,\n"
      "supported_dtypes. Names are generic `Class::method`, matched on the method.\n"
      "docs/config.md");

  CLI::App* check = config->add_subcommand(
      "check",
      "Validate a config: schema errors with file:line:column, and against the index "
      "and torch: names matching no test, duplicates, unknown OpInfos");
  check->add_option("CONFIG", args->config, "the config (YAML)")->required();
  check->add_flag("--strict", args->strict, "unknown keys are errors, not warnings");
  check->add_flag("--no-index", args->no_index, "schema and torch checks only");
  auto* check_index = AddIndexOption(check, args->index);
  check
      ->add_option("--root-token", args->root_token,
                   "What the config's paths start with for the node ids' root")
      ->capture_default_str();
  AddTorchOptions(check, args->torch);
  AddFormatOption(check, args->format, {"table", "json"});
  check->callback([args, check_index] {
    RunCommand("config check", [&] { return RunCheck(*args, check_index->count() > 0); });
  });

  CLI::App* explain = config->add_subcommand(
      "explain", "The mode a config gives each test of the index, and the entry that decided it");
  explain->add_option("CONFIG", args->config, "the config (YAML)")->required();
  explain->add_option("--test", args->test, "Only this node id or generic id");
  explain->add_option("--device", args->device, "Only tests instantiated for this device");
  explain
      ->add_option("--root-token", args->root_token,
                   "What the config's paths start with for the node ids' root")
      ->capture_default_str();
  AddIndexOption(explain, args->index);
  AddFormatOption(explain, args->format, {"table", "json", "jsonl"});
  explain->callback([args] { RunCommand("config explain", [&] { return RunExplain(*args); }); });

  CLI::App* generate = config->add_subcommand(
      "generate", "A config from admission and outcomes, a comment with the reason per entry");
  AddAdmitInputOptions(generate, args->in);
  generate->add_option("--base", args->base,
                       "An existing config: kept where the evidence agrees, edited where not "
                       "(changes on stderr)");
  generate
      ->add_option("--unrun-mode", args->unrun_mode,
                   "Mode of admitted tests never run on the backend")
      ->capture_default_str()
      ->check(CLI::IsMember({"mandatory_success", "xfail", "xfail_strict", "skip"}));
  generate->add_option("-o,--output", args->output, "Write the config here (default: stdout)");
  AddIndexOption(generate, args->index);
  generate->callback([args] { RunCommand("config generate", [&] { return RunGenerate(*args); }); });
}

}  // namespace testmap::cli
