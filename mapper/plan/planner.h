// `testmap plan`'s engine: items into splits, per feature group, for a
// fixed count or the fewest under a duration, with per-split processes.
#pragma once

#include <string>

#include "core/errors.h"
#include "mapper/plan/known_tests.h"
#include "mapper/plan/plan.h"

namespace testmap::plan {

// A plan that cannot be made as asked (an item longer than --max-minutes
// allows, fewer splits than groups...): a usage error (exit 2) whose
// message says what to change.
class PlanError : public core::UsageError {
 public:
  using core::UsageError::UsageError;
};

// Places `tests` (from BuildPlanTests) under `options`; `known` names the
// test ids of files timed only as a whole, for plans without equal pieces.
// Deterministic: the same tests in any order give the same plan. Throws
// PlanError.
Plan MakePlan(std::vector<PlanTest> tests, const PlanOptions& options,
              const KnownTests& known = KnownTests());

}  // namespace testmap::plan
