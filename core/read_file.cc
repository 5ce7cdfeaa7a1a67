#include "core/read_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/errors.h"

namespace testmap::core {

std::string ReadInputFile(const std::string& path, uint64_t max_bytes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  auto status = fs::status(path, ec);
  if (fs::is_directory(status)) throw InputError(path, 0, "is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  // Regular files have a size to check first; pipes and devices are read
  // in chunks up to the limit (`ingest /dev/zero` must stop, not grow).
  std::string text;
  if (fs::is_regular_file(status)) {
    uint64_t size = fs::file_size(path, ec);
    if (!ec && size > max_bytes)
      throw InputError(path, 0,
                       "is " + std::to_string(size) + " bytes, more than the input limit of " +
                           std::to_string(max_bytes) + " bytes");
    if (!ec) text.reserve(size);
  }
  // A stream (a pipe, a device) has no size to check first. Every format
  // testmap reads is text, which never holds a NUL byte: a stream that
  // does (`ingest /dev/zero`) is refused at its first chunk instead of
  // after gigabytes.
  const bool stream = !fs::is_regular_file(status);
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    if (text.size() + static_cast<uint64_t>(in.gcount()) > max_bytes)
      throw InputError(
          path, 0, "holds more than the input limit of " + std::to_string(max_bytes) + " bytes");
    if (stream) {
      if (const void* nul = std::memchr(buf, 0, static_cast<size_t>(in.gcount())))
        throw InputError(path, 0,
                         "holds a NUL byte at offset " +
                             std::to_string(text.size() + (static_cast<const char*>(nul) - buf)) +
                             ": not a text file");
    }
    text.append(buf, static_cast<size_t>(in.gcount()));
  }
  if (in.bad()) throw InputError(path, 0, std::string("read error: ") + std::strerror(errno));
  return text;
}

}  // namespace testmap::core
