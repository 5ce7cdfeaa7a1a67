// Where the bodies of a module's functions and class methods are, found by
// a lexical line pre-pass (strings, f-strings, comments, brackets,
// continuations and indentation; no parse). Ids come from decorators, class
// bodies and module-level code, and content hashes from a body's bytes
// (source_hash.h): the scan never looks inside a method's body, and inside
// a module-level function's body only when module code calls it
// (ParsedModule::FunctionBody parses that one body then). So these bodies
// need not be parsed up front (python_parser.h,
// BodyParsing::kSkipDefBodies).
//
// The pre-pass is conservative: it reports nothing for a file it cannot
// follow with certainty (tabs or form feeds in indentation, unbalanced
// brackets, unterminated strings), and skips a body whose lines dedent
// below its first line or that nests deep. Whatever it reports is checked
// against the parse it enables before it is trusted.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace testmap::python {

struct DefBody {
  size_t begin = 0;           // first byte of the body's first statement
  size_t end = 0;             // one past its last token, or the last comment that is the body's
                              // (after the token on its line, or on lines of their own
                              // indented as deep as the body: tree-sitter's tree has them)
  int end_row = 0;            // 0-based line of that token
  bool module_level = false;  // a module-level def's (else a method's)
};

// Bodies (on lines of their own) of the `def`s at the top level and
// directly in the body of a class defined at the top level, in source order.
std::vector<DefBody> FindDefBodies(std::string_view source);

}  // namespace testmap::python
