#include "indexer/index/edge_value.h"

#include <algorithm>
#include <charconv>
#include <tuple>

#include "indexer/index/index_error.h"

namespace testmap::indexer {

std::string EncodeEdge(std::vector<EdgeTuple> tuples) {
  std::vector<const EdgeTuple*> ptrs;
  for (const auto& t : tuples) ptrs.push_back(&t);
  return EncodeEdge(std::move(ptrs));
}

std::string EncodeEdge(std::vector<const EdgeTuple*> tuples) {
  auto same = [](const EdgeTuple* a, const EdgeTuple* b) {
    return a->evidence == b->evidence && a->device == b->device && a->dtypes == b->dtypes;
  };
  std::sort(tuples.begin(), tuples.end(), [](const EdgeTuple* a, const EdgeTuple* b) {
    return std::tie(a->evidence, a->device, a->dtypes) <
           std::tie(b->evidence, b->device, b->dtypes);
  });
  std::string out;
  for (size_t i = 0; i < tuples.size(); ++i) {
    uint64_t count = tuples[i]->count;
    while (i + 1 < tuples.size() && same(tuples[i + 1], tuples[i])) count += tuples[++i]->count;
    const EdgeTuple& t = *tuples[i];
    if (!out.empty()) out.push_back('\n');
    out += t.evidence;
    out.push_back('\t');
    out += t.device;
    out.push_back('\t');
    for (size_t d = 0; d < t.dtypes.size(); ++d) {
      if (d) out.push_back(',');
      out += t.dtypes[d];
    }
    out.push_back('\t');
    out += std::to_string(count);
  }
  return out;
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
      if (tab == std::string_view::npos) throw IndexError("malformed edge value (missing field)");
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
      throw IndexError("malformed edge value '" + std::string(line) + "'");
    }
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace testmap::indexer
