// From tests to placement items: grouping by granularity and keep-together,
// feature groups, cutting items too long for one split, file overhead.
#pragma once

#include <vector>

#include "mapper/plan/known_tests.h"
#include "mapper/plan/plan.h"

namespace testmap::plan {

// Builds plan.items from plan.tests and plan.options; `known` supplies the
// test ids of files timed only as a whole (see PlanOptions::equal_pieces).
// Items come out sorted by (group, first label): a canonical order that makes
// planning independent of input order. Throws PlanError (planner.h) when
// cutting would make more than kMaxCutPieces pieces.
void BuildPlanItems(Plan& plan, const KnownTests& known);

// The feature group of `test` under `options` ("" when not grouping).
std::string FeatureOf(const PlanTest& test, const PlanOptions& options);

}  // namespace testmap::plan
