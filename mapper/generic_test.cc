#include "mapper/generic_test.h"

#include <array>
#include <cctype>

#include "indexer/timings/nodeid_parts.h"

namespace testmap::mapper {
namespace {

constexpr std::array<std::string_view, 14> kDevices = {
    "cpu", "cuda", "xpu",           "mps",         "meta",    "lazy",  "hpu",
    "npu", "mtia", "privateuseone", "privateuse1", "openreg", "spyre", "xla"};

constexpr std::array<std::string_view, 26> kDtypes = {"float32",         "float64",
                                                      "float16",         "bfloat16",
                                                      "complex32",       "complex64",
                                                      "complex128",      "int8",
                                                      "int16",           "int32",
                                                      "int64",           "uint8",
                                                      "uint16",          "uint32",
                                                      "uint64",          "bool",
                                                      "float8_e4m3fn",   "float8_e5m2",
                                                      "float8_e4m3fnuz", "float8_e5m2fnuz",
                                                      "float8_e8m0fnu",  "float4_e2m1fn_x2",
                                                      "chalf",           "cfloat",
                                                      "cdouble",         "half"};

bool StripSuffix(std::string& s, std::string_view suffix) {
  if (s.size() > suffix.size() + 1 &&
      s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0 &&
      s[s.size() - suffix.size() - 1] == '_') {
    s.resize(s.size() - suffix.size() - 1);
    return true;
  }
  return false;
}

}  // namespace

std::string GenericTestKey(std::string_view nodeid) {
  indexer::NodeIdParts parts = indexer::SplitNodeId(nodeid);
  std::string name = parts.name.substr(0, parts.name.find('['));
  // Dtypes come last (several for multi-dtype tests), then the device.
  for (bool more = true; more;) {
    more = false;
    for (std::string_view d : kDtypes) more = more || StripSuffix(name, d);
  }
  for (std::string_view d : kDevices) {
    if (StripSuffix(name, d)) break;
  }
  std::string cls = parts.cls;
  for (std::string_view d : kDevices) {
    std::string upper(d);
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (cls.size() > upper.size() &&
        cls.compare(cls.size() - upper.size(), upper.size(), upper) == 0) {
      cls.resize(cls.size() - upper.size());
      break;
    }
  }
  return parts.path + "::" + cls + "::" + name;
}

}  // namespace testmap::mapper
