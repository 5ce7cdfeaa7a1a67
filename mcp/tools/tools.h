// The tools of `testmap mcp`, one file each; tools.cc registers them in
// the order tools/list shows them. A tool over a library still to come
// (admit, rank_next_ops, config_explain, diff) is added here when that
// library lands: one file, one line in tools.cc.
#pragma once

#include "mcp/tool.h"

namespace testmap::mcp {

Tool QueryOpTool();      // query_op: tests running one operator
Tool TestsForOpsTool();  // tests_for_ops: tests running all / any of several
Tool ShowTestTool();     // show_test: everything about one test
Tool ListOpsTool();      // list_ops: every operator with its coverage
Tool PlanTool();         // plan: CI splits from the index's and files' timings

}  // namespace testmap::mcp
