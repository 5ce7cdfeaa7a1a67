// JSON quoting in scan output (scan_output.h): strings that put each byte
// that needs escaping (and bytes around it) at every offset of 8-byte
// words, against nlohmann::json reading the record back.
#include "analyzers/python/scan_output.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace testmap::python {
namespace {

TEST(ScanOutputTest, QuotesEveryByteAtEveryWordOffset) {
  // Those that need escaping, their neighbours, and a UTF-8 letter's bytes.
  const std::string special = std::string("\x00\x01\x1f \x21\"#[\\]\x7f", 12) + "\xc3\xa9";
  size_t checked = 0;
  for (size_t len = 0; len <= 20; ++len)
    for (size_t at = 0; at < len; ++at)
      for (char c : special) {
        std::string s(len, 'a');
        s[at] = c;
        if (c == '\xc3') s.insert(at + 1, 1, '\xa9');  // keep it valid UTF-8
        if (c == '\xa9') s.insert(at, 1, '\xc3');
        TestRecord t;
        t.nodeid = s;
        t.decorators = {s, s + s};
        std::string out;
        AppendTestJson(t, "f.py", out);
        nlohmann::json j = nlohmann::json::parse(out);
        ASSERT_EQ(j["nodeid"].get<std::string>(), s) << out;
        ASSERT_EQ(j["decorators"][1].get<std::string>(), s + s) << out;
        // Escaped as JSON requires and no more: two bytes for `"`, `\`, \n,
        // \r, \t, six for other control bytes, a clean byte as itself.
        size_t b = out.find("\"nodeid\":\"") + 10, e = out.find("\",\"generic_id\"");
        size_t want = 0;
        for (unsigned char x : s)
          want += x == '"' || x == '\\' || x == '\n' || x == '\r' || x == '\t' ? 2
                  : x < 0x20                                                   ? 6
                                                                               : 1;
        EXPECT_EQ(e - b, want) << out;
        if (want == s.size()) {
          EXPECT_EQ(out.substr(b, e - b), s);
        }
        ++checked;
      }
  EXPECT_EQ(checked, 210u * special.size());
}

TEST(ScanOutputTest, EscapesAsBefore) {
  TestRecord t;
  t.nodeid = std::string("a\"b\\c\nd\re\tf\x01g\x1fh", 15);
  std::string out;
  AppendTestJson(t, "f.py", out);
  EXPECT_EQ(out.substr(0, out.find(",\"generic_id\"")),
            R"({"nodeid":"a\"b\\c\nd\re\tf\u0001g\u001fh")");
}

// A tree of `files` files of `per_file` tests each (some files empty).
TreeScanResult ManyTests(size_t files, size_t per_file) {
  TreeScanResult r;
  for (size_t f = 0; f < files; ++f) {
    FileScan s;
    s.path = "d/test_" + std::to_string(f) + ".py";
    for (size_t i = 0; f % 7 != 0 && i < per_file; ++i) {
      TestRecord t;
      t.nodeid = s.path + "::TestX::test_" + std::to_string(i);
      t.line_start = static_cast<int>(i);
      s.tests.push_back(t);
    }
    r.files.push_back(s);
  }
  return r;
}

TEST(ScanOutputTest, AnAnswerComposedOfSegmentsIsTheOneByOneRendering) {
  // Head, one segment per file (some empty, the first among them: the JSON
  // array's first comma is in the second file's segment), tail: the same
  // bytes as rendering each test in order.
  for (auto [files, per_file] :
       {std::pair<size_t, size_t>{3, 97}, {40, 97}, {400, 97}, {3, 9001}}) {
    TreeScanResult r = ManyTests(files, per_file);
    std::string jsonl, array;
    size_t n = 0;
    for (const auto& f : r.files)
      for (const auto& t : f.tests) {
        AppendTestJson(t, f.path, jsonl);
        jsonl += '\n';
        array += n++ ? ",\n" : "\n";
        AppendTestJson(t, f.path, array);
      }
    EXPECT_EQ(RenderScan(r, ScanFormat::kJsonl), jsonl) << files;
    std::string json = RenderScan(r, ScanFormat::kJson);
    size_t at = json.find("\"tests\":[") + 9;
    EXPECT_EQ(json.substr(at, array.size()), array) << files;
    const std::string after = "],\n\"diagnostics\"";
    EXPECT_EQ(json.substr(at + array.size(), after.size()), after) << files;
    nlohmann::json parsed = nlohmann::json::parse(json);
    EXPECT_EQ(parsed["tests"].size(), n) << files;
  }
}

}  // namespace
}  // namespace testmap::python
