#include "indexer/edge_value.h"

#include <algorithm>
#include <charconv>

#include "core/errors.h"
#include "core/trace_format.h"

namespace testmap::indexer {

std::string EncodeEdge(std::vector<EdgeTuple> tuples) {
  std::vector<const EdgeTuple*> ptrs;
  for (const auto& t : tuples) ptrs.push_back(&t);
  return EncodeEdge(std::move(ptrs));
}

std::string EncodeEdge(std::vector<const EdgeTuple*> tuples) {
  return EncodeEdgeOf(std::move(tuples));
}

std::vector<EdgeTuple> DecodeEdge(std::string_view value) {
  std::vector<EdgeTuple> out;
  DecodeEdgeInto(value, out);
  return out;
}

void DecodeEdgeInto(std::string_view value, std::vector<EdgeTuple>& out) {
  size_t n = 0;
  size_t pos = 0;
  while (pos < value.size()) {
    size_t end = value.find('\n', pos);
    if (end == std::string_view::npos) end = value.size();
    std::string_view line = value.substr(pos, end - pos);
    pos = end + 1;
    // Five fields; four in an index of schema 2 (no role: `test`).
    const size_t tabs = std::count(line.begin(), line.end(), '\t');
    if (tabs != 3 && tabs != 4) throw core::InputError("malformed edge value (missing field)");
    std::string_view fields[5];
    size_t start = 0;
    for (size_t f = 0; f <= tabs; ++f) {
      size_t tab = f < tabs ? line.find('\t', start) : line.size();
      fields[f] = line.substr(start, tab - start);
      start = tab + 1;
    }
    if (n == out.size()) out.emplace_back();
    EdgeTuple& t = out[n++];
    const size_t shift = tabs == 4 ? 1 : 0;
    t.evidence = fields[0];
    if (shift) {
      t.role = fields[1];
    } else {
      t.role = "test";
    }
    t.device = fields[1 + shift];
    std::string_view dtypes = fields[2 + shift], count = fields[3 + shift];
    size_t d = 0;
    for (size_t s = 0; s < dtypes.size(); ++d) {
      size_t comma = dtypes.find(',', s);
      if (comma == std::string_view::npos) comma = dtypes.size();
      if (d == t.dtypes.size()) t.dtypes.emplace_back();
      t.dtypes[d] = dtypes.substr(s, comma - s);
      s = comma + 1;
    }
    t.dtypes.resize(d);
    t.count = 0;
    auto [p, ec] = std::from_chars(count.data(), count.data() + count.size(), t.count);
    if (ec != std::errc() || p != count.data() + count.size() ||
        (t.evidence != "eager" && t.evidence != "compile" && t.evidence != "static") ||
        !core::IsRoleName(t.role)) {
      throw core::InputError("malformed edge value '" + std::string(line) + "'");
    }
  }
  out.resize(n);
}

}  // namespace testmap::indexer
