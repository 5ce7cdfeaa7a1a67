// Strict JSON parsing for timing files: nlohmann-json underneath, but syntax
// errors become TimingErrors with a line number, and duplicate keys (which
// nlohmann would silently resolve to the last one) are reported, because a
// .test_durations file with a test listed twice is usually a bad merge.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace testmap::timings {

// Parses `text`, the content of `file`. Throws core::InputError on an empty
// document, a syntax error (NaN and Infinity, which Python's json module
// writes, are syntax errors in JSON and get a hint), or a duplicate key.
nlohmann::json ParseJsonStrict(const std::string& text, const std::string& file);

// 1-based line of byte `offset` in `text`.
int LineOfOffset(const std::string& text, size_t offset);

// 1-based line of the `occurrence`-th (0-based) appearance of `key` as a JSON
// string in `text`, or 0 when not found. Cheap enough for error paths only.
int LineOfKey(const std::string& text, const std::string& key, int occurrence = 0);

}  // namespace testmap::timings

namespace testmap::timings {

// Best-effort line of a nested key path (e.g. job, config, file in
// test-times.json): each key is searched after the previous one. 0 when not
// found.
int LineOfKeyPath(const std::string& text, std::initializer_list<std::string> keys);

}  // namespace testmap::timings
