#include "analyzers/backend/clang/unit_reader.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/DeclCXX.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <algorithm>
#include <chrono>

#include "analyzers/backend/clang/ast_values.h"
#include "analyzers/backend/clang/matchers.h"
#include "analyzers/backend/clang/reader_context.h"

namespace testmap::backend::clang_reader {
namespace {

using namespace clang;

constexpr size_t kMaxErrorsPerUnit = 10;

std::string Absolute(const std::string& path, const std::string& dir) {
  llvm::SmallString<256> p(path);
  if (!llvm::sys::path::is_absolute(p)) {
    llvm::SmallString<256> base(dir);
    llvm::sys::path::append(base, p);
    p = base;
  }
  llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
  return std::string(p);
}

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Byte offsets in `text` where one of `words` occurs as a whole word.
std::vector<size_t> WordOffsets(llvm::StringRef text, const std::vector<std::string>& words) {
  std::vector<size_t> out;
  for (const auto& w : words) {
    for (size_t at = text.find(w); at != llvm::StringRef::npos; at = text.find(w, at + 1)) {
      bool left = at == 0 || !IsWordChar(text[at - 1]);
      bool right = at + w.size() >= text.size() || !IsWordChar(text[at + w.size()]);
      if (left && right) out.push_back(at);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The end of the brace-balanced block opening at text[open] ('{'),
// skipping comments and string/char literals; npos when unbalanced.
size_t MatchingBrace(llvm::StringRef text, size_t open) {
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    char c = text[i];
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == llvm::StringRef::npos) return i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      i = text.find("*/", i + 2);
      if (i == llvm::StringRef::npos) return i;
      ++i;
    } else if (c == '"' || c == '\'') {
      for (++i; i < text.size() && text[i] != c; ++i)
        if (text[i] == '\\') ++i;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}' && --depth == 0) {
      return i;
    }
  }
  return llvm::StringRef::npos;
}

class Diagnostics : public DiagnosticConsumer {
 public:
  Diagnostics(const CompileUnit& unit, std::vector<Diagnostic>* out) : unit_(unit), out_(out) {}

  void HandleDiagnostic(DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < DiagnosticsEngine::Error) return;
    if (out_->size() >= kMaxErrorsPerUnit) return;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    Diagnostic d{Diagnostic::Severity::kError, unit_.file, 0, std::string(message)};
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const SourceManager& sm = info.getSourceManager();
      PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(info.getLocation()));
      if (p.isValid()) {
        d.file = Absolute(p.getFilename(), unit_.directory);
        d.line = static_cast<int>(p.getLine());
      }
    }
    if (d.file != unit_.file) d.message += " (while reading " + unit_.file + ")";
    out_->push_back(std::move(d));
  }

 private:
  const CompileUnit& unit_;
  std::vector<Diagnostic>* out_;
};

class ReadConsumer : public ASTConsumer {
 public:
  ReadConsumer(CompilerInstance& ci, const ClangRequest& request, UnitResult* out)
      : sm_(ci.getSourceManager()), ctx_(sm_, ci.getLangOpts(), request.roots), out_(out) {
    main_text_ = sm_.getBufferData(sm_.getMainFileID());
    triggers_ = WordOffsets(main_text_, request.body_triggers);
  }

  bool HandleTopLevelDecl(DeclGroupRef group) override {
    for (Decl* d : group)
      if (ctx_.IsOwn(d->getLocation())) scope_.push_back(d);
    return true;
  }

  // Called for every function body when bodies may be skipped. Keep the
  // bodies registrations can live in: functions handed a torch::Library,
  // and main-file functions whose text names a registration API.
  bool shouldSkipFunctionBody(Decl* d) override {
    if (!ctx_.IsOwn(d->getLocation())) return true;
    if (const FunctionDecl* fd = d->getAsFunction())
      for (const ParmVarDecl* p : fd->parameters())
        if (IsLibrary(p->getType())) return false;
    SourceLocation loc = d->getLocation();
    if (loc.isMacroID()) return false;  // written by a macro: its text is not at hand
    if (sm_.getFileID(loc) != sm_.getMainFileID()) return true;
    size_t at = sm_.getFileOffset(loc);
    size_t open = main_text_.find('{', at);
    size_t close = open == llvm::StringRef::npos ? open : MatchingBrace(main_text_, open);
    if (close == llvm::StringRef::npos) return false;
    auto t = std::lower_bound(triggers_.begin(), triggers_.end(), open);
    return t == triggers_.end() || *t > close;
  }

