// The pytest plugin writes the trace format from inside pytest, so it holds
// the writer's copy of the name, version and roles; core/trace_format.h
// holds the one the readers use. They must agree.
#include <gtest/gtest.h>

#include "core/trace_format.h"
#include "tests/support/command.h"
#include "tests/support/temp_dir.h"

namespace testmap::tracer {
namespace {

TEST(TraceFormatAgreement, PluginWritesTheVersionTheReadersRead) {
  auto r = testing::Python(
      {"-c", "import testmap_trace as t; print(t.FORMAT_NAME, t.FORMAT_VERSION, *t.ROLES)"}, "",
      {{"PYTHONPATH", testing::SourcePath("tracer/python")}});
  ASSERT_EQ(r.rc, 0) << r.err;
  std::string expected =
      std::string(core::kTraceFormatName) + " " + std::to_string(core::kTraceFormatVersion);
  // Same roles, same order: the C++ recorder takes a role as its index.
  for (auto role : core::kRoles) expected += " " + std::string(role);
  EXPECT_EQ(r.out, expected + "\n");
}

}  // namespace
}  // namespace testmap::tracer
