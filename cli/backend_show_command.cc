// `testmap backend show NAME`: the capabilities `testmap ingest --backend
// NAME` stored (indexer/index_backends.h), rendered as `testmap backend
// scan` renders records (analyzers/backend/registration_output.h): the
// table by dispatch key, a `testmap-backend/1` document, or JSON Lines that
// `admit --supported` reads again.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>

#include "analyzers/backend/registration_output.h"
#include "cli/commands.h"
#include "cli/run_command.h"
#include "cli/shared_options.h"
#include "core/errors.h"
#include "indexer/index_backends.h"

namespace testmap::cli {
namespace {

struct ShowArgs {
  std::string name, index, format;
};

int RunShow(const ShowArgs& a) {
  auto store = indexer::IndexStore::Open(a.index, indexer::OpenMode::kRead);
  auto stored = indexer::ReadBackend(*store, a.name);
  if (!stored)
    throw core::UnknownNameError("backend", a.name, indexer::BackendNames(*store),
                                 "the index has no backend `" + a.name + "`");
  backend::RecordSet set;
  set.records = stored->records;
  bool runtime = !set.records.empty() &&
                 std::all_of(set.records.begin(), set.records.end(), [](const auto& r) {
                   return r.evidence == backend::Evidence::kRuntime;
                 });
  set.evidence = runtime ? backend::Evidence::kRuntime : backend::Evidence::kStatic;
  if (a.format == "table") {
    std::cout << "backend " << stored->name << ", from";
    for (const auto& s : stored->sources) std::cout << " " << s;
    std::cout << "\n";
  }
  backend::WriteRecords(set,
                        a.format == "json"    ? backend::RecordFormat::kJson
                        : a.format == "jsonl" ? backend::RecordFormat::kJsonl
                                              : backend::RecordFormat::kTable,
                        std::cout);
  return kExitAnswer;
}

}  // namespace

void RegisterBackendShowCommand(CLI::App& app) {
  // `backend` is the backend scanner's command (backend_command.cc); `show`
  // joins it, or makes it when that command is not registered.
  CLI::App* backend = nullptr;
  for (CLI::App* sub : app.get_subcommands({}))
    if (sub->get_name() == "backend") backend = sub;
  if (!backend) {
    backend = app.add_subcommand("backend", "What a PyTorch backend registers, per dispatch key");
    backend->require_subcommand(1);
  }
  auto args = std::make_shared<ShowArgs>();
  CLI::App* show = backend->add_subcommand(
      "show", "The capabilities `testmap ingest --backend NAME` stored in the index");
  show->add_option("NAME", args->name, "the backend's name")->required();
  AddIndexOption(show, args->index);
  AddFormatOption(show, args->format, {"table", "json", "jsonl"});
  show->callback([args] { RunCommand("backend show", [&] { return RunShow(*args); }); });
}

}  // namespace testmap::cli
