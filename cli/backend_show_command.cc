// `testmap backend show NAME`: the capabilities `testmap ingest --backend
// NAME` stored (indexer/index_backends.h): per dispatch key its kernels,
// fallbacks, fallthroughs, definitions, stubs and hooks, with where each
// was registered. `--format jsonl` prints the records as `backend scan`
// wrote them, so they can be handed to `admit --supported` again.
#include <CLI/CLI.hpp>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

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

void RenderTable(const indexer::StoredBackend& b, std::ostream& out) {
  std::map<std::string, std::vector<const indexer::BackendRecord*>> by_key;
  for (const auto& r : b.records)
    by_key[r.dispatch_key.empty() ? "(no key)" : r.dispatch_key].push_back(&r);
  out << "backend " << b.name << ": " << b.records.size() << " registrations from";
  for (const auto& s : b.sources) out << " " << s;
  out << "\n";
  for (const auto& [key, rows] : by_key) {
    std::map<std::string, size_t> kinds;
    for (const auto* r : rows) ++kinds[r->kind];
    out << key << ":";
    for (const auto& [k, n] : kinds) out << " " << n << " " << k;
    out << "\n";
    for (const auto* r : rows)
      out << "  " << (r->op.empty() ? "*" : r->op) << "  " << r->kind << "  " << r->Source()
          << "\n";
  }
}

int RunShow(const ShowArgs& a) {
  auto store = indexer::IndexStore::Open(a.index, indexer::OpenMode::kRead);
  auto backend = indexer::ReadBackend(*store, a.name);
  if (!backend)
    throw core::UnknownNameError("backend", a.name, indexer::BackendNames(*store),
                                 "the index has no backend `" + a.name + "`");
  if (a.format == "jsonl") {
    for (const auto& r : backend->records) std::cout << indexer::BackendRecordJson(r) << "\n";
  } else if (a.format == "json") {
    nlohmann::json records = nlohmann::json::array();
    for (const auto& r : backend->records)
      records.push_back(nlohmann::json::parse(indexer::BackendRecordJson(r)));
    std::cout << nlohmann::json{{"format", "testmap-backend/1"},
                                {"backend", backend->name},
                                {"sources", backend->sources},
                                {"records", records}}
                     .dump(2)
              << "\n";
  } else {
    RenderTable(*backend, std::cout);
  }
  return kExitAnswer;
}

}  // namespace

void RegisterBackendShowCommand(CLI::App& app) {
  // `backend` is the backend scanner's command (backend_command.cc) when it
  // is there; `show` joins it.
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
