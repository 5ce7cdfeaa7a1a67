// What `testmap backend` and its Clang reader (the separate
// `testmap-backend-clang` executable, so that only this command pays for
// loading LLVM) say to each other: a request listing translation units on
// the reader's stdin, one result line per unit on its stdout.
#pragma once

#include <string>
#include <vector>

#include "analyzers/backend/diagnostic.h"
#include "analyzers/backend/registration.h"

namespace testmap::backend {

// One translation unit to read: a compile command as compile_commands.json
// holds it (arguments[0] is the compiler; output options are dropped).
struct CompileUnit {
  std::string file;       // absolute
  std::string directory;  // the working directory of the command
  std::vector<std::string> arguments;
};

struct ClangRequest {
  // The backend's own files live under these (absolute) directories: only
  // their declarations are matched and only their headers are dependencies.
  std::vector<std::string> roots;
  // Words whose presence in a function body keeps the body (registrations
  // made from inside functions); every other body outside the backend's
  // registration code is skipped.
  std::vector<std::string> body_triggers;
  int jobs = 1;
  // Headers most units include (`ATen/ATen.h`, `torch/library.h`): the
  // reader precompiles them once for units that share their flags.
  std::vector<std::string> pch_prelude;
  std::vector<CompileUnit> units;
};

struct UnitResult {
  std::string file;
  std::vector<Registration> records;  // file fields absolute
  std::vector<Diagnostic> diagnostics;
  std::vector<std::string> deps;  // the backend's own headers the unit included (absolute)
  bool parsed = true;             // false when the unit could not be read at all
  double seconds = 0;
};

std::string EncodeRequest(const ClangRequest& r);
ClangRequest DecodeRequest(const std::string& json);  // throws std::invalid_argument
std::string EncodeResult(const UnitResult& r);        // one line, no newline
UnitResult DecodeResult(const std::string& line);     // throws std::invalid_argument

}  // namespace testmap::backend
