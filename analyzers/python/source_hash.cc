#include "analyzers/python/source_hash.h"

#include <cctype>

#include "core/content_hash.h"

namespace testmap::python {
namespace {

bool IsWord(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (c & 0x80);
}

}  // namespace

// A single lexical pass rather than a walk over the tree's leaves: the
// scan hashes every test, and this keeps it a small share of parsing.
std::string NormalizeSource(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool pending_space = false;
  for (size_t i = 0; i < s.size();) {
    char c = s[i];
    if (c == '#') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
        (c == '\\' && i + 1 < s.size() && (s[i + 1] == '\n' || s[i + 1] == '\r'))) {
      pending_space = true;
      ++i;
      continue;
    }
    if (pending_space && !out.empty() && IsWord(out.back()) && IsWord(c)) out += ' ';
    pending_space = false;
    if (c == '\'' || c == '"') {
      // A string literal (its prefix letters were already copied as a word):
      // copied verbatim, escapes included, up to the matching quote.
      bool triple = i + 2 < s.size() && s[i + 1] == c && s[i + 2] == c;
      size_t q = triple ? 3 : 1;
      out.append(s.substr(i, q));
      i += q;
      while (i < s.size()) {
        if (s[i] == '\\' && i + 1 < s.size()) {
          out.append(s.substr(i, 2));
          i += 2;
        } else if (s[i] == c && (!triple || (i + 2 < s.size() && s[i + 1] == c && s[i + 2] == c))) {
          out.append(s.substr(i, q));
          i += q;
          break;
        } else if (!triple && s[i] == '\n') {
          break;  // unterminated; the parser reports it
        } else {
          out += s[i++];
        }
      }
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

std::string NormalizedSourceHash(const ParsedModule& module, TSNode node) {
  return core::HexDigest(core::ContentHash(NormalizeSource(module.Text(node))));
}

}  // namespace testmap::python
