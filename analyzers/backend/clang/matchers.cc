#include "analyzers/backend/clang/matchers.h"

namespace testmap::backend::clang_reader {

void RunMatchers(clang::ASTContext& ast, ReaderContext& ctx) {
  clang::ast_matchers::MatchFinder finder;
  Callbacks owned;
  AddLibraryBlockMatcher(finder, ctx, owned);
  AddDispatchStubMatcher(finder, ctx, owned);
  AddHookMatchers(finder, ctx, owned);
  finder.matchAST(ast);
}

}  // namespace testmap::backend::clang_reader
