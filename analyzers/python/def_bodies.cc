#include "analyzers/python/def_bodies.h"

#include <algorithm>

namespace testmap::python {
namespace {

// Bodies nested deeper than this (brackets, or columns of indentation) are
// left to the parser, whose depth check (file_scanner.h) must see them.
constexpr int kMaxBracketDepth = 64;
constexpr int kMaxIndent = 256;

bool IsWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         (c & 0x80);
}

// One logical line: from its first token to its last, brackets and
// continuations joined. A comment after the last token on its line belongs
// to the statement in tree-sitter's tree (the line's newline follows it).
struct LogicalLine {
  size_t start = 0, last_end = 0;
  size_t comment_end = 0;  // end of such a comment, if any
  int indent = 0;
  int max_depth = 0;
};

// Python's lexical rules, as far as finding logical lines needs them.
class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  // The next logical line; false at the end, or when the file cannot be
  // followed (then ok() is false).
  bool Next(LogicalLine* line) {
    const size_t n = s_.size();
    while (i_ < n) {
      size_t p = i_;
      int indent = 0;
      while (p < n && s_[p] == ' ') ++p, ++indent;
      if (p < n && (s_[p] == '\t' || s_[p] == '\f')) return Fail();  // columns need rules
      if (p >= n) break;
      if (s_[p] == '\n' || s_[p] == '\r' || s_[p] == '#') {  // blank or comment line
        while (p < n && s_[p] != '\n') ++p;
        i_ = p + 1;
        continue;
      }
      *line = LogicalLine{p, p, 0, indent, 0};
      int depth = 0;
      bool same_line = true;  // no line break since the last token
      while (p < n) {
        char c = s_[p];
        if (c == '#') {
          while (p < n && s_[p] != '\n') ++p;
          if (same_line) line->comment_end = p;
        } else if (c == '\\' && p + 1 < n && s_[p + 1] == '\n') {
          p += 2;
          same_line = false;
        } else if (c == '\\' && p + 2 < n && s_[p + 1] == '\r' && s_[p + 2] == '\n') {
          p += 3;
          same_line = false;
        } else if (c == '\n') {
          ++p;
          same_line = false;
          if (depth == 0) break;
        } else if (c == ' ' || c == '\r' || c == '\t' || c == '\f') {
          ++p;
        } else if (c == '"' || c == '\'') {
          if (!SkipString(&p)) return Fail();
          line->last_end = p;
          line->comment_end = 0;
          same_line = true;
        } else {
          if (c == '(' || c == '[' || c == '{')
            line->max_depth = std::max(line->max_depth, ++depth);
          if ((c == ')' || c == ']' || c == '}') && --depth < 0) return Fail();
          line->last_end = ++p;
          line->comment_end = 0;
          same_line = true;
        }
      }
      if (depth != 0) return Fail();
      i_ = p;
      return true;
    }
    i_ = n;
    return false;
  }
  bool ok() const { return ok_; }

 private:
  bool Fail() {
    ok_ = false;
    i_ = s_.size();
    return false;
  }

  // Whether the literal whose quote is at `q` has an f (or t) prefix.
  bool Formatted(size_t q) const {
    size_t b = q;
    while (b > 0 && q - b < 3 && IsWordChar(s_[b - 1])) --b;
    if (q - b > 2 || (b > 0 && IsWordChar(s_[b - 1]))) return false;
    bool f = false;
    for (size_t k = b; k < q; ++k) {
      char c = s_[k];
      if (c == 'f' || c == 'F' || c == 't' || c == 'T')
        f = true;
      else if (c != 'r' && c != 'R' && c != 'b' && c != 'B' && c != 'u' && c != 'U')
        return false;
    }
    return f;
  }

  // From the opening quote at *p to one past the closing one.
  bool SkipString(size_t* p) {
    const size_t n = s_.size();
    const char q = s_[*p];
    const bool f = Formatted(*p);
    const bool triple = *p + 2 < n && s_[*p + 1] == q && s_[*p + 2] == q;
    size_t i = *p + (triple ? 3 : 1);
    while (i < n) {
      char c = s_[i];
      if (c == '\\') {
        // Braces open fields even after a backslash; anything else escaped
        // is skipped (raw literals too: a quote never ends one there).
        i += f && i + 1 < n && (s_[i + 1] == '{' || s_[i + 1] == '}') ? 1 : 2;
      } else if (c == q && (!triple || (i + 2 < n && s_[i + 1] == q && s_[i + 2] == q))) {
        *p = i + (triple ? 3 : 1);
        return true;
      } else if (c == '\n' && !triple) {
        return false;
      } else if (f && c == '{' && !(i + 1 < n && s_[i + 1] == '{')) {
        ++i;
        if (!SkipField(&i)) return false;
      } else {
        i += f && (c == '{' || c == '}') && i + 1 < n && s_[i + 1] == c ? 2 : 1;
      }
    }
    return false;
  }

