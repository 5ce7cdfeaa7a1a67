// The test ids known to exist, by file: what `testmap plan` cuts a long file
// into when its timings know only the whole file (test-times.json) and the
// plan must print only what pytest accepts. They come from test-level
// timings of any job or config, `--collected` (a scan's or pytest's list)
// and the index's tests.
//
// Files are joined by core's one file identity (core/node_id.h): a file key
// is known under each of core::FileKeyAliases, so test-times.json's
// "test_nn" finds the ids of "test/test_nn.py".
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace testmap::plan {

class KnownTests {
 public:
  // A node id with a test name ("f.py::T::t", "f.py::t"); bare paths and
  // classes are not tests and are ignored. Duplicates are fine.
  void Add(std::string_view nodeid);

  // The known ids of `file_key` (either spelling), restricted to class `cls`
  // when not empty, sorted; empty when none are known.
  std::vector<std::string> Of(const std::string& file_key, const std::string& cls = "") const;

  // The path the known ids of `file_key` use ("test/test_nn.py"), or "".
  std::string PathOf(const std::string& file_key) const;

  bool empty() const { return files_.empty(); }

 private:
  struct File {
    std::string path;
    std::map<std::string, std::string> ids;  // id -> class, sorted, unique
  };
  std::unordered_map<std::string, File> files_;         // by canonical FileKey of the path
  std::unordered_map<std::string, std::string> alias_;  // alias -> canonical key
};

}  // namespace testmap::plan
