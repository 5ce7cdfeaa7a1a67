#include "analyzers/backend/dispatcher_dump.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "analyzers/backend/embedded_scripts.h"
#include "analyzers/backend/registration_json.h"
#include "analyzers/backend/subprocess.h"

namespace testmap::backend {

DumpResult DumpDispatcher(const DumpOptions& options) {
  std::vector<std::string> argv{options.python, "-c", kDispatcherDumpScript};
  argv.insert(argv.end(), options.modules.begin(), options.modules.end());
  std::string path;
  for (const auto& p : options.python_path) path += (path.empty() ? "" : ":") + p;
  ProcessResult p = RunProcess(argv, "", nullptr, {"TESTMAP_DUMP_PATH=" + path});
  nlohmann::json doc = nlohmann::json::parse(p.out, nullptr, /*allow_exceptions=*/false);
  if (p.status != 0 || !doc.is_object() || doc.value("format", "") != "testmap-dispatcher-dump/1") {
    std::string err = p.err.size() > 3000 ? "..." + p.err.substr(p.err.size() - 3000) : p.err;
    throw std::runtime_error("the dispatcher dump with `" + options.python + "` failed (status " +
                             std::to_string(p.status) + ")" + (err.empty() ? "" : ":\n" + err));
  }
  DumpResult result;
  result.torch_version = doc.value("torch_version", "");
  result.privateuse1_backend = doc.value("privateuse1_backend", "");
  for (const auto& e : doc["errors"])
    result.diagnostics.push_back(
        {Diagnostic::Severity::kError, e.value("module", ""), 0,
         "import failed; registrations it would have made are missing:\n" + e.value("error", "")});
  for (const auto& j : doc["records"]) {
    Registration r;
    r.op = j["op"].is_string() ? j["op"].get<std::string>() : "";
    r.dispatch_key = j["dispatch_key"].is_string() ? j["dispatch_key"].get<std::string>() : "";
    r.kind = ParseKind(j.value("kind", "kernel")).value_or(Kind::kKernel);
    r.mechanism = "dispatcher";
    r.file = j["file"].is_string() ? j["file"].get<std::string>() : "";
    r.line = j["line"].is_number_integer() ? j["line"].get<int>() : 0;
    r.evidence = Evidence::kRuntime;
    if (j.contains("schema") && j["schema"].is_string()) r.schema = j["schema"];
    result.records.push_back(std::move(r));
  }
  std::sort(result.records.begin(), result.records.end(), OutputOrder);
  return result;
}

}  // namespace testmap::backend
