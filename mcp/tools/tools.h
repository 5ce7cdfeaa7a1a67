// The tools of `testmap mcp`, one file each; tools.cc registers them in
// the order tools/list shows them. A new tool is one file and one line in
// tools.cc.
#pragma once

#include "mcp/tool.h"

namespace testmap::mcp {

Tool QueryOpTool();        // query_op: tests running one operator
Tool TestsForOpsTool();    // tests_for_ops: tests running all / any of several
Tool ShowTestTool();       // show_test: everything about one test
Tool ListOpsTool();        // list_ops: every operator with its coverage
Tool PlanTool();           // plan: CI splits from the index's and files' timings
Tool AdmitTool();          // admit: which tests a backend can run, and why not
Tool RankNextOpsTool();    // rank_next_ops: operators to enable next
Tool ConfigExplainTool();  // config_explain: the mode a test_suite_config gives each test
Tool DiffTool();           // diff: what a new version of the suite changes

}  // namespace testmap::mcp
