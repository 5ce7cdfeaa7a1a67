// The baseline a user reaches for to list a backend's registrations with
// Clang: the LibTooling tutorial's ClangTool over every file, full parses
// with torch's headers, one AST matcher for torch::Library's impl / def /
// fallback calls over the whole AST. Prints one line per call found.
//
// Usage: backend_naive_clang_tool FILE... -- COMPILE FLAGS...
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>

#include <iostream>

using namespace clang;
using namespace clang::ast_matchers;

namespace {

class Printer : public MatchFinder::MatchCallback {
 public:
  void run(const MatchFinder::MatchResult& result) override {
    const auto* call = result.Nodes.getNodeAs<CXXMemberCallExpr>("call");
    const SourceManager& sm = *result.SourceManager;
    SourceLocation loc = sm.getExpansionLoc(call->getBeginLoc());
    std::cout << sm.getFilename(loc).str() << ":" << sm.getExpansionLineNumber(loc) << ": "
              << call->getMethodDecl()->getNameAsString() << "\n";
    ++count;
  }
  int count = 0;
};

}  // namespace

int main(int argc, const char** argv) {
  std::vector<std::string> files, flags;
  bool in_flags = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--" && !in_flags) {
      in_flags = true;
      continue;
    }
    (in_flags ? flags : files).push_back(a);
  }
  flags.push_back("-resource-dir=" TESTMAP_CLANG_RESOURCE_DIR);
  flags.push_back("-w");
  tooling::FixedCompilationDatabase db(".", flags);
  tooling::ClangTool tool(db, files);
  tool.setDiagnosticConsumer(new IgnoringDiagConsumer());
  Printer printer;
  MatchFinder finder;
  finder.addMatcher(cxxMemberCallExpr(callee(cxxMethodDecl(hasAnyName("impl", "def", "fallback"),
                                                           ofClass(hasName("::torch::Library")))))
                        .bind("call"),
                    &printer);
  int rc = tool.run(tooling::newFrontendActionFactory(&finder).get());
  std::cerr << printer.count << " registration calls in " << files.size() << " files\n";
  return rc;
}