  // An f-string's replacement field, from after its `{` to after its `}`:
  // an expression (strings of any quote nest inside since Python 3.12),
  // then an optional format spec of literal text and nested fields.
  bool SkipField(size_t* p) {
    const size_t n = s_.size();
    int depth = 0;
    while (*p < n) {
      char c = s_[*p];
      if (c == '"' || c == '\'') {
        if (!SkipString(p)) return false;
        continue;
      }
      if (c == '(' || c == '[' || c == '{') {
        ++depth;
      } else if (c == ')' || c == ']') {
        --depth;
      } else if (c == '}') {
        if (depth == 0) {
          ++*p;
          return true;
        }
        --depth;
      } else if (c == ':' && depth == 0) {
        for (++*p; *p < n;) {
          if (s_[*p] == '{') {
            ++*p;
            if (!SkipField(p)) return false;
          } else if (s_[*p] == '}') {
            ++*p;
            return true;
          } else {
            ++*p;
          }
        }
        return false;
      }
      ++*p;
    }
    return false;
  }

  std::string_view s_;
  size_t i_ = 0;
  bool ok_ = true;
};

// Whether the logical line starts with `word` as a whole word.
bool StartsWithWord(std::string_view s, size_t at, std::string_view word) {
  return s.substr(at, word.size()) == word && at + word.size() < s.size() &&
         !IsWordChar(s[at + word.size()]);
}

// `def NAME(...):` or `async def ...:` with its body on the lines below.
bool IsDefHeader(std::string_view s, const LogicalLine& l) {
  if (l.last_end == 0 || s[l.last_end - 1] != ':') return false;
  if (StartsWithWord(s, l.start, "def")) return true;
  if (!StartsWithWord(s, l.start, "async")) return false;
  size_t k = l.start + 5;
  while (k < l.last_end && (s[k] == ' ' || s[k] == '\t')) ++k;
  return StartsWithWord(s, k, "def");
}

// Where a block whose last token (or comment on its line) ends at `end`
// ends in tree-sitter's tree: its scanner closes a block only at a comment
// indented less than the block, so the comment lines that follow it at its
// own indent or deeper (blank lines between) are the block's.
size_t EndWithTrailingComments(std::string_view s, size_t end, int block_indent) {
  const size_t n = s.size();
  for (size_t eol = s.find('\n', end); eol != std::string_view::npos;) {
    size_t p = eol + 1;
    int indent = 0;
    while (p < n && s[p] == ' ') ++p, ++indent;
    if (p < n && s[p] == '\r' && p + 1 < n && s[p + 1] == '\n') ++p;
    if (p < n && s[p] == '\n') {  // a blank line
      eol = p;
      continue;
    }
    if (p >= n || s[p] != '#' || indent < block_indent) break;
    eol = s.find('\n', p);
    end = eol == std::string_view::npos ? n : eol;
  }
  return end;
}

}  // namespace

std::vector<DefBody> FindDefBodies(std::string_view s) {
  Lexer lexer(s);
  std::vector<LogicalLine> lines;
  for (LogicalLine l; lexer.Next(&l);) lines.push_back(l);
  if (!lexer.ok()) return {};

  std::vector<DefBody> out;
  size_t row_at = 0;  // rows counted incrementally: bodies come in order
  int row = 0;
  // The body of the def whose header is lines[j] and whose block is lines
  // (j, m), when it can be cut cleanly.
  auto elide = [&](size_t j, size_t m, bool module_level) {
    bool ok = m > j + 1 && IsDefHeader(s, lines[j]);
    for (size_t q = j + 1; ok && q < m; ++q)
      ok = lines[q].indent >= lines[j + 1].indent && lines[q].indent <= kMaxIndent &&
           lines[q].max_depth <= kMaxBracketDepth;
    if (!ok) return;
    const LogicalLine& last = lines[m - 1];
    DefBody b{lines[j + 1].start,
              EndWithTrailingComments(s, last.comment_end ? last.comment_end : last.last_end,
                                      lines[j + 1].indent),
              0, module_level};
    row += static_cast<int>(std::count(s.begin() + row_at, s.begin() + b.end - 1, '\n'));
    row_at = b.end - 1;
    b.end_row = row;
    out.push_back(b);
  };
  for (size_t k = 0; k < lines.size();) {
    if (lines[k].indent != 0) {
      ++k;
      continue;
    }
    size_t j = k + 1;
    if (!StartsWithWord(s, lines[k].start, "class")) {
      while (j < lines.size() && lines[j].indent > 0) ++j;
      elide(k, j, true);  // a module-level def (any other statement is no def)
      k = j;
      continue;
    }
    const int member_indent = j < lines.size() ? lines[j].indent : 0;
    while (j < lines.size() && lines[j].indent > 0) {
      size_t m = j + 1;  // the lines of this member's own block
      while (m < lines.size() && lines[m].indent > lines[j].indent) ++m;
      if (lines[j].indent == member_indent) elide(j, m, false);
      j = m;
    }
    k = j;
  }
  return out;
}

}  // namespace testmap::python
