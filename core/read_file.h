// Reading a whole input file, with the checks every reader needs before it
// allocates: a directory, a missing or unreadable file, or a file past the
// size limit is an InputError naming the path, never a crash or a
// half-read answer.
#pragma once

#include <cstdint>
#include <string>

namespace testmap::core {

// The default limit on one input file (trace shards, timings, scans):
// 4 GiB. Inputs past it are refused before anything is read.
inline constexpr uint64_t kDefaultMaxInputBytes = uint64_t{4} << 30;

// The bytes of `path`. Throws core::InputError when it cannot be read or
// holds more than `max_bytes`, or when it is a stream (a pipe, a device)
// that holds a NUL byte (no text format has one).
std::string ReadInputFile(const std::string& path, uint64_t max_bytes = kDefaultMaxInputBytes);

}  // namespace testmap::core
