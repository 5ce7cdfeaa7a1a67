#include "indexer/index/index_error.h"

namespace testmap::indexer {

IndexError::IndexError(const std::string& file, int line, const std::string& message)
    : std::runtime_error(file + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " +
                         message) {}

}  // namespace testmap::indexer
