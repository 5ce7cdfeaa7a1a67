// The AST matchers of the Clang reader, one concept per file (as in
// clang-tidy's check modules), registered in one place: matchers.cc.
//   library_block_matcher.cc  TORCH_LIBRARY / _FRAGMENT / _IMPL blocks and
//                             the m.impl/m.def/m.fallback calls they make
//   dispatch_stub_matcher.cc  REGISTER_*_DISPATCH (DispatchStub entries)
//   hook_matcher.cc           hooks, guards, allocators, generators
#pragma once

#include <clang/ASTMatchers/ASTMatchFinder.h>

#include <memory>
#include <vector>

#include "analyzers/backend/clang/reader_context.h"

namespace testmap::backend::clang_reader {

using Callbacks = std::vector<std::unique_ptr<clang::ast_matchers::MatchFinder::MatchCallback>>;

void AddLibraryBlockMatcher(clang::ast_matchers::MatchFinder& finder, ReaderContext& ctx,
                            Callbacks& owned);
void AddDispatchStubMatcher(clang::ast_matchers::MatchFinder& finder, ReaderContext& ctx,
                            Callbacks& owned);
void AddHookMatchers(clang::ast_matchers::MatchFinder& finder, ReaderContext& ctx,
                     Callbacks& owned);

// Runs every matcher over the declarations in the AST's traversal scope.
void RunMatchers(clang::ASTContext& ast, ReaderContext& ctx);

}  // namespace testmap::backend::clang_reader
