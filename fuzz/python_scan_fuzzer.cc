// One Python source file through the static scan (tree-sitter parse,
// module model, collection), without a torch snapshot: what `testmap scan`
// does to each file it finds. It never throws on bad input; an unreadable
// module comes back skipped.
#include "analyzers/python/file_scanner.h"
#include "analyzers/python/python_parser.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static auto parser = testmap::python::NewPythonParser();
  std::string source = testmap::fuzz::Input(data, size);
  testmap::python::CollectOptions options;
  auto no_snapshot = []() -> const testmap::torch_snapshot::TorchSnapshot* { return nullptr; };
  auto scan =
      testmap::python::ScanPythonSource(parser.get(), "test_fuzz.py", source, no_snapshot, options);
  (void)scan;
  return 0;
}
