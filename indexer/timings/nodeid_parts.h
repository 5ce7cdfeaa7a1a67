// Splitting pytest node ids into file, class and test name, and the file key
// that lines timings of different formats up ("test/test_nn.py" and
// test-times.json's "test_nn" differ only by what FileKey removes).
#pragma once

#include <string>
#include <string_view>

namespace testmap::indexer {

struct NodeIdParts {
  std::string path;  // "test_ops.py" or "inductor/test_x.py" (as written)
  std::string cls;   // "TestCommonCPU", "Outer::Inner" for nested, or empty
  std::string name;  // "test_out_cpu_float32[param]", or empty for a bare path
};

// "a/test_x.py::TestA::test_b[1]" -> {"a/test_x.py", "TestA", "test_b[1]"}.
// "::" inside the parameter brackets is left alone.
NodeIdParts SplitNodeId(std::string_view nodeid);

// The path without a trailing ".py": "inductor/test_x.py" -> "inductor/test_x".
std::string FileKey(std::string_view path);

}  // namespace testmap::indexer
