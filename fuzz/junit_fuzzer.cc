// JUnit XML (pytest's --junitxml, both families) through the timings reader.
#include "core/errors.h"
#include "fuzz/fuzz_input.h"
#include "timings/junit_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text = testmap::fuzz::Input(data, size);
  std::vector<testmap::timings::ProcessWall> walls;
  try {
    testmap::timings::ParseJUnitXml(text, "fuzz.xml", &walls);
  } catch (const testmap::core::InputError&) {
  }
  return 0;
}
