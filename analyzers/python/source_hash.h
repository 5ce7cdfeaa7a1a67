// A fingerprint of a test's source that ignores comments and formatting:
// its decorators and body with comments removed and whitespace dropped
// (one space kept between two word characters), string literals verbatim.
// Two versions of a test hash alike exactly when they differ only in
// comments, indentation, blank lines or line breaks.
#pragma once

#include <string>
#include <string_view>

#include "analyzers/python/python_parser.h"

namespace testmap::python {

// Hex digest (32 digits) of the normalized text of `node`.
std::string NormalizedSourceHash(const ParsedModule& module, TSNode node);

// The normalized text itself (exposed for tests).
std::string NormalizeSource(std::string_view source);

}  // namespace testmap::python
