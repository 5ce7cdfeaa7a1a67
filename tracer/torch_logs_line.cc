#include "tracer/torch_logs_line.h"

namespace testmap::tracer {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Consumes `n` digits; false (and `s` untouched) otherwise.
bool Digits(std::string_view& s, size_t n) {
  if (s.size() < n) return false;
  for (size_t i = 0; i < n; ++i) {
    if (!IsDigit(s[i])) return false;
  }
  s.remove_prefix(n);
  return true;
}

bool Literal(std::string_view& s, std::string_view lit) {
  if (!s.starts_with(lit)) return false;
  s.remove_prefix(lit.size());
  return true;
}

// `[0/0] `, `[0/1_1] `, `[1/0_2] ` (frame id / compile id, attempt).
bool CompileId(std::string_view& s, std::string_view* out) {
  if (s.empty() || s[0] != '[') return false;
  size_t close = s.find(']');
  if (close == std::string_view::npos || close < 4) return false;
  std::string_view inside = s.substr(1, close - 1);
  size_t slash = inside.find('/');
  if (slash == std::string_view::npos || slash == 0) return false;
  for (char c : inside) {
    if (!IsDigit(c) && c != '/' && c != '_' && c != '!') return false;
  }
  *out = s.substr(0, close + 1);
  s.remove_prefix(close + 1);
  if (!s.empty() && s[0] == ' ') s.remove_prefix(1);
  return true;
}

// `[__aot_graphs] ` -> "aot_graphs".
bool ArtifactTag(std::string_view& s, std::string_view* out) {
  if (!s.starts_with("[__")) return false;
  size_t close = s.find(']');
  if (close == std::string_view::npos) return false;
  *out = s.substr(3, close - 3);
  s.remove_prefix(close + 1);
  if (!s.empty() && s[0] == ' ') s.remove_prefix(1);
  return true;
}

// 2.4+: `I1129 23:14:50.165000 10862 path/to/file.py:1833] `; the level letter
// is V (debug), I, W, E or C.
bool GlogPrefix(std::string_view& s, LogLine* out) {
  std::string_view t = s;
  if (t.empty() || std::string_view("VDIWEC").find(t[0]) == std::string_view::npos) return false;
  t.remove_prefix(1);
  if (!Digits(t, 4) || !Literal(t, " ") || !Digits(t, 2) || !Literal(t, ":") || !Digits(t, 2) ||
      !Literal(t, ":") || !Digits(t, 2)) {
    return false;
  }
  if (Literal(t, ".")) {
    while (!t.empty() && IsDigit(t[0])) t.remove_prefix(1);
  }
  if (!Literal(t, " ")) return false;
  size_t pid_len = 0;
  while (pid_len < t.size() && IsDigit(t[pid_len])) ++pid_len;
  if (pid_len == 0) return false;
  out->pid = t.substr(0, pid_len);
  t.remove_prefix(pid_len);
  if (!Literal(t, " ")) return false;
  size_t end = t.find("] ");
  size_t end_bare = t.find(']');
  if (end_bare == std::string_view::npos) return false;
  if (end == std::string_view::npos || end != end_bare) {
    // A message that is empty after the prefix: `path:line]` at line end.
    if (end_bare + 1 != t.size()) return false;
    t.remove_prefix(end_bare + 1);
  } else {
    t.remove_prefix(end + 2);
  }
  CompileId(t, &out->compile_id);
  ArtifactTag(t, &out->artifact);
  s = t;
  return true;
}

// 2.0-2.3: `[2024-01-10 12:00:00,123] [0/0] torch.x.__aot_graphs: [INFO] `.
bool BracketDatePrefix(std::string_view& s, LogLine* out) {
  std::string_view t = s;
  if (!Literal(t, "[") || !Digits(t, 4) || !Literal(t, "-") || !Digits(t, 2) || !Literal(t, "-") ||
      !Digits(t, 2) || !Literal(t, " ") || !Digits(t, 2) || !Literal(t, ":") || !Digits(t, 2) ||
      !Literal(t, ":") || !Digits(t, 2)) {
    return false;
  }
  size_t close = t.find("] ");
  if (close == std::string_view::npos) return false;
  t.remove_prefix(close + 2);
  CompileId(t, &out->compile_id);
  // logger name, then `: [LEVEL] `.
  size_t colon = t.find(": [");
  if (colon == std::string_view::npos) return false;
  std::string_view logger = t.substr(0, colon);
  if (size_t art = logger.rfind(".__"); art != std::string_view::npos) {
    out->artifact = logger.substr(art + 3);
  }
  t.remove_prefix(colon + 3);
  size_t level_end = t.find("] ");
  if (level_end == std::string_view::npos) {
    level_end = t.find(']');
    if (level_end == std::string_view::npos || level_end + 1 != t.size()) return false;
    t.remove_prefix(level_end + 1);
  } else {
    t.remove_prefix(level_end + 2);
  }
  s = t;
  return true;
}

}  // namespace

LogLine SplitLogLine(std::string_view line) {
  LogLine out;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::string_view s = line;
  // `[rank0]:` (torch.distributed initialized).
  std::string_view rank;
  if (s.starts_with("[rank")) {
    size_t close = s.find("]:");
    if (close != std::string_view::npos) {
      rank = s.substr(5, close - 5);
      for (char c : rank) {
        if (!IsDigit(c)) rank = {};
      }
      s.remove_prefix(close + 2);
    }
  }
  if (GlogPrefix(s, &out) || BracketDatePrefix(s, &out)) {
    out.has_prefix = true;
    out.rank = rank;
    out.message = s;
    return out;
  }
  out.message = line;
  return out;
}

}  // namespace testmap::tracer
