#include "mapper/plan/render.h"

#include <gtest/gtest.h>

#include <pugixml.hpp>
#include <set>
#include <sstream>

#include "mapper/plan/planner.h"
#include "plan_fixtures.h"

namespace testmap::plan {
namespace {

Plan SmallPlan() {
  std::vector<PlanTest> tests;
  for (int i = 0; i < 9; ++i)
    tests.push_back(testing::MakeTest("t.py::T::test_" + std::to_string(i), i + 1));
  tests[3].estimate = "siblings";
  PlanOptions options;
  options.splits = 3;
  return MakePlan(tests, options);
}

TEST(Render, NodeIdsListEveryTestExactlyOnce) {
  Plan plan = SmallPlan();
  std::multiset<std::string> seen;
  for (int k = 1; k <= 3; ++k) {
    std::ostringstream out;
    RenderNodeIds(plan, k, out);
    std::istringstream lines(out.str());
    for (std::string l; std::getline(lines, l);) seen.insert(l);
  }
  ASSERT_EQ(seen.size(), 9u);
  for (const auto& t : plan.tests) EXPECT_EQ(seen.count(t.id), 1u) << t.id;
}

TEST(Render, JsonAndGhaMatrix) {
  Plan plan = SmallPlan();
  nlohmann::json j = PlanToJson(plan, 0);
  EXPECT_EQ(j["splits"], 3);
  EXPECT_DOUBLE_EQ(j["lower_bound_seconds"].get<double>(), 15);
  EXPECT_EQ(j["estimated_tests"], 1);
  EXPECT_EQ(j["plan"].size(), 3u);
  std::ostringstream gha;
  RenderGhaMatrix(plan, gha);
  auto matrix = nlohmann::json::parse(gha.str());
  ASSERT_EQ(matrix["include"].size(), 3u);
  EXPECT_EQ(matrix["include"][2]["split"], 3);
  EXPECT_EQ(gha.str().find('\n'), gha.str().size() - 1);  // one line for $GITHUB_OUTPUT
}

TEST(Render, SvgIsWellFormedWithOneBarPerSplit) {
  Plan plan = SmallPlan();
  std::ostringstream svg;
  RenderSvg(plan, svg);
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(svg.str().c_str()));
  EXPECT_STREQ(doc.document_element().name(), "svg");
  EXPECT_EQ(doc.select_nodes("/svg/rect[title]").size(), 3u);
}

TEST(Render, TableNamesRatioAndEstimates) {
  std::ostringstream out;
  RenderTable(SmallPlan(), 0, out);
  EXPECT_NE(out.str().find("lower bound"), std::string::npos);
  EXPECT_NE(out.str().find("estimated: 1 of 9 tests"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace testmap::plan
