#include "mcp/tools/admission_answer.h"

#include "core/content_hash.h"

namespace testmap::mcp {
namespace {

admit::AdmitInputs ReadInputs(const json& a, ToolContext& ctx) {
  admit::AdmitInputs in;
  if (a.contains("supported")) in.supported = ctx.paths().Resolve(a["supported"]);
  in.backend = a.value("backend", "");
  in.device = a.value("device", "");
  in.dispatch_key = a.value("dispatch_key", in.dispatch_key);
  in.root_token = a.value("root_token", in.root_token);
  if (a.contains("ops")) in.ops = a["ops"].get<std::vector<std::string>>();
  if (a.contains("dtypes")) in.dtypes = a["dtypes"].get<std::vector<std::string>>();
  return in;
}

// The arguments that decide the admission (not what is listed of it).
json CapabilityArguments(const json& a) {
  json out = json::object();
  for (const char* k :
       {"supported", "backend", "ops", "dtypes", "dispatch_key", "device", "root_token"}) {
    if (a.contains(k)) out[k] = a[k];
  }
  return out;
}

}  // namespace

json AdmitInputProperties() {
  json name = {{"type", "string"}, {"minLength", 1}, {"maxLength", 300}};
  return {
      {"supported",
       {{"type", "string"},
        {"minLength", 1},
        {"maxLength", 4096},
        {"description",
         "A file under the server's --allow paths: backend records (`testmap backend "
         "scan|dump` output, JSONL or JSON) or a test_suite_config (YAML: its global section "
         "and per-test dtype edits)"}}},
      {"backend",
       {{"type", "string"},
        {"minLength", 1},
        {"maxLength", 256},
        {"description",
         "The backend's name; alone, the records `testmap ingest --backend NAME` stored in the "
         "index"}}},
      {"ops",
       {{"type", "array"},
        {"items", name},
        {"minItems", 1},
        {"maxItems", 4096},
        {"description",
         "Operators the backend supports, any spelling (add = every overload, add.Tensor one, "
         "aten::sum.default the default overload alone); adds to `supported`"}}},
      {"dtypes",
       {{"type", "array"},
        {"items", {{"type", "string"}, {"minLength", 1}, {"maxLength", 64}}},
        {"minItems", 1},
        {"maxItems", 64},
        {"description", "Dtypes the backend supports (the ceiling), any spelling torch has"}}},
      {"dispatch_key",
       {{"type", "string"},
        {"minLength", 1},
        {"maxLength", 64},
        {"default", "PrivateUse1"},
        {"description", "The backend's dispatch key"}}},
      {"device",
       {{"type", "string"},
        {"minLength", 1},
        {"maxLength", 128},
        {"description",
         "privateuse1:NAME: answer for the backend's own scanned ids, joined to the traced "
         "ones by generic test and params"}}},
      {"root_token",
       {{"type", "string"},
        {"minLength", 1},
        {"maxLength", 256},
        {"default", "${TORCH_ROOT}"},
        {"description", "What a config's paths start with for the node ids' root"}}},
  };
}

std::string AdmitInputsStamp(const json& a, ToolContext& ctx) {
  if (!a.contains("supported")) return "";
  try {
    return FileStamp(ctx.paths().Resolve(a["supported"]));
  } catch (const std::exception&) {
    return "?";  // the run says why
  }
}

std::shared_ptr<const AdmissionState> AdmissionFor(const json& a, ToolContext& ctx) {
  const OpenIndex& index = ctx.index();
  admit::AdmitInputs in = ReadInputs(a, ctx);
  std::string key = "admission\n" + DumpJson(CapabilityArguments(a)) + "\n" +
                    (in.supported.empty() ? "" : FileStamp(in.supported));
  return index.Derived<AdmissionState>(core::ShortHexDigest(key), [&] {
    auto state = std::make_shared<AdmissionState>();
    state->setup = admit::SetUpAdmission(in, index.reader().store(), [&] { return &ctx.torch(); });
    for (const auto& w : state->setup->supported.warnings) state->warnings.push_back(w.ToString());
    if (!in.supported.empty()) state->files.push_back(FileRead(in.supported));
    if (const torch_snapshot::TorchSnapshot* torch = state->setup->request.torch) {
      // The torch whose registry decided what decomposes: part of the answer.
      state->files.push_back(FileRead(
          torch->path,
          {{"torch",
            {{"version", torch->torch_version}, {"git_version", torch->torch_git_version}}}}));
    }
    state->admission = admit::Admit(index.reader(), state->setup->request);
    return std::shared_ptr<const AdmissionState>(std::move(state));
  });
}

void AttachAdmission(const AdmissionState& state, ToolContext& ctx, ToolAnswer& answer) {
  // Admission reads every test's evidence.
  answer.runs = ctx.index().AllRuns();
  answer.files = state.files;
  if (!state.warnings.empty()) answer.body["warnings"] = state.warnings;
}

}  // namespace testmap::mcp
