#include "analyzers/backend/clang/prelude_pch.h"

#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/TextDiagnosticBuffer.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <fstream>

namespace testmap::backend::clang_reader {
namespace {

// A PCH whose function bodies are skipped: the backend's units only need
// torch's declarations.
class SkippingPchAction : public clang::GeneratePCHAction {
 protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci,
                                                        llvm::StringRef file) override {
    ci.getFrontendOpts().SkipFunctionBodies = true;
    return clang::GeneratePCHAction::CreateASTConsumer(ci, file);
  }
};

}  // namespace

std::string BuildPreludePch(const std::vector<std::string>& arguments,
                            const std::vector<std::string>& headers, const std::string& directory,
                            const std::string& dir, int index) {
  if (arguments.empty() || headers.empty()) return "";
  std::string header = dir + "/prelude-" + std::to_string(index) + ".h";
  std::string pch = header + ".pch";
  {
    std::ofstream out(header);
    for (const auto& h : headers) out << "#include <" << h << ">\n";
    if (!out) return "";
  }
  std::vector<std::string> args{arguments.front(), "-resource-dir=" TESTMAP_CLANG_RESOURCE_DIR,
                                "-w", "-fno-spell-checking"};
  args.insert(args.end(), arguments.begin() + 1, arguments.end());
  args.insert(args.end(), {"-x", "c++-header", header, "-o", pch});
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs = llvm::vfs::createPhysicalFileSystem();
  fs->setCurrentWorkingDirectory(directory);
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(
      new clang::FileManager(clang::FileSystemOptions(), fs));
  clang::TextDiagnosticBuffer diagnostics;  // a failed prelude is not the backend's error
  clang::tooling::ToolInvocation invocation(args, std::make_unique<SkippingPchAction>(),
                                            files.get());
  invocation.setDiagnosticConsumer(&diagnostics);
  if (!invocation.run() || diagnostics.getNumErrors() > 0) return "";
  return pch;
}

}  // namespace testmap::backend::clang_reader
