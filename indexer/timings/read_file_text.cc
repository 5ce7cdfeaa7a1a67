#include "indexer/timings/read_file_text.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "indexer/timings/timing_error.h"

namespace testmap::indexer {

std::string ReadFileText(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw TimingError(path, 0, "is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TimingError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace testmap::indexer
