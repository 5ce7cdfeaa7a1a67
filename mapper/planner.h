// `testmap plan`'s engine: items into splits, per feature group, for a
// fixed count or the fewest under a duration, with per-split processes.
#pragma once

#include <stdexcept>
#include <string>

#include "mapper/plan.h"

namespace testmap::mapper {

// A plan that cannot be made as asked (an item longer than --max-minutes
// allows, fewer splits than groups...). The message says what to change.
class PlanError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Places `tests` (from BuildPlanTests) under `options`. Deterministic: the
// same tests in any order give the same plan. Throws PlanError.
Plan MakePlan(std::vector<PlanTest> tests, const PlanOptions& options);

}  // namespace testmap::mapper
