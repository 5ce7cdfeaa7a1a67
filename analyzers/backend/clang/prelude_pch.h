// One precompiled header of what most of a backend's translation units
// include (torch's ATen/ATen.h, torch/library.h...), built once per run with
// function bodies skipped and used by every unit with the same flags: each
// unit then parses in a fraction of a second instead of re-reading torch's
// headers. A prelude that does not build is simply not used.
#pragma once

#include <string>
#include <vector>

namespace testmap::backend::clang_reader {

// Builds a PCH of `headers` with the compile flags `arguments` (a unit's
// command with its file left out) in `dir`. Returns its path, or "" when it
// could not be built.
std::string BuildPreludePch(const std::vector<std::string>& arguments,
                            const std::vector<std::string>& headers, const std::string& directory,
                            const std::string& dir, int index);

}  // namespace testmap::backend::clang_reader
