// Compile commands for the Clang reader: from a build's
// compile_commands.json (`-p BUILD_DIR`) when there is one, else defaults
// that parse a typical torch extension: the C++ standard and include paths
// of the torch it builds against (torch.utils.cpp_extension), Python's
// headers (for torch/extension.h) and the backend's own include folders.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analyzers/backend/clang_protocol.h"
#include "analyzers/backend/torch_probe.h"

namespace testmap::backend {

class CompileCommands {
 public:
  // Reads BUILD_DIR/compile_commands.json. Throws std::runtime_error naming
  // the file when it is missing or malformed.
  static CompileCommands FromBuildDir(const std::string& build_dir);
  CompileCommands() = default;

  // The command for `file` (absolute), if the database has one.
  const CompileUnit* Find(const std::string& file) const;
  size_t size() const { return units_.size(); }

 private:
  std::map<std::string, CompileUnit> units_;
};

// The default command for a file: `clang++ -std=<torch's> -isystem <torch
// includes> -isystem <python> -I<include dirs> file`.
CompileUnit DefaultCompileUnit(const std::string& file, const TorchProbe& torch,
                               const std::vector<std::string>& include_dirs);

// The backend's own include folders: for every `#include "a/b.h"` (or
// <a/b.h>) in `texts` that names one of `headers` (absolute paths), the
// folder it is relative to; plus each root. Sorted.
std::vector<std::string> BackendIncludeDirs(const std::vector<std::string>& roots,
                                            const std::vector<std::string>& headers,
                                            const std::vector<std::string_view>& texts);

// The names `#include "..."` and `#include <...>` lines of `text` name, in order.
std::vector<std::string> IncludedNames(std::string_view text);

// Splits a compile command line as a POSIX shell would (quotes, escapes).
std::vector<std::string> SplitCommandLine(const std::string& command);

}  // namespace testmap::backend
