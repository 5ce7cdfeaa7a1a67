#include "tracer/torch_logs_parser.h"

#include <map>
#include <tuple>
#include <unordered_map>

#include "core/dtype_names.h"
#include "core/op_names.h"
#include "tracer/torch_logs_line.h"

namespace testmap::tracer {
namespace {

bool IsIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

struct TensorInfo {
  std::string dtype;
  std::optional<std::string> device;
};

// `f32[4, 4][4, 1]cpu`, `bf16[]cuda:0`, `f32[4, 4]` (old, no device),
// `Sym(s0)` (not a tensor). nullopt unless it is a tensor annotation.
std::optional<TensorInfo> ParseAnnotation(std::string_view ann, bool* unknown_dtype) {
  size_t bracket = ann.find('[');
  if (bracket == std::string_view::npos || bracket == 0) return std::nullopt;
  std::string_view abbr = ann.substr(0, bracket);
  for (char c : abbr) {
    if (!IsIdentChar(c)) return std::nullopt;
  }
  auto dtype = core::NormalizeDtype(abbr);
  if (!dtype) {
    *unknown_dtype = true;
    return std::nullopt;
  }
  TensorInfo info{*dtype, std::nullopt};
  size_t last = ann.rfind(']');
  if (last != std::string_view::npos && last + 1 < ann.size()) {
    std::string_view dev = ann.substr(last + 1);
    if (size_t colon = dev.find(':'); colon != std::string_view::npos) dev = dev.substr(0, colon);
    bool ok = !dev.empty();
    for (char c : dev) ok &= IsIdentChar(c);
    if (ok) info.device = std::string(dev);
  }
  return info;
}

// One graph being read: its variables and its record in the result.
struct Frame {
  std::unordered_map<std::string, TensorInfo> vars;
  size_t graph = 0;  // index into TorchLogsResult::graph_list
};

// One log stream (process, compile id, artifact): the graphs open in it, the
// innermost last (a higher-order op's subgraph is printed inside its
// parent), and which graph kind the headers announced.
struct Scope {
  std::vector<Frame> frames;
  std::string graph = "graph";
  size_t header_line = 0;  // a header waiting for its `def forward(`
  std::string artifact, compile_id, rank, pid;
};

struct OpKey {
  std::string op;
  std::vector<std::string> dtypes;
  std::optional<std::string> device;
  bool operator<(const OpKey& o) const {
    return std::tie(op, dtypes, device) < std::tie(o.op, o.dtypes, o.device);
  }
};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

class Parser {
 public:
  TorchLogsResult Run(std::string_view text) {
    size_t lineno = 0;
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      ++lineno;
      Line(text.substr(start, end - start), lineno);
      start = end + 1;
    }
    for (auto& [key, entry] : ops_) {
      result_.ops.push_back(
          CompileOp{key.op, key.dtypes, key.device, entry.first, std::move(entry.second)});
    }
    for (size_t g = 0; g < result_.graph_list.size(); ++g) {
      CompileGraph& graph = result_.graph_list[g];
      for (auto& [key, count] : graph_ops_[g]) {
        graph.ops.push_back(CompileOp{key.op, key.dtypes, key.device, count, {graph.kind}});
      }
      if (!graph.complete) {
        Diagnose(graph.line, "graph " + graph.kind +
                                 (graph.compile_id.empty() ? "" : " [" + graph.compile_id + "]") +
                                 " ends before its `return` (log cut short?): " +
                                 std::to_string(graph.ops.size()) + " op(s) read");
      }
    }
    return std::move(result_);
  }

 private:
  void Line(std::string_view raw, size_t lineno) {
    LogLine line = SplitLogLine(raw);
    // Lines without a prefix continue the last prefixed message (custom
    // TORCH_LOGS_FORMAT prefixes only a message's first line).
    if (line.has_prefix) {
      current_scope_ = std::string(line.rank) + " " + std::string(line.pid) + " " +
                       std::string(line.compile_id) + " " + std::string(line.artifact);
      current_artifact_ = std::string(line.artifact);
      Scope& scope = scopes_[current_scope_];
      if (scope.pid.empty()) {
        scope.artifact = line.artifact;
        std::string_view id = line.compile_id;
        if (id.size() >= 2) id = id.substr(1, id.size() - 2);  // `[0/0]` -> `0/0`
        scope.compile_id = id;
        scope.rank = line.rank;
        scope.pid = line.pid;
      }
    }
    Scope& scope = scopes_[current_scope_];
    std::string_view msg = line.message;
    MarkGraph(msg, scope, lineno);
    if (msg.find("def forward(") != std::string_view::npos) {
      ++result_.graphs;
      OpenGraph(scope, scope.header_line ? scope.header_line : lineno);
      scope.header_line = 0;
    }
    Declarations(msg, scope, lineno);
    size_t call = msg.find("torch.ops.");
    if (call != std::string_view::npos) Statement(msg, call, scope, lineno);
    std::string_view code = Trim(msg);
    if (!scope.frames.empty() && (code == "return" || code.starts_with("return "))) {
      result_.graph_list[scope.frames.back().graph].complete = true;
      scope.frames.pop_back();
    }
  }

