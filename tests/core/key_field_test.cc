// What may stand in a key field or an edge value item (core/key_field.h):
// the bytes that would split a key or a value when it is read back are
// refused, with the reason and where.
#include "core/key_field.h"

#include <gtest/gtest.h>

#include "core/errors.h"

namespace testmap::core {
namespace {

TEST(KeyField, AcceptsRealIdsAndNames) {
  for (std::string_view s :
       {"test/test_ops.py::TestCommonCPU::test_out_cpu_float32", "aten::add", "Tensor",
        "test_x.py::test_param[caf\xc3\xa9-1]", "pkg/test_sample.py::test_param[a b]"}) {
    EXPECT_EQ(KeyFieldProblem(s), std::nullopt) << s;
  }
  EXPECT_EQ(ValueItemProblem("float8_e4m3fn"), std::nullopt);
  EXPECT_EQ(ValueItemProblem(""), std::nullopt);  // no device
}

TEST(KeyField, RefusesSeparatorsAndControlBytes) {
  using namespace std::string_literals;
  EXPECT_EQ(KeyFieldProblem("a\0b"s), "holds the control character 0x00 at byte 1");
  EXPECT_EQ(KeyFieldProblem("a\tb"), "holds the control character 0x09 at byte 1");
  EXPECT_EQ(KeyFieldProblem("a\nb"), "holds the control character 0x0a at byte 1");
  EXPECT_EQ(KeyFieldProblem("ab\x7f"), "holds the control character 0x7f at byte 2");
  EXPECT_EQ(ValueItemProblem("float32,int64"), "holds a ',' at byte 7");
  EXPECT_EQ(KeyFieldProblem(""), "is empty");
  EXPECT_EQ(KeyFieldProblem("", /*allow_empty=*/true), std::nullopt);
}

TEST(KeyField, RefusesInvalidUtf8) {
  EXPECT_EQ(KeyFieldProblem("ok\xff"), "is not valid UTF-8 at byte 2");
  EXPECT_EQ(KeyFieldProblem("\xc0\xaf"), "is not valid UTF-8 at byte 0");       // overlong '/'
  EXPECT_EQ(KeyFieldProblem("x\xed\xa0\x80"), "is not valid UTF-8 at byte 1");  // surrogate
  EXPECT_EQ(KeyFieldProblem("\xe2\x82"), "is not valid UTF-8 at byte 0");       // cut short
  EXPECT_EQ(FirstInvalidUtf8("\xf0\x9f\x98\x80 emoji"), std::nullopt);
}

TEST(KeyField, RefusesFieldsPastTheLimit) {
  EXPECT_EQ(KeyFieldProblem(std::string(kMaxKeyFieldBytes, 'a')), std::nullopt);
  EXPECT_EQ(KeyFieldProblem(std::string(kMaxKeyFieldBytes + 1, 'a')),
            "is 8193 bytes, over the limit of 8192 bytes");
}

TEST(KeyField, ErrorsNameFileLineAndShowTheFieldEscaped) {
  using namespace std::string_literals;
  try {
    CheckKeyField("t.py::test_\0x"s, "node id", "s.jsonl", 7);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "s.jsonl");
    EXPECT_EQ(e.line(), 7);
    EXPECT_EQ(std::string(e.what()),
              "s.jsonl:7: node id `t.py::test_\\x00x` holds the control character 0x00 at byte 11");
  }
  EXPECT_THROW(CheckValueItem("a,b", "dtype", "s.jsonl", 2), InputError);
}

}  // namespace
}  // namespace testmap::core
