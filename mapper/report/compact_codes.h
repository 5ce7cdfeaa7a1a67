// Compact text codes for the data a report page embeds: a heatmap of
// hundreds of operators x 20 dtypes over tens of thousands of tests holds
// millions of (test, cell) entries, which as JSON arrays of numbers would
// make the page several times larger and slower to parse. The page's script
// (assets/page.js, `decodeVarints` and `decodeFrontCoded`) reads the same
// codes; tests/mapper/report checks both sides agree through a real browser.
//
// Varints: each number as 6-bit characters of kCodeAlphabet, 5 bits of
// payload each, least significant first, bit 5 set on every character but
// the last. Numbers below 32 take one character. The alphabet needs no
// escaping in JSON or HTML.
//
// Front coding of a sorted list of strings (node ids share long prefixes):
// per string, the varint of the length of the prefix it shares with the one
// before, then the rest of the string, then '\n'. Strings must not contain
// '\n' (pytest node ids never do: pytest escapes control characters).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace testmap::report {

inline constexpr std::string_view kCodeAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// Appends `value` as a varint to `out`.
void AppendVarint(uint64_t value, std::string& out);

// Decodes a string of varints (throws core::InputError on a character
// outside the alphabet or a cut-short number). For tests and tools; the page
// decodes in JavaScript.
std::vector<uint64_t> DecodeVarints(std::string_view code);

// Front-codes `sorted` (ascending). Throws core::InputError when a
// string contains '\n' or the list is not sorted.
std::string FrontCode(const std::vector<std::string>& sorted);
std::vector<std::string> DecodeFrontCoded(std::string_view code);

}  // namespace testmap::report
