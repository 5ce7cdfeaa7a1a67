#include "mcp/tools/tools.h"

#include "mcp/tool_registry.h"

namespace testmap::mcp {

void RegisterTools(ToolRegistry& registry) {
  registry.Add(QueryOpTool());
  registry.Add(TestsForOpsTool());
  registry.Add(ShowTestTool());
  registry.Add(ListOpsTool());
  registry.Add(PlanTool());
  registry.Add(AdmitTool());
  registry.Add(RankNextOpsTool());
  registry.Add(ConfigExplainTool());
  registry.Add(DiffTool());
}

}  // namespace testmap::mcp
