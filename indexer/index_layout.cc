#include "indexer/index_layout.h"

namespace testmap::indexer {

const char* CfName(Cf cf) {
  switch (cf) {
    case Cf::kDefault:
      return "default";
    case Cf::kTests:
      return "tests";
    case Cf::kGeneric:
      return "generic";
    case Cf::kOpTests:
      return "op_tests";
    case Cf::kTestOps:
      return "test_ops";
    case Cf::kOutcomes:
      return "outcomes";
    case Cf::kRuns:
      return "runs";
    case Cf::kTimings:
      return "timings";
    case Cf::kBackends:
      return "backends";
  }
  return "?";
}

std::string JoinKey(std::initializer_list<std::string_view> fields) {
  std::string key;
  bool first = true;
  for (auto f : fields) {
    if (!first) key.push_back('\0');
    key.append(f);
    first = false;
  }
  return key;
}

std::string KeyPrefix(std::initializer_list<std::string_view> fields) {
  std::string key;
  for (auto f : fields) {
    key.append(f);
    key.push_back('\0');
  }
  return key;
}

std::vector<std::string_view> SplitKey(std::string_view key) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    size_t nul = key.find('\0', start);
    if (nul == std::string_view::npos) {
      out.push_back(key.substr(start));
      return out;
    }
    out.push_back(key.substr(start, nul - start));
    start = nul + 1;
  }
}

}  // namespace testmap::indexer
