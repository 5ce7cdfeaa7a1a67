// The record format (analyzers/backend/registration_json.h): what scan and
// dump write is what ReadRegistrations reads back, and bad input is named
// by file and line.
#include "analyzers/backend/registration_json.h"

#include <gtest/gtest.h>

#include <sstream>

#include "analyzers/backend/registration_output.h"

namespace tb = testmap::backend;

namespace {

tb::Registration Kernel() {
  tb::Registration r;
  r.op = "aten::add.Tensor";
  r.dispatch_key = "PrivateUse1";
  r.kind = tb::Kind::kKernel;
  r.mechanism = "m.impl";
  r.file = "csrc/math.cpp";
  r.line = 38;
  r.macro = "TOY_IMPL_OVERLOAD";
  r.kernel = "toy::add";
  return r;
}

tb::Registration Fallback() {
  tb::Registration r;
  r.dispatch_key = "AutocastPrivateUse1";
  r.kind = tb::Kind::kFallthrough;
  r.mechanism = "m.fallback";
  r.evidence = tb::Evidence::kRuntime;
  return r;
}

void ExpectSame(const tb::Registration& a, const tb::Registration& b) {
  EXPECT_EQ(a.Identity(), b.Identity());
  EXPECT_EQ(a.mechanism, b.mechanism);
  EXPECT_EQ(a.file, b.file);
  EXPECT_EQ(a.line, b.line);
  EXPECT_EQ(a.evidence, b.evidence);
  EXPECT_EQ(a.macro, b.macro);
  EXPECT_EQ(a.kernel, b.kernel);
  EXPECT_EQ(a.upper_bound, b.upper_bound);
  EXPECT_EQ(a.in_registry, b.in_registry);
}

TEST(RegistrationJson, CoreFieldsAlwaysPresentNullWhereNotApplicable) {
  nlohmann::ordered_json j = tb::ToJson(Fallback());
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"op", "dispatch_key", "kind", "mechanism", "file",
                                            "line", "evidence"}));
  EXPECT_TRUE(j["op"].is_null());
  EXPECT_TRUE(j["line"].is_null());
  EXPECT_EQ(j["kind"], "fallthrough");
  EXPECT_EQ(j["evidence"], "runtime");
}

TEST(RegistrationJson, JsonlAndJsonDocumentsReadBack) {
  tb::Registration up = Kernel();
  up.upper_bound = true;
  up.in_registry = false;
  tb::RecordSet set{{Kernel(), Fallback(), up}, {}, tb::Evidence::kStatic, "2.13.0", "/src"};
  for (auto format : {tb::RecordFormat::kJsonl, tb::RecordFormat::kJson}) {
    std::ostringstream out;
    tb::WriteRecords(set, format, out);
    std::istringstream in(out.str());
    std::vector<tb::Registration> back = tb::ReadRegistrations(in, "records");
    ASSERT_EQ(back.size(), 3u);
    for (size_t i = 0; i < 3; ++i) ExpectSame(back[i], set.records[i]);
  }
}

TEST(RegistrationJson, BadLinesNamedByFileAndLine) {
  std::istringstream in(tb::ToJson(Kernel()).dump() + "\n\n" +
                        R"({"op":"aten::abs","dispatch_key":"CPU","kind":"kernal",)"
                        R"("mechanism":"m.impl","file":null,"line":3,"evidence":"static"})" +
                        "\n");
  try {
    tb::ReadRegistrations(in, "caps.jsonl");
    FAIL() << "a misspelt kind was accepted";
  } catch (const tb::FormatError& e) {
    EXPECT_EQ(std::string(e.what()), "caps.jsonl:3: unknown kind \"kernal\"");
  }
}

TEST(RegistrationJson, ALastLineCutShortIsSkippedNotFatal) {
  std::string first = tb::ToJson(Kernel()).dump();
  std::istringstream in(first + "\n" + first.substr(0, first.size() / 2));
  std::vector<tb::Registration> back = tb::ReadRegistrations(in, "caps.jsonl");
  ASSERT_EQ(back.size(), 1u);
  ExpectSame(back[0], Kernel());
  // The same cut in the middle of the file is bad input.
  std::istringstream mid(first.substr(0, first.size() / 2) + "\n" + first + "\n");
  EXPECT_THROW(tb::ReadRegistrations(mid, "caps.jsonl"), tb::FormatError);
}

TEST(RegistrationJson, RecordsMissingWhatTheirKindNeedsAreRejected) {
  nlohmann::json no_op = tb::ToJson(Kernel());
  no_op["op"] = nullptr;
  EXPECT_THROW(tb::FromJson(no_op), std::invalid_argument);
  nlohmann::json no_key = tb::ToJson(Kernel());
  no_key["dispatch_key"] = nullptr;
  EXPECT_THROW(tb::FromJson(no_key), std::invalid_argument);
  nlohmann::json bad_line = tb::ToJson(Kernel());
  bad_line["line"] = "38";
  EXPECT_THROW(tb::FromJson(bad_line), std::invalid_argument);
  std::istringstream doc(R"({"format": "other/1", "records": []})");
  EXPECT_THROW(tb::ReadRegistrations(doc, "x.json"), tb::FormatError);
}

}  // namespace
