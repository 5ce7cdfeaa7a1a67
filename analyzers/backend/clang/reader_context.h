// State shared by the matchers while one translation unit is read: where
// things are (file, line, the macro they were written through), which
// files are the backend's own, and the records and diagnostics found.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/Basic/SourceManager.h>

#include <map>
#include <string>
#include <vector>

#include "analyzers/backend/diagnostic.h"
#include "analyzers/backend/registration.h"

namespace testmap::backend::clang_reader {

struct Where {
  std::string file;  // absolute
  int line = 0;
  std::string macro;  // the outermost macro written in the file, if any
};

class ReaderContext {
 public:
  ReaderContext(const clang::SourceManager& sm, const clang::LangOptions& lang,
                const std::vector<std::string>& roots);

  // The place a registration is written: the expansion location, so that
  // a registration made by a macro is reported where the macro is used.
  Where Locate(clang::SourceLocation loc) const;
  // The main file, or a file under one of the backend's roots.
  bool IsOwn(clang::SourceLocation loc) const;
  bool IsOwnPath(const std::string& path) const;
  // The source text of `range` as written (macro uses unexpanded), with
  // runs of whitespace collapsed.
  std::string Text(clang::SourceRange range) const;
  // The absolute path of a file entry.
  std::string PathOf(clang::FileID id) const;

  void Add(Registration r) { records_.push_back(std::move(r)); }
  void Warn(clang::SourceLocation loc, std::string message);

  const clang::SourceManager& sources() const { return sm_; }
  std::vector<Registration>& records() { return records_; }
  std::vector<Diagnostic>& diagnostics() { return diagnostics_; }

 private:
  const clang::SourceManager& sm_;
  const clang::LangOptions& lang_;
  std::vector<std::string> roots_;
  mutable std::map<unsigned, bool> own_;  // FileID hash -> own
  std::vector<Registration> records_;
  std::vector<Diagnostic> diagnostics_;
};

}  // namespace testmap::backend::clang_reader
