// The calls a TORCH_LIBRARY* block makes on its torch::Library: m.impl,
// m.def and m.fallback, also inside helper functions the block hands the
// library to (followed when defined in the same translation unit).
#pragma once

#include <clang/AST/Decl.h>

#include <string>

#include "analyzers/backend/clang/reader_context.h"

namespace testmap::backend::clang_reader {

struct LibraryScope {
  std::string kind;  // DEF (TORCH_LIBRARY), FRAGMENT, IMPL
  std::string ns;    // `aten`, `toy`, `_` for fallbacks
  std::string key;   // IMPL blocks: the dispatch key; empty otherwise
};

// Records every registration `fn`'s body makes on its Library parameter.
void ReadLibraryFunction(const clang::FunctionDecl* fn, const LibraryScope& scope,
                         ReaderContext& ctx);

}  // namespace testmap::backend::clang_reader
