// diff: `testmap diff OLD NEW [--config FILE] --format json`, every side,
// config, snapshot and Python read only under --allow. The delta, its JSON
// and the config's effect are mapper/diff's (RunDiff, DiffJson), as the
// CLI's; this file only checks the paths and pages `generics`.
#include <filesystem>

#include "analyzers/python/tree_scanner.h"
#include "core/errors.h"
#include "mapper/diff/diff.h"
#include "mcp/tools/tools.h"

namespace testmap::mcp {
namespace {

namespace fs = std::filesystem;

// One side as the server may read it: its resolved path, what it is, and
// (for a tree) the test files its scan will read, each checked.
struct CheckedSide {
  std::string path;
  std::string kind;                // scan | index | tree
  std::vector<std::string> files;  // a tree's test files
};

CheckedSide CheckSide(const std::string& given, const PathPolicy& paths) {
  CheckedSide side;
  side.path = paths.Resolve(given, PathPolicy::Kind::kFileOrDirectory);
  std::error_code ec;
  bool dir = fs::is_directory(side.path, ec);
  if (dir && diff::IsIndexDir(side.path)) {
    side.kind = "index";  // read through RocksDB, as the server's own index
    return side;
  }
  if (!dir && fs::path(side.path).extension() != ".py") {
    side.kind = "scan";
    return side;
  }
  side.kind = "tree";
  // The scan follows symlinks: every file it will read is checked here
  // first, so that a link inside an allowed tree cannot lead the scan out.
  std::vector<std::string> warnings, errors;
  side.files = python::DiscoverTestFiles({side.path}, &warnings, &errors);
  if (!errors.empty()) throw core::InputError(given + ": " + errors.front());
  if (side.files.empty())
    throw core::InputError(given +
                           ": neither an index (no CURRENT file) nor a test tree (no "
                           "test_*.py or *_test.py file under it)");
  for (const auto& f : side.files) {
    std::string real = fs::canonical(f, ec).string();
    if (ec || !paths.Allows(real))
      throw core::InputError(f +
                             ": leads outside the allowed paths (a tree side's files are "
                             "read only under the server's --allow paths)");
  }
  return side;
}

// What the answer depends on besides the arguments: each file it reads as
// it is now (a tree's test files, a scan, an index directory's entries, a
// config), so that an edit is a new question, not a kept answer.
std::string SidesStamp(const json& a, const PathPolicy& paths) {
  std::string stamp;
  for (const char* key : {"old", "new"}) {
    CheckedSide side = CheckSide(a[key], paths);
    stamp += FileStamp(side.path) + "\n";
    if (side.kind == "index") stamp += FileStamp(side.path + "/CURRENT") + "\n";
    for (const auto& f : side.files) stamp += FileStamp(f) + "\n";
  }
  for (const char* key : {"config", "old_snapshot", "new_snapshot"})
    if (a.contains(key)) stamp += FileStamp(paths.Resolve(a[key])) + "\n";
  return stamp;
}

// A tree side's torch: the tool's own argument, else the server's
// (--snapshot, else --torch-python, else the default Python as the CLI's).
diff::SideOptions TorchFor(const json& a, const std::string& which, const ToolContext& ctx,
                           json& file) {
  diff::SideOptions o;
  if (a.contains(which + "_snapshot")) {
    o.snapshot = ctx.paths().Resolve(a[which + "_snapshot"]);
  } else if (a.contains(which + "_torch_python")) {
    o.torch_python = ctx.paths().ResolveProgram(a[which + "_torch_python"]);
  } else {
    o.snapshot = ctx.torch_source().snapshot();
    if (o.snapshot.empty()) o.torch_python = ctx.torch_source().python();
  }
  if (!o.snapshot.empty()) file["snapshot"] = o.snapshot;
  if (!o.torch_python.empty()) file["torch_python"] = o.torch_python;
  if (a.contains("device")) o.devices = a["device"].get<std::vector<std::string>>();
  // No scan cache: the server writes nothing. A Python's torch snapshot is
  // cached where `admit` keeps it (analyzers/torch_snapshot).
  o.cache_dir.clear();
  return o;
}

json InputSchema() {
  auto path = [](const char* what) {
    return json{{"type", "string"}, {"minLength", 1}, {"maxLength", 4096}, {"description", what}};
  };
  const char* side =
      "a `testmap scan --format jsonl` file, an index directory (its scan records) or a test "
      "tree (a directory or .py file, scanned here), under the server's --allow paths";
  return {{"type", "object"},
          {"properties",
           {{"old", path((std::string("The old side: ") + side).c_str())},
            {"new", path((std::string("The new side: ") + side).c_str())},
            {"config",
             path("A test_suite_config under --allow: its stale names, entries to re-evaluate, "
                  "new unlisted tests and a proposed patch")},
            {"root_token",
             {{"type", "string"},
              {"minLength", 1},
              {"maxLength", 256},
              {"default", "${TORCH_ROOT}"},
              {"description", "What the config's paths start with for the node ids' root"}}},
            {"device",
             {{"type", "array"},
              {"items", {{"type", "string"}, {"minLength", 1}, {"maxLength", 64}}},
              {"minItems", 1},
              {"maxItems", 16},
              {"default", {"cpu"}},
              {"description", "Device types a tree side is instantiated for, as `scan --device`"}}},
            {"old_torch_python",
             path("Python (under --allow) whose torch expands @ops/@modules of an old tree; "
                  "default the server's --torch-python")},
            {"new_torch_python", path("The same for a new tree")},
            {"old_snapshot",
             path("A torch snapshot file (under --allow) for an old tree, instead of a Python")},
            {"new_snapshot", path("The same for a new tree")}}},
          {"required", {"old", "new"}},
          {"additionalProperties", false}};
}

json OutputSchema() {
  json ids = {{"type", "array"}, {"items", {{"type", "string"}}}};
  json strings = ids;
  json side = {{"type", "object"},
               {"properties",
                {{"path", {{"type", "string"}}},
                 {"kind", {{"enum", {"scan", "index", "tree"}}}},
                 {"torch_version", {{"type", "string"}}},
                 {"ids", {{"type", "integer"}}},
                 {"partial", {{"type", "boolean"}}},
                 {"seconds", {{"type", "number"}}}}},
               {"required", {"path", "kind", "ids", "partial"}}};
  json generic = {
      {"type", "object"},
      {"properties",
       {{"status", {{"enum", {"added", "removed", "renamed", "changed"}}}},
        {"generic_id", {{"type", "string"}}},
        {"renamed_from", {{"type", "string"}}},
        {"file", {{"type", "string"}}},
        {"line", {{"type", "integer"}}},
        {"changes",
         {{"type", "array"},
          {"items", {{"enum", {"body", "decorators", "setup", "params", "entry", "dtypes"}}}}}},
        {"old_ids", {{"type", "integer"}}},
        {"new_ids", {{"type", "integer"}}},
        {"ids_added", ids},
        {"ids_removed", ids},
        {"ids_changed", ids},
        {"retrace", {{"type", "integer"}, {"description", "Ids of it to re-trace"}}}}},
      {"required", {"status", "generic_id", "changes", "ids_added", "ids_removed", "ids_changed"}}};
  json entries = {{"type", "array"}, {"items", {{"type", "object"}}}};
  return {{"type", "object"},
          {"properties",
           {{"format", {{"const", "testmap-diff/1"}}},
            {"old", side},
            {"new", side},
            {"counts", {{"type", "object"}, {"additionalProperties", {{"type", "integer"}}}}},
            {"seconds", {{"type", "number"}}},
            {"generics", {{"type", "array"}, {"items", generic}}},
            {"config",
             {{"type", "object"},
              {"properties",
               {{"path", {{"type", "string"}}},
                {"stale", entries},
                {"reevaluate", entries},
                {"unlisted", entries},
                {"patch", {{"type", "string"}, {"description", "A unified diff of the YAML"}}}}},
              {"required", {"path", "stale", "reevaluate", "unlisted", "patch"}}}},
            {"problems",
             {{"type", "array"},
              {"items", {{"type", "string"}}},
              {"description",
               "Why a side is partial (its `partial`): its missing tests read as removed"}}}}},
          {"required", {"format", "old", "new", "counts", "generics", "problems"}}};
}

}  // namespace

Tool DiffTool() {
  Tool t;
  t.name = "diff";
  t.title = "What a new version of the test suite changes (an upgrade's delta)";
  t.description =
      "The delta between two versions of a test suite (a PyTorch upgrade, a branch): generic "
      "tests added, removed, renamed (body unchanged) and changed, with what changed (body, "
      "decorators, setup, params, an OpInfo entry, dtypes), the instantiated ids added, removed "
      "and changed under each, and how many to re-trace. Each side is a scan JSONL file, an "
      "index directory or a test tree, under the server's --allow paths; a tree's @ops need a "
      "torch (the server's, or old/new_torch_python, old/new_snapshot). With `config`, what the "
      "delta does to a test_suite_config: stale names, entries to re-evaluate, new unlisted "
      "tests, a patch. The same as `testmap diff OLD NEW --format json`; the generic tests are "
      "paged. A side marked partial (see `problems`) may be missing tests.";
  t.input_schema = InputSchema();
  t.output_schema = OutputSchema();
  t.paged = "generics";
  t.expensive = true;  // reads (or scans) both sides whole
  t.inputs_stamp = [](const json& a, ToolContext& ctx) {
    try {
      return SidesStamp(a, ctx.paths());
    } catch (const std::exception&) {
      return std::string("?");  // the run says why
    }
  };
  t.run = [](const json& a, ToolContext& ctx) {
    CheckedSide old_side = CheckSide(a["old"], ctx.paths());
    CheckedSide new_side = CheckSide(a["new"], ctx.paths());
    json old_file = {{"path", old_side.path}, {"side", "old"}, {"kind", old_side.kind}};
    json new_file = {{"path", new_side.path}, {"side", "new"}, {"kind", new_side.kind}};
    diff::DiffRequest request;
    request.old_path = old_side.path;
    request.new_path = new_side.path;
    request.old_options = TorchFor(a, "old", ctx, old_file);
    request.new_options = TorchFor(a, "new", ctx, new_file);
    if (a.contains("config")) request.config = ctx.paths().Resolve(a["config"]);
    request.root_token = a.value("root_token", "${TORCH_ROOT}");
    diff::DiffResult result = diff::RunDiff(request);

    ToolAnswer answer;
    answer.body = json(diff::DiffJson(result, /*with_generics=*/false));
    // Provenance: each side as read, with the runs an index side holds
    // (their torch versions) and the torch a tree was scanned with.
    auto describe = [&](json& file, const diff::Side& side) {
      file["ids"] = side.tests.size();
      if (!side.torch_version.empty()) file["torch"] = {{"version", side.torch_version}};
      if (side.kind == "scan") file["bytes"] = FileRead(side.label)["bytes"];
      if (side.kind == "index") {
        OpenIndex index(indexer::IndexStore::Open(side.label, indexer::OpenMode::kRead), 0);
        file["runs"] = index.Provenance(index.AllRuns())["runs"];
      }
      answer.files.push_back(file);
    };
    describe(old_file, result.old_side);
    describe(new_file, result.new_side);
    if (!request.config.empty()) answer.files.push_back(FileRead(request.config));
    // A page of generic tests becomes JSON when it is asked for.
    auto generics =
        std::make_shared<const std::vector<diff::GenericDelta>>(std::move(result.delta.generics));
    answer.list = "generics";
    answer.total = generics->size();
    answer.items = [generics](size_t begin, size_t end) {
      json page = json::array();
      for (size_t i = begin; i < end; ++i)
        page.push_back(json(diff::GenericDeltaJson((*generics)[i])));
      return page;
    };
    return answer;
  };
  return t;
}

}  // namespace testmap::mcp
