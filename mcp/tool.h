// What one MCP tool is: a name, JSON Schemas for its arguments and its
// answer, and a function from arguments to answer over the same libraries
// the CLI calls. Each tool is one file under mcp/tools/ that builds one of
// these; mcp/tools/tools.cc lists them (the one place a tool is added).
//
// A tool returns the whole answer; the registry (tool_registry.h) checks
// the arguments against the schema, pages the answer's list, adds the
// provenance, caches long answers for their next pages and turns errors
// into tool errors. So a tool never deals with cursors or limits.
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <string>

#include "mcp/index_session.h"
#include "mcp/json_rpc.h"
#include "mcp/path_policy.h"
#include "mcp/torch_source.h"

namespace testmap::mcp {

// What a running tool may use.
class ToolContext {
 public:
  ToolContext(IndexSession& session, const PathPolicy& paths, const TorchSource& torch)
      : session_(session), paths_(paths), torch_(torch) {}

  // The index (opened, or reopened after a change, on first use in this
  // call). Throws core::InputError when there is none.
  const OpenIndex& index();
  bool has_index() const { return index_ != nullptr; }
  std::shared_ptr<const OpenIndex> index_ptr() const { return index_; }
  // Files a tool reads go through here (--allow).
  const PathPolicy& paths() const { return paths_; }
  // torch's operator registry (--torch-python / --snapshot), for admission.
  // Throws core::InputError when it cannot be read.
  const torch_snapshot::TorchSnapshot& torch() const { return torch_.Get(); }
  // Where that torch comes from (--torch-python / --snapshot).
  const TorchSource& torch_source() const { return torch_; }

 private:
  IndexSession& session_;
  const PathPolicy& paths_;
  const TorchSource& torch_;
  std::shared_ptr<const OpenIndex> index_;
};

// A file an answer read, for its provenance: {path, bytes} and `extra`
// fields (a timing file's records, a snapshot's torch).
json FileRead(const std::string& path, json extra = json::object());

struct ToolAnswer {
  json body = json::object();  // structuredContent, but for the paged list
  // The paged list: its name in the answer ("" = this answer has none), its
  // length, and how to make items [begin, end) of it, so that a page of a
  // long answer costs a page of JSON, not the whole list.
  std::string list;
  size_t total = 0;
  std::function<json(size_t begin, size_t end)> items;
  std::set<std::string> runs;  // run ids the answer's evidence came from ("static" too)
  json files = json::array();  // files the answer read: [{path, bytes, records}]

  // The paged list when it is at hand as a JSON array.
  void SetList(const std::string& name, json array);
};

struct Tool {
  std::string name, title, description;
  // The tool's own arguments (an object schema); paged tools get `limit`
  // and `cursor` added by the registry.
  json input_schema;
  // The answer's own fields (an object schema); the registry adds `page`
  // (paged tools) and `provenance`.
  json output_schema;
  // The array in the answer that is paged ("" for answers of bounded
  // size); paged tools take `limit` and `cursor`.
  std::string paged;
  // Keep the whole answer for later calls even when it fits one page
  // (answers that read the whole index).
  bool expensive = false;
  // Cache key material besides the arguments: what else the answer depends
  // on (the plan tool: the timing files' sizes and times). Optional.
  std::function<std::string(const json& arguments, ToolContext& ctx)> inputs_stamp;
  std::function<ToolAnswer(const json& arguments, ToolContext& ctx)> run;
};

}  // namespace testmap::mcp
