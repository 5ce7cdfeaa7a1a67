// Schema parsing (analyzers/backend/schema_registry.h) against torch's own
// parser: every schema torch 2.13 knows, parsed from its string form, has
// the arguments, returns and flags torch._C.FunctionSchema reports.
#include "analyzers/backend/schema_registry.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/command.h"

namespace tb = testmap::backend;
using testmap::testing::Python;

namespace {

const char* kTruth = R"PY(
import json, torch
def arg(a):
    return [a.name, str(a.type), a.is_out, a.kwarg_only,
            a.alias_info is not None and a.alias_info.is_write, a.alias_info is not None]
print(json.dumps([[str(s), s.name, s.overload_name, [arg(a) for a in s.arguments],
                   [arg(r) for r in s.returns], s.is_mutable]
                  for s in torch._C._jit_get_all_schemas()]))
)PY";

nlohmann::json ArgJson(const tb::SchemaArgument& a, bool with_name) {
  return {with_name ? a.name : "", a.type, a.is_out, a.kwarg_only, a.is_write, a.has_alias};
}

TEST(SchemaRegistry, ParsesEverySchemaAsTorchDoes) {
  auto r = Python({"-c", kTruth});
  ASSERT_EQ(r.rc, 0) << r.err;
  nlohmann::json truth = nlohmann::json::parse(r.out);
  ASSERT_GT(truth.size(), 3000u);
  size_t mismatches = 0;
  for (const auto& t : truth) {
    tb::OpSchema s;
    std::string text = t[0];
    ASSERT_TRUE(tb::ParseSchema(text, &s)) << text;
    nlohmann::json args = nlohmann::json::array(), rets = nlohmann::json::array();
    for (const auto& a : s.arguments) args.push_back(ArgJson(a, true));
    for (const auto& a : s.returns) rets.push_back(ArgJson(a, true));
    nlohmann::json want_rets = t[4];
    bool same = s.name == t[1] && s.overload == t[2] && args == t[3] && rets == want_rets &&
                s.is_mutable == t[5].get<bool>();
    if (!same && ++mismatches <= 5)
      ADD_FAILURE() << text << "\n  parsed:  " << args.dump() << " -> " << rets.dump()
                    << "\n  torch:   " << t[3].dump() << " -> " << want_rets.dump();
  }
  EXPECT_EQ(mismatches, 0u);
}

TEST(SchemaRegistry, RejectsTextThatIsNoSchema) {
  tb::OpSchema s;
  EXPECT_FALSE(tb::ParseSchema("aten::add.Tensor", &s));
  EXPECT_FALSE(tb::ParseSchema("aten::add(Tensor self", &s));
}

}  // namespace
