// A fingerprint of a test's source that ignores comments and formatting:
// the sequence of tokens of its decorators and body. Two versions of a test
// hash alike exactly when they differ only in comments or whitespace.
#pragma once

#include <string>

#include "analyzers/python/python_parser.h"

namespace testmap::python {

// Hex digest (32 digits) of the non-comment leaf tokens under `node`.
std::string NormalizedSourceHash(const ParsedModule& module, TSNode node);

}  // namespace testmap::python
