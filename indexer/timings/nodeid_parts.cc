#include "indexer/timings/nodeid_parts.h"

#include <vector>

namespace testmap::indexer {

NodeIdParts SplitNodeId(std::string_view nodeid) {
  // Parameter ids may contain "::" (e.g. "[a::b]"), so only split outside
  // the brackets of the last part.
  std::string_view head = nodeid;
  std::string_view params;
  if (size_t bracket = nodeid.find('['); bracket != std::string_view::npos) {
    head = nodeid.substr(0, bracket);
    params = nodeid.substr(bracket);
  }
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t sep = head.find("::", start);
    parts.push_back(
        head.substr(start, sep == std::string_view::npos ? head.size() - start : sep - start));
    if (sep == std::string_view::npos) break;
    start = sep + 2;
  }
  NodeIdParts out;
  out.path = std::string(parts.front());
  if (parts.size() == 1) {
    out.path += params;
    return out;
  }
  out.name = std::string(parts.back()) + std::string(params);
  for (size_t i = 1; i + 1 < parts.size(); ++i) {
    if (!out.cls.empty()) out.cls += "::";
    out.cls += parts[i];
  }
  return out;
}

std::string FileKey(std::string_view path) {
  if (path.size() > 3 && path.substr(path.size() - 3) == ".py") path.remove_suffix(3);
  return std::string(path);
}

}  // namespace testmap::indexer
