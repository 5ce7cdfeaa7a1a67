// Ways to print a plan. `split` restricts output to one split (1-based;
// 0 = all); callers validate it against plan.splits.size().
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "mapper/plan/plan.h"

namespace testmap::plan {

// Human table: one row per split, then the lower bound, the ratio to it and
// what is estimated. With `split`, that split's items too.
void RenderTable(const Plan& plan, int split, std::ostream& out);

// The whole plan (or one split) as one JSON document.
nlohmann::json PlanToJson(const Plan& plan, int split);

// One JSON object per item a line: {"split", "label", "seconds", ...}.
void RenderJsonl(const Plan& plan, int split, std::ostream& out);

// A GitHub Actions strategy.matrix value, on one line for $GITHUB_OUTPUT:
// {"include": [{"split": 1, "splits": N, "group": ..., "predicted_seconds":
// ...}, ...]}. Each job then asks for its items with --format nodeids
// --split ${{ matrix.split }}.
void RenderGhaMatrix(const Plan& plan, std::ostream& out);

// The items of `split` (all splits when 0), one label a line, spelled as in
// the timing input.
void RenderNodeIds(const Plan& plan, int split, std::ostream& out);

// A self-contained SVG: one bar per split (measured part solid, estimated
// part hatched), the lower bound and the --max-minutes limit as lines.
void RenderSvg(const Plan& plan, std::ostream& out);

}  // namespace testmap::plan
