#include "mcp/tool_registry.h"

#include <malloc.h>
#include <sys/stat.h>

#include <algorithm>
#include <iostream>

#include "core/content_hash.h"
#include "core/errors.h"
#include "mcp/cursor.h"
#include "mcp/limits.h"

namespace testmap::mcp {

struct ToolRegistry::Entry {
  Tool tool;
  InputSchema schema;
};

const OpenIndex& ToolContext::index() {
  if (!index_) index_ = session_.Current();
  return *index_;
}

namespace {

json PageSchema() {
  return {{"type", "object"},
          {"description", "Where this page lies in the whole answer"},
          {"properties",
           {{"offset", {{"type", "integer"}}},
            {"limit", {{"type", "integer"}}},
            {"returned", {{"type", "integer"}}},
            {"total", {{"type", "integer"}}},
            {"next_cursor",
             {{"type", {"string", "null"}},
              {"description", "Pass back as `cursor` for the next page; null on the last"}}}}},
          {"required", {"offset", "limit", "returned", "total", "next_cursor"}}};
}

json ProvenanceSchema() {
  json run = {{"type", "object"},
              {"properties",
               {{"id", {{"type", "string"}}},
                {"start_time", {{"type", "string"}}},
                {"torch", {{"type", "object"}}},
                {"tests_git_sha", {{"type", {"string", "null"}}}}}},
              {"required", {"id"}}};
  return {{"type", "object"},
          {"description",
           "What the answer came from: the index (and its generation in this session), the "
           "trace runs of its evidence (torch version and git SHA, when), static scan evidence, "
           "files read"},
          {"properties",
           {{"index", {{"type", {"string", "null"}}}},
            {"generation", {{"type", "integer"}}},
            {"runs", {{"type", "array"}, {"items", run}}},
            {"static", {{"type", "boolean"}}},
            {"files", {{"type", "array"}, {"items", {{"type", "object"}}}}}}},
          {"required", {"index", "runs", "static", "files"}}};
}

void AddRequired(json& schema, const std::string& field) {
  if (!schema.contains("required")) schema["required"] = json::array();
  schema["required"].push_back(field);
}

json ToolError(const std::string& text, json error) {
  return {{"content", json::array({{{"type", "text"}, {"text", text}}})},
          {"isError", true},
          {"_meta", {{"io.testmap/error", std::move(error)}}}};
}

}  // namespace

ToolRegistry::ToolRegistry() : cache_(kAnswerCacheEntries), expensive_cache_(kAnswerCacheEntries) {}
ToolRegistry::~ToolRegistry() = default;

void ToolRegistry::Add(Tool tool) {
  json& in = tool.input_schema;
  if (!tool.paged.empty()) {
    in["properties"]["limit"] = {
        {"type", "integer"},
        {"minimum", 1},
        {"maximum", kMaxPageItems},
        {"default", kDefaultPageItems},
        {"description", "Items on a page (default " + std::to_string(kDefaultPageItems) +
                            ", at most " + std::to_string(kMaxPageItems) + ")"}};
    in["properties"]["cursor"] = {
        {"type", "string"},
        {"maxLength", 200},
        {"description", "page.next_cursor of the previous page, unchanged"}};
  }
  json& out = tool.output_schema;
  out["properties"]["provenance"] = ProvenanceSchema();
  AddRequired(out, "provenance");
  if (!tool.paged.empty()) {
    out["properties"]["page"] = PageSchema();
  }
  auto entry = std::unique_ptr<Entry>(new Entry{tool, InputSchema(in)});
  by_name_[entry->tool.name] = entry.get();
  tools_.push_back(std::move(entry));
}

json ToolRegistry::List() const {
  json list = json::array();
  for (const auto& e : tools_) {
    list.push_back({{"name", e->tool.name},
                    {"title", e->tool.title},
                    {"description", e->tool.description},
                    {"inputSchema", e->tool.input_schema},
                    {"outputSchema", e->tool.output_schema},
                    {"annotations",
                     {{"title", e->tool.title},
                      {"readOnlyHint", true},
                      {"destructiveHint", false},
                      {"idempotentHint", true},
                      {"openWorldHint", false}}}});
  }
  return list;
}

json FileRead(const std::string& path, json extra) {
  struct stat st;
  json file = {{"path", path}, {"bytes", stat(path.c_str(), &st) == 0 ? st.st_size : 0}};
  file.update(extra);
  return file;
}

void ToolAnswer::SetList(const std::string& name, json array) {
  list = name;
  total = array.size();
  auto shared = std::make_shared<const json>(std::move(array));
  items = [shared](size_t begin, size_t end) {
    json page = json::array();
    for (size_t i = begin; i < end; ++i) page.push_back((*shared)[i]);
    return page;
  };
}

json ToolRegistry::Page(const Entry& entry, const json& arguments, const std::string& question,
                        ToolContext& ctx, const std::shared_ptr<const ToolAnswer>& answer) const {
  json out = answer->body;
  if (!answer->list.empty()) {
    uint64_t offset = 0;
    uint64_t generation = ctx.has_index() ? ctx.index_ptr()->generation() : 0;
    if (auto c = arguments.find("cursor"); c != arguments.end()) {
      offset = DecodeCursor(c->get<std::string>(), question, generation).offset;
    }
    uint64_t limit = arguments.value("limit", kDefaultPageItems);
    uint64_t total = answer->total;
    offset = std::min(offset, total);
    uint64_t end = std::min(total, offset + limit);
    out[answer->list] = answer->items(offset, end);
    out["page"] = {{"offset", offset},
                   {"limit", limit},
                   {"returned", end - offset},
                   {"total", total},
                   {"next_cursor",
                    end < total ? json(EncodeCursor({question, generation, end})) : json(nullptr)}};
  }
  json provenance = ctx.has_index()
                        ? ctx.index_ptr()->Provenance(answer->runs)
                        : json{{"index", nullptr}, {"runs", json::array()}, {"static", false}};
  provenance["files"] = answer->files;
  out["provenance"] = std::move(provenance);
  return out;
}

json ToolRegistry::Call(const std::string& name, const json& arguments_in, IndexSession& session,
                        const PathPolicy& paths, const TorchSource& torch) {
  auto found = by_name_.find(name);
  if (found == by_name_.end()) {
    json names = json::array();
    for (const auto& e : tools_) names.push_back(e->tool.name);
    throw RpcError(kInvalidParams, "unknown tool `" + name + "`", {{"tools", names}});
  }
  const Entry& entry = *found->second;
  json arguments = arguments_in.is_null() ? json::object() : arguments_in;
  if (!arguments.is_object()) {
    throw RpcError(kInvalidParams, "tools/call: \"arguments\" must be an object");
  }
  if (auto complaints = entry.schema.Check(arguments); !complaints.empty()) {
    throw RpcError(kInvalidParams, name + ": invalid arguments: " + complaints.front(),
                   {{"errors", complaints}, {"inputSchema", entry.tool.input_schema}});
  }
  ToolContext ctx(session, paths, torch);
  try {
    // The question is the arguments but the page's; generation 0 when
    // there is no index (yet): tools that need one say so below.
    try {
      ctx.index();
    } catch (const core::InputError&) {
    }
    json question_args = arguments;
    question_args.erase("cursor");
    question_args.erase("limit");
    std::string question = name + "\n" + DumpJson(question_args);
    if (entry.tool.inputs_stamp) question += "\n" + entry.tool.inputs_stamp(arguments, ctx);
    std::string digest = core::ShortHexDigest(question);
    uint64_t generation = ctx.has_index() ? ctx.index_ptr()->generation() : 0;
    std::string key = digest + ":" + std::to_string(generation);
    if (arguments.contains("cursor")) {  // a bad cursor is refused before any work
      DecodeCursor(arguments["cursor"].get<std::string>(), digest, generation);
    }
    // Answers that read the whole index keep their own cache, so that a
    // stream of cheap queries does not push them out.
    auto& cache = entry.tool.expensive ? expensive_cache_ : cache_;
    std::shared_ptr<const ToolAnswer> answer = cache.Find(key);
    if (!answer) {
      auto fresh = std::make_shared<ToolAnswer>(entry.tool.run(arguments, ctx));
      answer = fresh;
      size_t limit = arguments.value("limit", kDefaultPageItems);
      if (entry.tool.expensive || fresh->total > limit) cache.Put(key, answer);
      // A walk over the whole index leaves hundreds of MB of freed heap
      // (list_ops' per-operator test sets on a 50,000-test index) that
      // glibc keeps mapped; a long-lived server gives it back.
      if (entry.tool.expensive) malloc_trim(0);
    }
    json structured = Page(entry, arguments, digest, ctx, answer);
    std::string text = DumpJson(structured);
    return {{"content", json::array({{{"type", "text"}, {"text", std::move(text)}}})},
            {"structuredContent", std::move(structured)},
            {"isError", false}};
  } catch (const RpcError&) {
    throw;
  } catch (const core::UnknownNameError& e) {
    std::string text = e.what();
    if (!e.suggestions().empty()) {
      text += "\ndid you mean:";
      for (const auto& s : e.suggestions()) text += " " + s;
    }
    return ToolError(text, {{"kind", "unknown_name"},
                            {"what", e.kind()},
                            {"name", e.name()},
                            {"message", e.what()},
                            {"suggestions", e.suggestions()}});
  } catch (const core::UsageError& e) {
    return ToolError(e.what(), {{"kind", "usage"}, {"message", e.what()}});
  } catch (const core::InputError& e) {
    return ToolError(
        e.what(),
        {{"kind", "input"}, {"message", e.what()}, {"file", e.file()}, {"line", e.line()}});
  } catch (const std::bad_alloc&) {
    return ToolError("out of memory", {{"kind", "internal"}, {"message", "out of memory"}});
  } catch (const std::exception& e) {
    std::cerr << "testmap mcp: internal error in " << name << ": " << e.what() << "\n";
    return ToolError(std::string("internal error: ") + e.what(),
                     {{"kind", "internal"}, {"message", e.what()}});
  }
}

}  // namespace testmap::mcp
