#include "timings/strict_json.h"

#include <algorithm>
#include <set>
#include <vector>

#include "core/errors.h"

namespace testmap::timings {

int LineOfOffset(const std::string& text, size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + offset, '\n'));
}

int LineOfKey(const std::string& text, const std::string& key, int occurrence) {
  const std::string quoted = nlohmann::json(key).dump();
  size_t pos = 0;
  for (int i = 0;; ++i) {
    pos = text.find(quoted, pos);
    if (pos == std::string::npos) return 0;
    if (i == occurrence) return LineOfOffset(text, pos);
    pos += quoted.size();
  }
}

nlohmann::json ParseJsonStrict(const std::string& text, const std::string& file) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw core::InputError(file, 0, "empty timing file");
  }
  // One key set per open object; a key seen twice at the same level is a
  // duplicate. The callback sees every key before its value.
  std::vector<std::set<std::string>> open_keys;
  std::string duplicate;
  auto callback = [&](int /*depth*/, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using E = nlohmann::json::parse_event_t;
    if (event == E::object_start) open_keys.emplace_back();
    if (event == E::object_end && !open_keys.empty()) open_keys.pop_back();
    if (event == E::key && !open_keys.empty() && duplicate.empty()) {
      const std::string& key = parsed.get_ref<const std::string&>();
      if (!open_keys.back().insert(key).second) duplicate = key;
    }
    return true;
  };
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text, callback);
  } catch (const nlohmann::json::parse_error& e) {
    int line = LineOfOffset(text, e.byte > 0 ? e.byte - 1 : 0);
    std::string message = e.what();
    // Python's json.dump writes NaN/Infinity for float('nan'); say so.
    size_t at = e.byte > 0 ? e.byte - 1 : 0;
    while (at > 0 && at < text.size() && std::isalpha(static_cast<unsigned char>(text[at - 1])))
      --at;
    if (at < text.size() &&
        (text.compare(at, 3, "NaN") == 0 || text.compare(at, 8, "Infinity") == 0 ||
         text.compare(at, 9, "-Infinity") == 0)) {
      message = "NaN or Infinity is not a valid duration (nor valid JSON)";
    }
    throw core::InputError(file, line, "invalid JSON: " + message);
  }
  if (!duplicate.empty()) {
    throw core::InputError(file, LineOfKey(text, duplicate, 1),
                           "duplicate key \"" + duplicate + "\" (listed more than once)");
  }
  return doc;
}

}  // namespace testmap::timings

namespace testmap::timings {

int LineOfKeyPath(const std::string& text, std::initializer_list<std::string> keys) {
  size_t pos = 0;
  for (const std::string& key : keys) {
    pos = text.find(nlohmann::json(key).dump(), pos);
    if (pos == std::string::npos) return 0;
  }
  return LineOfOffset(text, pos);
}

}  // namespace testmap::timings