  void HandleTranslationUnit(ASTContext& ast) override {
    ast.setTraversalScope(scope_);
    RunMatchers(ast, ctx_);
    out_->records = std::move(ctx_.records());
    for (auto& d : ctx_.diagnostics()) out_->diagnostics.push_back(std::move(d));
    for (auto it = sm_.fileinfo_begin(); it != sm_.fileinfo_end(); ++it) {
      llvm::StringRef real = it->first->tryGetRealPathName();
      std::string path = real.empty() ? it->first->getName().str() : real.str();
      if (path != out_->file && ctx_.IsOwnPath(path)) out_->deps.push_back(path);
    }
    std::sort(out_->deps.begin(), out_->deps.end());
  }

 private:
  SourceManager& sm_;
  ReaderContext ctx_;
  UnitResult* out_;
  std::vector<Decl*> scope_;
  llvm::StringRef main_text_;
  std::vector<size_t> triggers_;
};

class ReadAction : public ASTFrontendAction {
 public:
  ReadAction(const ClangRequest& request, UnitResult* out) : request_(request), out_(out) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& ci, llvm::StringRef) override {
    ci.getFrontendOpts().SkipFunctionBodies = true;
    return std::make_unique<ReadConsumer>(ci, request_, out_);
  }

 private:
  const ClangRequest& request_;
  UnitResult* out_;
};

}  // namespace

std::vector<std::string> SharedFlags(const CompileUnit& unit) {
  std::vector<std::string> args = unit.arguments;
  args = tooling::getClangStripOutputAdjuster()(args, unit.file);
  args = tooling::getClangStripDependencyFileAdjuster()(args, unit.file);
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-c") continue;
    if (i > 0 && Absolute(args[i], unit.directory) == unit.file) continue;
    out.push_back(args[i]);
  }
  return out;
}

UnitResult ReadUnit(const CompileUnit& unit, const ClangRequest& request, const std::string& pch) {
  auto start = std::chrono::steady_clock::now();
  UnitResult result;
  result.file = unit.file;
  std::vector<std::string> args = unit.arguments;
  if (args.empty()) args = {"clang++", unit.file};
  args = tooling::getClangStripOutputAdjuster()(args, unit.file);
  args = tooling::getClangStripDependencyFileAdjuster()(args, unit.file);
  args = tooling::getClangSyntaxOnlyAdjuster()(args, unit.file);
  // Builtin headers from this Clang; no warnings (only errors matter here);
  // no typo correction, which is slow and only helps people.
  args.insert(args.begin() + 1,
              {"-resource-dir=" TESTMAP_CLANG_RESOURCE_DIR, "-w", "-fno-spell-checking",
               "-ferror-limit=20", "-Wno-unknown-warning-option"});
  if (!pch.empty()) args.insert(args.begin() + 1, {"-include-pch", pch});

  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs = llvm::vfs::createPhysicalFileSystem();
  fs->setCurrentWorkingDirectory(unit.directory);
  llvm::IntrusiveRefCntPtr<FileManager> files(new FileManager(FileSystemOptions(), fs));
  Diagnostics diagnostics(unit, &result.diagnostics);
  tooling::ToolInvocation invocation(args, std::make_unique<ReadAction>(request, &result),
                                     files.get());
  invocation.setDiagnosticConsumer(&diagnostics);
  bool ok = invocation.run();
  if (!ok && diagnostics.getNumErrors() == 0) {
    result.parsed = false;
    result.diagnostics.push_back(
        {Diagnostic::Severity::kError, unit.file, 0, "clang could not read this file"});
  }
  if (diagnostics.getNumErrors() > result.diagnostics.size())
    result.diagnostics.push_back(
        {Diagnostic::Severity::kError, unit.file, 0,
         std::to_string(diagnostics.getNumErrors()) + " errors in all; the first are listed"});
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace testmap::backend::clang_reader
