#include "analyzers/backend/clang/reader_context.h"

#include <clang/Lex/Lexer.h>

namespace testmap::backend::clang_reader {

ReaderContext::ReaderContext(const clang::SourceManager& sm, const clang::LangOptions& lang,
                             const std::vector<std::string>& roots)
    : sm_(sm), lang_(lang), roots_(roots) {
  for (auto& r : roots_)
    if (!r.empty() && r.back() != '/') r += '/';
}

std::string ReaderContext::PathOf(clang::FileID id) const {
  const clang::FileEntry* fe = sm_.getFileEntryForID(id);
  if (!fe) return "";
  llvm::StringRef real = fe->tryGetRealPathName();
  return real.empty() ? fe->getName().str() : real.str();
}

Where ReaderContext::Locate(clang::SourceLocation loc) const {
  Where w;
  // Walk out of nested macro expansions; the last macro seen is the one
  // written in the file (KERNEL_PRIVATEUSEONE rather than KERNEL1).
  clang::SourceLocation l = loc;
  while (l.isMacroID()) {
    llvm::StringRef name = clang::Lexer::getImmediateMacroName(l, sm_, lang_);
    if (!name.empty()) w.macro = name.str();
    l = sm_.getImmediateMacroCallerLoc(l);
  }
  clang::SourceLocation e = sm_.getExpansionLoc(loc);
  w.file = PathOf(sm_.getFileID(e));
  w.line = static_cast<int>(sm_.getExpansionLineNumber(e));
  return w;
}

bool ReaderContext::IsOwnPath(const std::string& path) const {
  for (const auto& r : roots_)
    if (path.compare(0, r.size(), r) == 0) return true;
  return false;
}

bool ReaderContext::IsOwn(clang::SourceLocation loc) const {
  if (loc.isInvalid()) return false;
  clang::FileID id = sm_.getFileID(sm_.getExpansionLoc(loc));
  if (id == sm_.getMainFileID()) return true;
  auto [it, inserted] = own_.try_emplace(id.getHashValue(), false);
  if (inserted) it->second = IsOwnPath(PathOf(id));
  return it->second;
}

std::string ReaderContext::Text(clang::SourceRange range) const {
  clang::CharSourceRange r = sm_.getExpansionRange(range);
  llvm::StringRef text = clang::Lexer::getSourceText(r, sm_, lang_);
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

void ReaderContext::Warn(clang::SourceLocation loc, std::string message) {
  Where w = Locate(loc);
  diagnostics_.push_back({Diagnostic::Severity::kWarning, w.file, w.line, std::move(message)});
}

}  // namespace testmap::backend::clang_reader
