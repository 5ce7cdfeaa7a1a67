// The pytest plugin writes the trace format from inside pytest, so it holds
// the writer's copy of the name and version; core/trace_format.h holds the
// one the readers use. They must agree.
#include <gtest/gtest.h>

#include "core/trace_format.h"
#include "tests/support/command.h"
#include "tests/support/temp_dir.h"

namespace testmap::tracer {
namespace {

TEST(TraceFormatAgreement, PluginWritesTheVersionTheReadersRead) {
  auto r =
      testing::Python({"-c", "import testmap_trace as t; print(t.FORMAT_NAME, t.FORMAT_VERSION)"},
                      "", {{"PYTHONPATH", testing::SourcePath("tracer/python")}});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, std::string(core::kTraceFormatName) + " " +
                       std::to_string(core::kTraceFormatVersion) + "\n");
}

}  // namespace
}  // namespace testmap::tracer
