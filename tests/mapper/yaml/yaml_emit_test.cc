// `--format yaml`: what yaml_emit writes reads back (with yaml-cpp, an
// independent reader of YAML) as the same document, with every string a
// string, however much it looks like a number, a bool or null.
#include "mapper/yaml/yaml_emit.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <sstream>

namespace testmap::yaml {
namespace {

using nlohmann::json;

// Reads YAML back into JSON: double-quoted scalars are strings, plain ones
// numbers, bools or null.
json FromYaml(const YAML::Node& n) {
  if (n.IsMap()) {
    json j = json::object();
    for (const auto& kv : n) j[kv.first.Scalar()] = FromYaml(kv.second);
    return j;
  }
  if (n.IsSequence()) {
    json j = json::array();
    for (const auto& v : n) j.push_back(FromYaml(v));
    return j;
  }
  if (n.IsNull()) return nullptr;
  if (n.Tag() == "!") return n.Scalar();  // quoted: a string
  return json::parse(n.Scalar());         // plain: a number or a bool
}

TEST(YamlEmitTest, ReadsBackAsTheSameDocument) {
  json doc = {{"ops", {"aten::add.Tensor", "true", "1.5", "null", "~", "- x", "a: b", "#c"}},
              {"count", 1},
              {"ratio", 0.25},
              {"ok", false},
              {"nothing", nullptr},
              {"empty", json::array()},
              {"nested", {{"dtypes", json::array({json::array({"float32", "int64"})})}}},
              {"quote\"key", "line\nbreak"}};
  std::ostringstream out;
  EmitYaml(doc, out);
  EXPECT_TRUE(out.str().starts_with("---\n")) << out.str();
  EXPECT_EQ(FromYaml(YAML::Load(out.str())), doc) << out.str();
}

TEST(YamlEmitTest, ShortListsFlowAndMapsNest) {
  std::ostringstream out;
  EmitYaml({{"a", {{"b", {"x", "y"}}}}}, out);
  EXPECT_EQ(out.str(), "---\n\"a\":\n  \"b\": [\"x\", \"y\"]\n");
}

}  // namespace
}  // namespace testmap::yaml
