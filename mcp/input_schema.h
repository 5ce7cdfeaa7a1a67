// JSON Schema checks of tool arguments (valijson, draft 7 keywords that
// mean the same in 2020-12, the dialect MCP assumes): a tool's inputSchema
// is what tools/list advertises and what tools/call enforces, the same
// document, so the two cannot drift.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mcp/json_rpc.h"

namespace testmap::mcp {

class InputSchema {
 public:
  // Compiles `schema`. Throws std::logic_error for a schema valijson cannot
  // read (a bug in a tool's definition, caught by the first test).
  explicit InputSchema(json schema);
  ~InputSchema();
  InputSchema(InputSchema&&) noexcept;

  // Empty when `value` conforms; else the complaints, each "PATH: what",
  // PATH like `arguments.dtypes[0]` (at most 10).
  std::vector<std::string> Check(const json& value) const;

  const json& document() const { return schema_; }

 private:
  struct Compiled;
  json schema_;
  std::unique_ptr<Compiled> compiled_;
};

}  // namespace testmap::mcp
