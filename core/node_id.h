// Test identity: the pytest node id, exactly as `pytest --collect-only -q`
// prints it (`test/test_ops.py::TestCommonCPU::test_out_add_cpu_float32`,
// `test_x.py::test_f[1-a]`), split once into its parts; and the file key
// that lines up the ways other sources name a test file.
//
// One file identity joins every source that names a PyTorch test file:
// pytest ids (rootdir-relative: `test/test_nn.py` from PyTorch's root, where
// its pytest.ini is, or `test_nn.py` run from test/), test-times.json keys
// (relative to test/, without ".py": `test_nn`), config paths
// (`${TORCH_ROOT}/test/test_nn.py`, after the root token) and JUnit
// classnames (`test.test_nn.TestNN`). TestFileIdentity() maps all of them to
// one key; nothing else in testmap decides when two spellings name a file.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace testmap::core {

struct NodeId {
  std::string path;  // "test_ops.py" or "inductor/test_x.py" (as written)
  std::string cls;   // "TestCommonCPU", "Outer::Inner" for nested, or empty
  std::string name;  // "test_out_cpu_float32[param]", or empty for a bare path

  // "a/test_x.py::TestA::test_b[1]" -> {"a/test_x.py", "TestA", "test_b[1]"}.
  // "::" inside the parameter brackets is left alone.
  static NodeId Parse(std::string_view nodeid);
};

// The path without a trailing ".py": "inductor/test_x.py" ->
// "inductor/test_x", the way PyTorch's test-times.json names files.
std::string FileKey(std::string_view path);

// The canonical identity of a test file from any of its spellings: without
// a leading "./", PyTorch's "test/" folder and ".py" ("test/inductor/
// test_x.py", "inductor/test_x.py", "./test/inductor/test_x" ->
// "inductor/test_x"). Globs keep their wildcards ("test/test_*.py" ->
// "test_*").
std::string TestFileIdentity(std::string_view path);

// The file keys (FileKey) under which a file is known: itself and, when it
// differs, its identity ("test/test_nn" -> {"test/test_nn", "test_nn"}).
std::vector<std::string> FileKeyAliases(std::string_view file_key);

// The module a JUnit classname names for `path` ("test/test_nn.py" ->
// "test.test_nn"): pytest's junitxml writes the node id's path with dots.
std::string JUnitModule(std::string_view path);

// A guess at the generic test behind an instantiated node id from its name
// alone: device and dtype suffixes and @parametrize brackets removed, the
// device class suffix dropped ("test_ops.py::TestCommonCPU::
// test_out_add_cpu_float32" -> "test_ops.py::TestCommon::test_out_add").
// For grouping siblings where no scan says better (timing estimates); the
// scan's generic_id is the identity.
std::string GuessGenericId(std::string_view nodeid);

}  // namespace testmap::core
