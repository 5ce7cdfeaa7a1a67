#include "timings/json_document.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <nlohmann/json.hpp>
#include <numeric>

#include "core/errors.h"
#include "timings/line_counter.h"

namespace testmap::timings {
namespace {

// A pointer into the text that publishes how far the lexer has read: the
// SAX interface gives events but no positions, and the line of each event
// is the line of the last character consumed.
class TrackingIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  TrackingIterator(const char* p, const char** cursor) : p_(p), cursor_(cursor) {}
  reference operator*() const { return *p_; }
  TrackingIterator& operator++() {
    *cursor_ = ++p_;
    return *this;
  }
  TrackingIterator operator++(int) {
    TrackingIterator old = *this;
    ++*this;
    return old;
  }
  bool operator==(const TrackingIterator& o) const { return p_ == o.p_; }
  bool operator!=(const TrackingIterator& o) const { return p_ != o.p_; }

 private:
  const char* p_;
  const char** cursor_;
};

class TreeBuilder {
 public:
  using json = nlohmann::json;

  TreeBuilder(const std::string& text, const std::string& file)
      : text_(text), file_(file), cursor_(text.data()), lines_(text) {}

  const char** cursor() { return &cursor_; }
  JsonValue Take() { return std::move(root_); }

  bool null() {
    Scalar(JsonValue::Kind::kNull);
    return true;
  }
  bool boolean(bool v) {
    Scalar(JsonValue::Kind::kBool).boolean = v;
    return true;
  }
  bool number_integer(json::number_integer_t v) { return Number(static_cast<double>(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return Number(static_cast<double>(v)); }
  bool number_float(json::number_float_t v, const json::string_t&) { return Number(v); }
  bool string(json::string_t& v) {
    Scalar(JsonValue::Kind::kString).string = std::move(v);
    return true;
  }
  bool binary(json::binary_t&) { return Fail(Line(), "binary values are not JSON"); }
  bool start_object(std::size_t) { return Open(JsonValue::Kind::kObject); }
  bool start_array(std::size_t) { return Open(JsonValue::Kind::kArray); }
  bool end_object() {
    CheckDuplicateKeys(*open_.back());
    open_.pop_back();
    return true;
  }
  bool end_array() {
    open_.pop_back();
    return true;
  }
  bool key(json::string_t& k) {
    key_ = std::move(k);
    key_line_ = Line();
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) {
    const size_t at = position > 0 ? position - 1 : 0;
    std::string message = e.what();
    // "[json.exception.parse_error.101] parse error at line 3, column 9: ..."
    if (size_t bracket = message.find("] "); message[0] == '[' && bracket != std::string::npos)
      message.erase(0, bracket + 2);
    if (message.size() > 200) message = message.substr(0, 200) + "...";
    // Python's json.dump writes NaN/Infinity for float('nan'); say so.
    size_t word = std::min(at, text_.size());
    while (word > 0 && std::isalpha(static_cast<unsigned char>(text_[word - 1]))) --word;
    if (word > 0 && text_[word - 1] == '-') --word;
    if (text_.compare(word, 3, "NaN") == 0 || text_.compare(word, 8, "Infinity") == 0 ||
        text_.compare(word, 9, "-Infinity") == 0) {
      message = "NaN or Infinity is not a valid duration (nor valid JSON)";
    }
    return Fail(lines_.LineAt(at), "invalid JSON: " + message);
  }

 private:
  // The line of the last character the lexer consumed. A number is
  // finished by the character after it, which may be the newline: that one
  // is not counted.
  int Line() {
    size_t consumed = static_cast<size_t>(cursor_ - text_.data());
    return lines_.LineAt(consumed > 0 ? consumed - 1 : 0);
  }

  bool Fail(int line, const std::string& message) { throw core::InputError(file_, line, message); }

  // The value being introduced: the root, the next element of the open
  // list, or the member of the open object named by the last key.
  JsonValue& Place(JsonValue::Kind kind) {
    JsonValue* v = nullptr;
    if (open_.empty()) {
      v = &root_;
      v->line = Line();
    } else if (open_.back()->kind == JsonValue::Kind::kArray) {
      v = &open_.back()->elements.emplace_back();
      v->line = Line();
    } else {
      v = &open_.back()->members.emplace_back(JsonMember{std::move(key_), JsonValue{}}).second;
      v->line = key_line_;
    }
    v->kind = kind;
    return *v;
  }

  JsonValue& Scalar(JsonValue::Kind kind) { return Place(kind); }
  bool Number(double v) {
    Place(JsonValue::Kind::kNumber).number = v;
    return true;
  }

  bool Open(JsonValue::Kind kind) {
    // Checked before the value exists, so nothing is ever built (or, later,
    // walked) deeper than the limit.
    if (open_.size() >= static_cast<size_t>(kMaxJsonDepth)) {
      return Fail(Line(), "JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                              " levels (the limit for timing files)");
    }
    // Pointers to open containers stay valid: only the innermost one grows,
    // and it is never an element of a vector that grows meanwhile.
    open_.push_back(&Place(kind));
    return true;
  }

  // A key twice in one object: the error is at the second occurrence that
  // comes first in the document. Sorting the closed object's keys keeps
  // this O(k log k) without a set per open object.
  void CheckDuplicateKeys(const JsonValue& object) {
    const auto& m = object.members;
    if (m.size() < 2) return;
    std::vector<size_t> order(m.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return m[a].first < m[b].first; });
    size_t first_repeat = m.size();
    for (size_t i = 1; i < order.size(); ++i) {
      if (m[order[i]].first == m[order[i - 1]].first)
        first_repeat = std::min(first_repeat, order[i]);
    }
    if (first_repeat == m.size()) return;
    const std::string& k = m[first_repeat].first;
    Fail(m[first_repeat].second.line, "duplicate key \"" +
                                          (k.size() > 200 ? k.substr(0, 200) + "..." : k) +
                                          "\" (listed more than once)");
  }

  const std::string& text_;
  const std::string& file_;
  const char* cursor_;
  LineCounter lines_;
  JsonValue root_;
  std::vector<JsonValue*> open_;
  std::string key_;
  int key_line_ = 0;
};

}  // namespace

std::string JsonValue::Describe() const {
  switch (kind) {
    case Kind::kNull:
      return "null";
    case Kind::kBool:
      return boolean ? "true" : "false";
    case Kind::kNumber:
      return nlohmann::json(number).dump();
    case Kind::kString:
      return nlohmann::json(string.size() > 60 ? string.substr(0, 60) + "..." : string).dump();
    case Kind::kArray:
      return "a list";
    case Kind::kObject:
      return "an object";
  }
  return "?";
}

JsonValue ParseJsonDocument(const std::string& text, const std::string& file) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw core::InputError(file, 0, "empty timing file");
  }
  TreeBuilder builder(text, file);
  TrackingIterator begin(text.data(), builder.cursor());
  TrackingIterator end(text.data() + text.size(), builder.cursor());
  nlohmann::json::sax_parse(begin, end, &builder, nlohmann::json::input_format_t::json,
                            /*strict=*/true, /*ignore_comments=*/false);
  return builder.Take();
}

}  // namespace testmap::timings