  void OpenGraph(Scope& scope, size_t line) {
    CompileGraph g;
    g.kind = scope.graph;
    g.artifact = scope.artifact;
    g.compile_id = scope.compile_id;
    g.rank = scope.rank;
    g.pid = scope.pid;
    g.line = line;
    scope.frames.push_back({{}, result_.graph_list.size()});
    result_.graph_list.push_back(std::move(g));
    graph_ops_.emplace_back();
  }

  // Headers name the graph the following statements belong to.
  void MarkGraph(std::string_view msg, Scope& scope, size_t lineno) {
    std::string artifact = current_artifact_;
    if (msg.find("AFTER POST GRAD") != std::string_view::npos) {
      scope.graph = "post_grad_graphs";
    } else if (msg.find("Forward graph") != std::string_view::npos) {
      scope.graph = "aot_graphs.forward";
    } else if (msg.find("Backward graph") != std::string_view::npos) {
      scope.graph = "aot_graphs.backward";
    } else if (msg.find("Joint graph") != std::string_view::npos) {
      scope.graph = "aot_graphs.joint";
    } else if (msg.find("graph for inference") != std::string_view::npos ||
               msg.find("Inference graph") != std::string_view::npos) {
      scope.graph = "aot_graphs.inference";
    } else if (msg.find("def forward(") != std::string_view::npos && scope.graph == "graph" &&
               !artifact.empty()) {
      scope.graph = artifact;
      return;
    } else {
      return;
    }
    scope.header_line = lineno;
  }

  // Every `name: "annotation"` (quoted, 2.1+) or `name: f32[...]` (older)
  // declares a variable: placeholders in signatures and statement outputs.
  // The variables statements of `scope` read and write: the innermost open
  // graph's, or (statements outside any `def forward`) a graph of their own.
  Frame& Current(Scope& scope, size_t lineno) {
    if (scope.frames.empty()) {
      OpenGraph(scope, lineno);
      result_.graph_list.back().complete = true;  // no `def`, so no `return` to wait for
    }
    return scope.frames.back();
  }

  void Declarations(std::string_view msg, Scope& scope, size_t lineno) {
    size_t pos = 0;
    while ((pos = msg.find(": ", pos)) != std::string_view::npos) {
      size_t name_end = pos;
      size_t name_start = name_end;
      while (name_start > 0 && IsIdentChar(msg[name_start - 1])) --name_start;
      pos += 2;
      if (name_start == name_end) continue;
      std::string_view rest = msg.substr(pos);
      std::string_view ann;
      if (!rest.empty() && rest[0] == '"') {
        size_t close = rest.find('"', 1);
        if (close == std::string_view::npos) continue;
        ann = rest.substr(1, close - 1);
      } else {
        // Unquoted old form ends at `=`, `,` or `)` outside brackets.
        size_t end = 0;
        int depth = 0;
        while (end < rest.size()) {
          char c = rest[end];
          if (c == '[') ++depth;
          if (c == ']') --depth;
          if (depth == 0 && (c == ' ' || c == ',' || c == ')')) break;
          ++end;
        }
        ann = rest.substr(0, end);
      }
      bool unknown = false;
      auto info = ParseAnnotation(ann, &unknown);
      if (info) {
        Current(scope, lineno).vars[std::string(msg.substr(name_start, name_end - name_start))] =
            *info;
      } else if (unknown && ann.find(']') != std::string_view::npos &&
                 msg.find("torch.ops.") != std::string_view::npos) {
        Diagnose(lineno, "unknown dtype in annotation \"" + std::string(ann) + "\"");
      }
    }
  }

