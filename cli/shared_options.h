// Options several commands share, spelled and documented once:
// --index (the index directory), --format (output format).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <string>
#include <vector>

namespace testmap::cli {

// `.testmap/` in the current directory unless told otherwise
// (TESTMAP_INDEX, then --index).
inline std::string DefaultIndexDir() {
  const char* env = std::getenv("TESTMAP_INDEX");
  return env && *env ? env : ".testmap";
}

inline CLI::Option* AddIndexOption(CLI::App* cmd, std::string& dir) {
  dir = DefaultIndexDir();
  return cmd->add_option("--index", dir, "Index directory (default .testmap, or $TESTMAP_INDEX)")
      ->capture_default_str();
}

// --format with the formats a command offers; the first is the default.
inline CLI::Option* AddFormatOption(CLI::App* cmd, std::string& format,
                                    const std::vector<std::string>& formats) {
  format = formats.front();
  std::string list;
  for (const auto& f : formats) list += (list.empty() ? "" : ", ") + f;
  return cmd->add_option("--format", format, "Output format: " + list)
      ->capture_default_str()
      ->check(CLI::IsMember(formats));
}

}  // namespace testmap::cli
