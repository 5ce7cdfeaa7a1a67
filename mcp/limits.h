// The limits of `testmap mcp`, in one place (docs/mcp.md lists them): every
// request is checked against them before it is parsed or answered, so no
// client can make the server allocate without bound, recurse without bound
// or answer with an unbounded message.
#pragma once

#include <cstddef>

namespace testmap::mcp {

// One JSON-RPC message (one line on stdin), newline excluded. A longer line
// is discarded as it streams in and answered with an "invalid request"
// error; the server never holds more than this of one line.
inline constexpr size_t kMaxRequestBytes = size_t{1} << 20;  // 1 MiB

// Nesting of arrays and objects in one message, checked before parsing
// (nlohmann-json parses recursively).
inline constexpr int kMaxJsonDepth = 64;

// Items on one page of a paged answer (tests, operators, plan items):
// `limit` defaults to kDefaultPageItems and may not exceed kMaxPageItems.
inline constexpr int kDefaultPageItems = 100;
inline constexpr int kMaxPageItems = 1000;

// Requests being answered at once; the reader stops reading stdin past it,
// so a flood waits in the pipe rather than in memory.
inline constexpr size_t kMaxInFlight = 64;

// Whole answers kept for paging (a cursor re-reads the cached answer
// instead of asking the index again), least recently used dropped first.
inline constexpr size_t kAnswerCacheEntries = 8;

// Derived states several tools share (admissions: a whole-index walk each),
// kept per open index, least recently used dropped first.
inline constexpr size_t kSharedDerivations = 2;

}  // namespace testmap::mcp
