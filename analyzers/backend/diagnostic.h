// A problem met while reading a backend: a file that does not parse, a
// missing include, a name torch does not know. Readers keep going and
// collect these; the command prints them as `file:line: severity: message`.
#pragma once

#include <string>

namespace testmap::backend {

struct Diagnostic {
  enum class Severity { kWarning, kError };
  Severity severity = Severity::kWarning;
  std::string file;
  int line = 0;  // 1-based; 0 when not tied to a line
  std::string message;
  // Errors make the answer partial (the command then exits 1); warnings
  // flag something worth a look in an otherwise complete answer.
  bool partial() const { return severity == Severity::kError; }
};

// `file:line: error: message` (the line left out when 0).
std::string FormatDiagnostic(const Diagnostic& d);

}  // namespace testmap::backend
