// A backend's test_suite_config YAML through the config reader, which
// reports every problem as a Diagnostic (core::InputError for limits).
#include "core/errors.h"
#include "fuzz/fuzz_input.h"
#include "mapper/config/config_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text = testmap::fuzz::Input(data, size);
  try {
    auto result = testmap::config::ParseConfig(text, "fuzz.yaml");
    (void)result;
    testmap::config::ReadOptions strict;
    strict.strict = true;
    (void)testmap::config::ParseConfig(text, "fuzz.yaml", strict);
  } catch (const testmap::core::InputError&) {
  }
  return 0;
}
