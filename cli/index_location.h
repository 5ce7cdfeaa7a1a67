// The --index option shared by the index commands: `.testmap/` in the
// current directory unless told otherwise (TESTMAP_INDEX, then --index).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <string>

namespace testmap::cli {

inline std::string DefaultIndexDir() {
  const char* env = std::getenv("TESTMAP_INDEX");
  return env && *env ? env : ".testmap";
}

inline CLI::Option* AddIndexOption(CLI::App* cmd, std::string& dir) {
  dir = DefaultIndexDir();
  return cmd->add_option("--index", dir, "Index directory (default .testmap, or $TESTMAP_INDEX)")
      ->capture_default_str();
}

}  // namespace testmap::cli
