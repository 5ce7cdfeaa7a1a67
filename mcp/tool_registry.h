// The tools a server offers and the one way each is called: arguments
// checked against the advertised inputSchema (-32602 with the schema's
// complaints), the answer paged (`limit`, opaque `cursor`, at most
// kMaxPageItems a page), its provenance attached, errors of the question
// (an unknown operator, a file outside --allow) answered as tool errors
// (isError, with suggestions) so that a model can correct itself.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mcp/answer_cache.h"
#include "mcp/input_schema.h"
#include "mcp/tool.h"

namespace testmap::mcp {

class ToolRegistry {
 public:
  ToolRegistry();
  ~ToolRegistry();

  // Adds `tool` (schemas completed with the registry's common fields).
  void Add(Tool tool);

  // tools/list: [{name, title, description, inputSchema, outputSchema}].
  json List() const;

  // tools/call of `name`. Throws RpcError for an unknown tool, arguments
  // the schema refuses and bad cursors; everything else is the result
  // (CallToolResult: content, structuredContent, isError).
  json Call(const std::string& name, const json& arguments, IndexSession& session,
            const PathPolicy& paths, const TorchSource& torch);

  size_t size() const { return tools_.size(); }

 private:
  struct Entry;
  json Page(const Entry& entry, const json& arguments, const std::string& question,
            ToolContext& ctx, const std::shared_ptr<const ToolAnswer>& answer) const;

  std::vector<std::unique_ptr<Entry>> tools_;
  std::map<std::string, Entry*> by_name_;
  AnswerCache<ToolAnswer> cache_, expensive_cache_;
};

// Every tool this build offers (mcp/tools/tools.cc).
void RegisterTools(ToolRegistry& registry);

}  // namespace testmap::mcp