  void Statement(std::string_view msg, size_t call, Scope& scope, size_t lineno) {
    // torch.ops.<ns>.<name>.<overload>
    size_t name_start = call + 10;
    size_t name_end = name_start;
    while (name_end < msg.size() && (IsIdentChar(msg[name_end]) || msg[name_end] == '.'))
      ++name_end;
    auto op = core::ParseOpName(msg.substr(call, name_end - call));
    if (!op) {
      Diagnose(lineno, "cannot read operator name \"" +
                           std::string(msg.substr(call, name_end - call)) + "\"");
      return;
    }
    if (name_end >= msg.size()) {
      // In graph code an operator name is followed by `(`, or by `,` / `)`
      // as an argument: a line ending in one was cut short.
      Diagnose(lineno, "line cut short in the operator name \"" +
                           std::string(msg.substr(call, name_end - call)) + "\"");
      return;
    }
    if (msg[name_end] != '(') {
      // A reference, not a call (`torch.ops.aten.mm.default,` as a HOP argument).
      return;
    }
    size_t close = MatchParen(msg, name_end);
    if (close == std::string_view::npos) {
      Diagnose(lineno, "unterminated call to " + op->Canonical() + " (truncated line?)");
      return;
    }
    if (op->is_packet) {
      // `torch.ops.mylib.foo(x)`: the overload packet called directly; the
      // default overload is what runs.
      op->is_packet = false;
    }
    OpKey key{op->Canonical(), {}, std::nullopt};
    bool any_tensor = false;
    std::string_view args = msg.substr(name_end + 1, close - name_end - 1);
    for (size_t i = 0; i < args.size();) {
      if (!IsIdentChar(args[i])) {
        ++i;
        continue;
      }
      size_t j = i;
      while (j < args.size() && IsIdentChar(args[j])) ++j;
      bool after_dot = i > 0 && args[i - 1] == '.';
      size_t k = j;
      while (k < args.size() && args[k] == ' ') ++k;
      bool kwarg_name =
          k < args.size() && args[k] == '=' && (k + 1 >= args.size() || args[k + 1] != '=');
      const auto& vars = Current(scope, lineno).vars;
      if (!after_dot && !kwarg_name) {
        auto it = vars.find(std::string(args.substr(i, j - i)));
        if (it != vars.end()) {
          AddTensor(key, it->second);
          any_tensor = true;
        }
      }
      i = j;
    }
    if (!any_tensor) {
      // Factory op: the output's annotation, `full: "f32[4][1]cpu" = ...`.
      std::string_view lhs = msg.substr(0, call);
      size_t q1 = lhs.find('"');
      size_t q2 = q1 == std::string_view::npos ? q1 : lhs.find('"', q1 + 1);
      if (q2 != std::string_view::npos) {
        bool unknown = false;
        if (auto info = ParseAnnotation(lhs.substr(q1 + 1, q2 - q1 - 1), &unknown)) {
          AddTensor(key, *info);
        }
      }
    }
    const Frame& frame = Current(scope, lineno);
    ++graph_ops_[frame.graph][key];
    auto& entry = ops_[key];
    ++entry.first;
    entry.second.insert(result_.graph_list[frame.graph].kind);
    ++result_.statements;
  }

  static void AddTensor(OpKey& key, const TensorInfo& t) {
    bool seen = false;
    for (const auto& d : key.dtypes) seen |= d == t.dtype;
    if (!seen) key.dtypes.push_back(t.dtype);
    if (t.device && (!key.device || (*key.device == "cpu" && *t.device != "cpu"))) {
      key.device = t.device;
    }
  }

  // The `)` closing the `(` at `open`, skipping quoted strings.
  static size_t MatchParen(std::string_view s, size_t open) {
    int depth = 0;
    char quote = 0;
    for (size_t i = open; i < s.size(); ++i) {
      char c = s[i];
      if (quote) {
        if (c == '\\')
          ++i;
        else if (c == quote)
          quote = 0;
        continue;
      }
      if (c == '"' || c == '\'')
        quote = c;
      else if (c == '(' || c == '[')
        ++depth;
      else if (c == ')' || c == ']') {
        if (--depth == 0) return c == ')' ? i : std::string_view::npos;
      }
    }
    return std::string_view::npos;
  }

  void Diagnose(size_t lineno, std::string message) {
    // Bounded: a garbage file must not produce a garbage-sized report.
    if (result_.diagnostics.size() < 1000)
      result_.diagnostics.push_back({lineno, std::move(message)});
  }

  TorchLogsResult result_;
  std::map<std::string, Scope> scopes_;
  std::string current_scope_;
  std::string current_artifact_;
  std::map<OpKey, std::pair<uint64_t, std::set<std::string>>> ops_;
  std::vector<std::map<OpKey, uint64_t>> graph_ops_;  // per graph_list entry
};

}  // namespace

TorchLogsResult ParseTorchLogs(std::string_view text) { return Parser().Run(text); }

}  // namespace testmap::tracer
