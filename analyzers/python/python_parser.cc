#include "analyzers/python/python_parser.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "core/key_field.h"

extern "C" const TSLanguage* tree_sitter_python();

namespace testmap::python {

std::unique_ptr<TSParser, ParserDeleter> NewPythonParser() {
  std::unique_ptr<TSParser, ParserDeleter> p(ts_parser_new());
  if (!ts_parser_set_language(p.get(), tree_sitter_python()))
    throw std::runtime_error("tree-sitter-python grammar is incompatible with the runtime");
  return p;
}

TSFieldId PythonFieldId(std::string_view name) {
  static const auto* ids = [] {
    auto* m = new std::unordered_map<std::string_view, TSFieldId>;
    const TSLanguage* language = tree_sitter_python();
    for (TSFieldId id = 1, n = static_cast<TSFieldId>(ts_language_field_count(language)); id <= n;
         ++id)
      if (const char* field = ts_language_field_name_for_id(language, id)) (*m)[field] = id;
    return m;
  }();
  auto it = ids->find(name);
  return it == ids->end() ? 0 : it->second;
}

namespace {

// tree-sitter 0.20.7 adds a time limit's fraction of a second to the clock
// without carrying it into the seconds, so a limit with a fraction ends at
// the next whole second, however soon that is (skeletons of small files
// gave up at random): its limits are whole seconds.
uint64_t WholeSeconds(uint64_t micros) { return (micros + 999'999) / 1'000'000 * 1'000'000; }

// Parses `size` bytes of `text`, or returns null if tree-sitter runs past
// the time limit (and resets the parser, which would otherwise resume that
// parse next time).
TSTree* Parse(TSParser* parser, const std::string& text, size_t size, uint64_t limit_micros) {
  ts_parser_set_timeout_micros(parser, limit_micros);
  TSTree* tree = ts_parser_parse_string(parser, nullptr, text.data(), static_cast<uint32_t>(size));
  if (!tree) ts_parser_reset(parser);
  return tree;
}

[[noreturn]] void ThrowTimeout(uint64_t limit_micros) {
  throw ParseTimeout("tree-sitter did not finish parsing it within " +
                     std::to_string(limit_micros / 1000) + " ms; not analysed");
}

// The line of the first syntax error (ERROR or MISSING node) under `n`.
std::optional<int> FirstErrorLine(TSNode n) {
  if (!ts_node_has_error(n)) return std::nullopt;
  // Descend towards the first erroneous node, so the line is the one a
  // person would look at rather than the enclosing block's first line.
  for (;;) {
    if (ts_node_is_missing(n) || Is(n, "ERROR")) return ParsedModule::FirstLine(n);
    bool descended = false;
    for (TSNode child : Children(n)) {
      if (ts_node_has_error(child) || ts_node_is_missing(child)) {
        n = child;
        descended = true;
        break;
      }
    }
    if (!descended) return ParsedModule::FirstLine(n);
  }
}

// Which of `bodies` (source order) to skip. tree-sitter's lexer looks for
// its position among the included ranges from the first on every token
// (ts_lexer_goto), so each skipped body costs every byte parsed about
// 1/kParsePerRangeCheck of the cost of parsing a byte (measured: 96 ns a
// byte to parse, 0.04 ns a byte per range): a class of 16,000 two-line
// methods, all skipped, parsed 4 times slower than whole. So the largest
// bodies are skipped, as many as make the parse cheapest: kept bytes x
// (kParsePerRangeCheck + ranges), least.
void KeepBodiesWorthSkipping(std::vector<DefBody>* bodies, size_t source_bytes) {
  constexpr double kParsePerRangeCheck = 2048;
  std::vector<size_t> by_size(bodies->size());
  for (size_t i = 0; i < by_size.size(); ++i) by_size[i] = i;
  auto size = [&](size_t i) { return (*bodies)[i].end - (*bodies)[i].begin; };
  std::stable_sort(by_size.begin(), by_size.end(),
                   [&](size_t a, size_t b) { return size(a) > size(b); });
  size_t kept = source_bytes, best = 0;
  double best_cost = static_cast<double>(kept) * kParsePerRangeCheck;
  for (size_t k = 0; k < by_size.size(); ++k) {
    kept -= size(by_size[k]);
    double cost = static_cast<double>(kept) * (kParsePerRangeCheck + static_cast<double>(k + 1));
    if (cost < best_cost) best_cost = cost, best = k + 1;
  }
  if (best == bodies->size()) return;
  std::vector<bool> skip(bodies->size());
  for (size_t k = 0; k < best; ++k) skip[by_size[k]] = true;
  std::vector<DefBody> chosen;
  for (size_t i = 0; i < bodies->size(); ++i)
    if (skip[i]) chosen.push_back((*bodies)[i]);
  bodies->swap(chosen);
}

}  // namespace

uint64_t ParseTimeLimitMicros(size_t bytes) {
  return WholeSeconds(2'000'000 + 4 * uint64_t{bytes});
}

ParsedModule::ParsedModule(TSParser* parser, std::string source, BodyParsing mode,
                           std::optional<uint64_t> limit_micros)
    : source_(std::move(source)),
      limit_micros_(limit_micros.value_or(ParseTimeLimitMicros(source_.size()))) {
  if (mode == BodyParsing::kSkipDefBodies) {
    skipped_ = FindDefBodies(source_);
    KeepBodiesWorthSkipping(&skipped_, source_.size());
  }
  if (!skipped_.empty()) {
    // The same bytes with each body's first byte made a `0` statement and
    // the rest of it outside the ranges tree-sitter reads: every offset and
    // line of the tree is the source's. (Blanking the bodies in place
    // instead costs real files 2.4 times the parse: the lexer still steps
    // over every blank byte.)
    std::string skeleton = source_;
    std::vector<TSRange> ranges;
    TSPoint at{0, 0};
    size_t at_byte = 0;
    auto point = [&](size_t byte) {
      for (; at_byte < byte; ++at_byte)
        if (source_[at_byte] == '\n')
          at = {at.row + 1, 0};
        else
          ++at.column;
      return at;
    };
    TSRange r{{0, 0}, {0, 0}, 0, 0};
    for (const DefBody& b : skipped_) {
      skeleton[b.begin] = '0';
      r.end_point = point(b.begin + 1);
      r.end_byte = static_cast<uint32_t>(b.begin + 1);
      ranges.push_back(r);
      r.start_point = point(b.end);
      r.start_byte = static_cast<uint32_t>(b.end);
    }
    r.end_point = point(source_.size());
    r.end_byte = static_cast<uint32_t>(source_.size());
    if (r.start_byte < r.end_byte) ranges.push_back(r);
    ts_parser_set_included_ranges(parser, ranges.data(), static_cast<uint32_t>(ranges.size()));
    // tree-sitter 0.20.7's error recovery can loop forever, allocating, at
    // the edge of an included range (a method line at column zero hung
    // `testmap scan`), and it recovers only from a syntax error in the
    // skeleton, whose tree is thrown away for the full parse's anyway. So
    // the skeleton gets a tenth of the time limit in whole seconds, never
    // more than the limit; past it, null, and the full parse answers as
    // ever (a real file's skeleton takes a thousandth of it).
    uint64_t skeleton_limit = std::min(limit_micros_, WholeSeconds(limit_micros_ / 10 + 1));
    tree_ = Parse(parser, skeleton, skeleton.size(), skeleton_limit);
    ts_parser_set_included_ranges(parser, nullptr, 0);
    if (tree_ && (ts_node_has_error(root()) || !PlaceholdersConfirmed())) {
      ts_tree_delete(tree_);
      tree_ = nullptr;
    }
    if (!tree_) skipped_.clear();
  }
  if (!tree_) tree_ = Parse(parser, source_, source_.size(), limit_micros_);
  if (!tree_) ThrowTimeout(limit_micros_);
}

bool ParsedModule::PlaceholdersConfirmed() const {
  // Each placeholder must be the whole body of a module-level def, or of a
  // def of a top-level class, that ends with it, so that the tree is the
  // full parse's with those bodies cut off. Walked top-down, in source
  // order like the placeholders.
  size_t next = 0;
  auto children = [](TSNode parent, auto&& visit) {
    TSTreeCursor c = ts_tree_cursor_new(parent);
    for (bool more = ts_tree_cursor_goto_first_child(&c); more;
         more = ts_tree_cursor_goto_next_sibling(&c))
      visit(ts_tree_cursor_current_node(&c));
    ts_tree_cursor_delete(&c);
  };
  auto definition = [](TSNode n) {
    return Is(n, "decorated_definition") ? Field(n, "definition") : n;
  };
  auto confirm = [&](TSNode def, bool module_level) {
    if (next == skipped_.size() || !Is(def, "function_definition") ||
        skipped_[next].module_level != module_level)
      return;
    TSNode block = Field(def, "body");
    const size_t b = skipped_[next].begin;
    if (ts_node_start_byte(block) == b && ts_node_end_byte(block) == b + 1 &&
        ts_node_end_byte(def) == b + 1 && ts_node_child_count(block) == 1)
      ++next;
  };
  children(root(), [&](TSNode top) {
    TSNode def = definition(top);
    if (!Is(def, "class_definition")) return confirm(def, true);
    children(Field(def, "body"), [&](TSNode member) { confirm(definition(member), false); });
  });
  return next == skipped_.size();
}

TSNode ParsedModule::FunctionBody(TSNode def) const {
  TSNode body = Field(def, "body");
  const DefBody* skipped = def.tree == tree_ ? Skipped(ts_node_end_byte(body)) : nullptr;
  if (!skipped || !skipped->module_level) return body;
  std::lock_guard<std::mutex> lock(lazy_mu_);
  TSTree*& tree = lazy_[skipped->begin];
  if (!tree) {
    // The def alone, from the source's bytes at their own offsets, so that
    // its nodes' bytes and lines are the full parse's. The input ends where
    // the range does, so that the range has no edge inside the input (where
    // the skeleton's parse was seen to loop, see the constructor).
    TSRange range{ts_node_start_point(def),
                  {0, 0},
                  ts_node_start_byte(def),
                  static_cast<uint32_t>(skipped->end)};
    range.end_point.row = static_cast<uint32_t>(skipped->end_row);
    size_t line_start = source_.rfind('\n', skipped->end - 1);
    range.end_point.column = static_cast<uint32_t>(
        skipped->end - (line_start == std::string::npos ? 0 : line_start + 1));
    auto parser = NewPythonParser();
    ts_parser_set_included_ranges(parser.get(), &range, 1);
    tree = Parse(parser.get(), source_, skipped->end, limit_micros_);
    if (!tree) ThrowTimeout(limit_micros_);
  }
  // The def is the tree's first statement; the same def in the full parse.
  // A body with a syntax error (hidden from the file's parse, which skipped
  // it) is no body: never the placeholder, which would run as `0`.
  TSNode root = ts_tree_root_node(tree);
  TSNode lazy_def = ts_node_named_child(root, 0);
  if (ts_node_has_error(root) || !Is(lazy_def, "function_definition") ||
      ts_node_start_byte(lazy_def) != ts_node_start_byte(def)) {
    std::optional<int> line = FirstErrorLine(root);
    if (!lazy_error_line_ || (line && *line < *lazy_error_line_)) lazy_error_line_ = line;
    return TSNode{};
  }
  return Field(lazy_def, "body");
}

std::optional<int> ParsedModule::LazySyntaxErrorLine() const {
  std::lock_guard<std::mutex> lock(lazy_mu_);
  return lazy_error_line_;
}

const DefBody* ParsedModule::Skipped(uint32_t end) const {
  if (skipped_.empty() || end == 0) return nullptr;
  auto it = std::lower_bound(skipped_.begin(), skipped_.end(), end - 1,
                             [](const DefBody& b, size_t begin) { return b.begin < begin; });
  return it != skipped_.end() && it->begin + 1 == end ? &*it : nullptr;
}

ParsedModule::~ParsedModule() {
  if (tree_) ts_tree_delete(tree_);
  for (auto& [begin, tree] : lazy_) ts_tree_delete(tree);
}

std::optional<int> ParsedModule::FirstSyntaxErrorLine() const { return FirstErrorLine(root()); }

bool ParsedModule::DeeperThan(uint32_t limit) const {
  // Every level of nesting below a node spends at least one byte of its
  // text, give or take a few nodes of the same span (statement, call,
  // argument list...): a subtree cannot be deeper than 6x its length plus
  // a few. Subtrees too short to reach the limit are not walked, so the
  // check costs little more than visiting the file's largest nodes.
  auto may_reach = [&](TSNode n, uint32_t depth) {
    uint64_t span = ts_node_end_byte(n) - ts_node_start_byte(n);
    return depth + 6 * span + 8 > limit;
  };
  TSTreeCursor cursor = ts_tree_cursor_new(root());
  uint32_t depth = 0;
  bool deeper = false;
  for (;;) {
    if (may_reach(ts_tree_cursor_current_node(&cursor), depth) &&
        ts_tree_cursor_goto_first_child(&cursor)) {
      if (++depth > limit) {
        deeper = true;
        break;
      }
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        ts_tree_cursor_delete(&cursor);
        return false;
      }
      --depth;
    }
  }
  ts_tree_cursor_delete(&cursor);
  return deeper;
}

namespace {

std::vector<TSNode> ChildrenOf(TSNode n, bool named_only) {
  std::vector<TSNode> out;
  if (ts_node_is_null(n)) return out;
  out.reserve(named_only ? ts_node_named_child_count(n) : ts_node_child_count(n));
  // A cursor steps to the next sibling in constant time and, like
  // ts_node_child, through the grammar's hidden nodes to their visible
  // children.
  TSTreeCursor c = ts_tree_cursor_new(n);
  for (bool more = ts_tree_cursor_goto_first_child(&c); more;
       more = ts_tree_cursor_goto_next_sibling(&c)) {
    TSNode child = ts_tree_cursor_current_node(&c);
    if (!named_only || ts_node_is_named(child)) out.push_back(child);
  }
  ts_tree_cursor_delete(&c);
  return out;
}

}  // namespace

std::vector<TSNode> Children(TSNode n) { return ChildrenOf(n, false); }
std::vector<TSNode> NamedChildren(TSNode n) { return ChildrenOf(n, true); }

std::optional<size_t> FirstInvalidUtf8(std::string_view s) { return core::FirstInvalidUtf8(s); }

}  // namespace testmap::python
