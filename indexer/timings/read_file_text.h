// Whole-file reads shared by the timing readers.
#pragma once

#include <string>

namespace testmap::indexer {

// The bytes of `path`; throws TimingError naming the path if it cannot be
// opened (missing file, directory, permissions).
std::string ReadFileText(const std::string& path);

}  // namespace testmap::indexer
