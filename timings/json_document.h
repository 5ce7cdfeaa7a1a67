// JSON as the timing formats need it (.test_durations, test-times.json),
// read in one linear pass:
//  - strict: a key twice in one object is an error at the second one's line
//    (JSON parsers silently keep the last); NaN and Infinity, which Python's
//    json.dump writes, are refused with a hint;
//  - bounded: nesting past kMaxJsonDepth is refused when it is met, before
//    anything descends into it (nothing here or in the readers recurses
//    deeper than the limit);
//  - located: every value knows its line, so a reader's error names
//    file:line without searching the text again (a search per key made
//    reading 100,000 durations quadratic).
// nlohmann's SAX parser does the lexing; this file only builds the tree.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace testmap::timings {

// The deepest nesting a timing file may have. The formats need 4
// (test-times.json's class-level variant); anything deeper is not timings.
inline constexpr int kMaxJsonDepth = 64;

struct JsonMember;

struct JsonValue {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  // The line a value is introduced on: its key's for object members, its
  // first character's otherwise (1-based).
  int line = 0;
  bool boolean = false;
  double number = 0;  // every JSON number, as a double
  std::string string;
  std::vector<JsonValue> elements;  // kArray
  std::vector<JsonMember> members;  // kObject, document order

  bool is_number() const { return kind == Kind::kNumber; }
  bool is_string() const { return kind == Kind::kString; }
  bool is_array() const { return kind == Kind::kArray; }
  bool is_object() const { return kind == Kind::kObject; }

  // Short, bounded wording for error messages: `"1s"` (a string, cut at 60
  // characters), `true`, `null`, `an object`, `a list`.
  std::string Describe() const;
};

// One member of an object, named like a std::pair (which cannot hold a
// JsonValue before the type is complete: clang's libstdc++ check refuses it).
struct JsonMember {
  std::string first;  // the key
  JsonValue second;
};

// Parses `text`, the content of `file`. Throws core::InputError(file, line)
// on an empty document, a syntax error (with nlohmann's reason), a
// duplicate key, or nesting deeper than kMaxJsonDepth.
JsonValue ParseJsonDocument(const std::string& text, const std::string& file);

}  // namespace testmap::timings
