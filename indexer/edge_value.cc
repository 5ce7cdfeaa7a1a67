#include "indexer/edge_value.h"

#include <charconv>

#include "core/errors.h"

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
  size_t pos = 0;
  while (pos < value.size()) {
    size_t end = value.find('\n', pos);
    if (end == std::string_view::npos) end = value.size();
    std::string_view line = value.substr(pos, end - pos);
    pos = end + 1;
    std::string_view fields[4];
    size_t start = 0;
    for (int f = 0; f < 4; ++f) {
      size_t tab = f < 3 ? line.find('\t', start) : line.size();
      if (tab == std::string_view::npos)
        throw core::InputError("malformed edge value (missing field)");
      fields[f] = line.substr(start, tab - start);
      start = tab + 1;
    }
    EdgeTuple t;
    t.evidence = fields[0];
    t.device = fields[1];
    for (size_t s = 0; s < fields[2].size();) {
      size_t comma = fields[2].find(',', s);
      if (comma == std::string_view::npos) comma = fields[2].size();
      t.dtypes.emplace_back(fields[2].substr(s, comma - s));
      s = comma + 1;
    }
    auto [p, ec] = std::from_chars(fields[3].data(), fields[3].data() + fields[3].size(), t.count);
    if (ec != std::errc() || p != fields[3].data() + fields[3].size() ||
        (t.evidence != "eager" && t.evidence != "compile" && t.evidence != "static")) {
      throw core::InputError("malformed edge value '" + std::string(line) + "'");
    }
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace testmap::indexer
