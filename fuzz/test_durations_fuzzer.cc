// pytest-split's .test_durations (both the object and the old list form).
#include "core/errors.h"
#include "fuzz/fuzz_input.h"
#include "timings/durations_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text = testmap::fuzz::Input(data, size);
  try {
    testmap::timings::ParseTestDurations(text, ".test_durations");
  } catch (const testmap::core::InputError&) {
  }
  return 0;
}
