// What every fuzz target shares: the bytes libFuzzer hands over as a
// string, and the one rule of the game. A parser may refuse input only with
// the error type of its contract (core::InputError for files, a Diagnostic
// or BadMessage where the API says so); anything else escaping, a crash, a
// leak or undefined behaviour is a finding (docs/reliability.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace testmap::fuzz {

inline std::string Input(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

}  // namespace testmap::fuzz
