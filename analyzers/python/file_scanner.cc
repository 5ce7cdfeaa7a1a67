#include "analyzers/python/file_scanner.h"

#include <algorithm>
#include <cctype>
#include <regex>

#include "analyzers/python/module_model.h"
#include "analyzers/python/python_parser.h"

namespace testmap::python {
namespace {

int LineOfOffset(const std::string& s, size_t offset) {
  return 1 + static_cast<int>(std::count(s.begin(), s.begin() + std::min(offset, s.size()), '\n'));
}

// PEP 263: a `coding` declaration on line 1 or 2.
std::string CodingCookie(const std::string& s) {
  size_t end = 0;
  for (int line = 0; line < 2 && end < s.size(); ++line) {
    size_t nl = s.find('\n', end);
    std::string text = s.substr(end, nl == std::string::npos ? std::string::npos : nl - end);
    static const std::regex cookie(R"(^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+))");
    std::smatch m;
    if (std::regex_search(text, m, cookie)) return m[1];
    if (nl == std::string::npos) break;
    end = nl + 1;
  }
  return "";
}

std::string Latin1ToUtf8(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return out;
}

FileScan Skipped(const std::string& path, int line, std::string message) {
  FileScan scan;
  scan.path = path;
  scan.skipped = true;
  scan.diagnostics.push_back({Diagnostic::Severity::kError, line, std::move(message)});
  return scan;
}

// The tests of a parsed file. Throws ParseTimeout if a body it needs runs
// past the parse's time limit.
FileScan ScanParsed(const ParsedModule& module, const std::string& rel_path,
                    const SnapshotSource& snapshot, const CollectOptions& options) {
  FileScan scan;
  scan.path = rel_path;
  if (module.DeeperThan(kMaxSyntaxDepth))
    return Skipped(rel_path, 0,
                   "nested more than " + std::to_string(kMaxSyntaxDepth) +
                       " levels deep; not analysed (Python refuses 200 nested brackets)");
  if (auto line = module.FirstSyntaxErrorLine())
    return Skipped(rel_path, *line, "syntax error; pytest would fail to import this file");
  ModuleModel model = BuildModuleModel(module);
  Evaluator ev(module, model, snapshot);
  CollectTests(module, model, ev, options, scan);
  // A body parsed only when module code called it: its syntax error is the
  // file's, as the full parse would have found.
  if (auto line = module.LazySyntaxErrorLine())
    return Skipped(rel_path, *line, "syntax error; pytest would fail to import this file");
  return scan;
}

}  // namespace

FileScan ScanPythonSource(TSParser* parser, const std::string& rel_path, std::string source,
                          const SnapshotSource& snapshot, const CollectOptions& options) {
  if (source.rfind("\xEF\xBB\xBF", 0) == 0) source.erase(0, 3);  // UTF-8 BOM
  if (auto bad = FirstInvalidUtf8(source)) {
    std::string coding = CodingCookie(source);
    std::transform(coding.begin(), coding.end(), coding.begin(), ::tolower);
    std::replace(coding.begin(), coding.end(), '_', '-');
    if (coding == "latin-1" || coding == "iso-8859-1" || coding == "latin1" ||
        coding == "iso8859-1") {
      source = Latin1ToUtf8(source);
    } else {
      return Skipped(
          rel_path, LineOfOffset(source, *bad),
          "not valid UTF-8 (byte offset " + std::to_string(*bad) + ")" +
              (coding.empty() ? "" : " and its coding `" + coding + "` is not supported"));
    }
  }
  if (size_t nul = source.find('\0'); nul != std::string::npos)
    return Skipped(rel_path, LineOfOffset(source, nul), "source contains a null byte");

  try {
    return ScanParsed(ParsedModule(parser, std::move(source), BodyParsing::kSkipDefBodies),
                      rel_path, snapshot, options);
  } catch (const ParseTimeout& e) {
    return Skipped(rel_path, 0, e.what());
  }
}

}  // namespace testmap::python
