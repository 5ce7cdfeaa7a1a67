#include "analyzers/python/scan_output.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

namespace testmap::python {
namespace {

// Whether any of the 8 bytes of `w` needs escaping in a JSON string: below
// 0x20, '"' or '\\'. Exact, by the has-zero-byte and has-less-than tests
// of https://graphics.stanford.edu/~seander/bithacks.html (a byte's high
// bit is the same in w and in w ^ '"' or w ^ '\\').
bool NeedsEscape(uint64_t w) {
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
  uint64_t quote = w ^ (kOnes * '"'), backslash = w ^ (kOnes * '\\');
  return (((w - kOnes * 0x20) | (quote - kOnes) | (backslash - kOnes)) & ~w & kHigh) != 0;
}

void Escape(unsigned char c, std::string& out) {
  switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default: {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    }
  }
}

void Quote(std::string_view s, std::string& out) {
  out += '"';
  // Most strings need no escaping: skip clean 8-byte words, copy clean
  // spans in one go.
  size_t start = 0, i = 0;
  while (i < s.size()) {
    if (uint64_t w; i + 8 <= s.size() && (std::memcpy(&w, s.data() + i, 8), !NeedsEscape(w))) {
      i += 8;
      continue;
    }
    for (size_t end = std::min(s.size(), i + 8); i < end; ++i) {
      unsigned char c = s[i];
      if (c >= 0x20 && c != '"' && c != '\\') continue;
      out.append(s.substr(start, i - start));
      start = i + 1;
      Escape(c, out);
    }
  }
  out.append(s.substr(start));
  out += '"';
}

void Field(const char* name, std::string_view value, std::string& out) {
  out += '"';
  out += name;
  out += "\":";
  Quote(value, out);
  out += ',';
}

void List(const char* name, const std::vector<std::string>& values, std::string& out) {
  out += '"';
  out += name;
  out += "\":[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    Quote(values[i], out);
  }
  out += "],";
}

const char* SeverityName(Diagnostic::Severity s) {
  return s == Diagnostic::Severity::kError ? "error" : "warning";
}

std::string ParamSummary(const TestRecord& t) {
  std::string s;
  auto add = [&](const std::string& part) {
    if (!s.empty()) s += ' ';
    s += part;
  };
  if (!t.params.op.empty())
    add("op=" + t.params.op + (t.params.op_variant.empty() ? "" : "." + t.params.op_variant));
  if (!t.params.module.empty()) add("module=" + t.params.module);
  if (!t.params.dtypes.empty()) {
    std::string d;
    for (const auto& x : t.params.dtypes) d += (d.empty() ? "" : ",") + x;
    add("dtype=" + d);
  }
  if (t.params.training) add(*t.params.training ? "train" : "eval");
  for (const auto& [k, v] : t.params.values) add(k + "=" + v);
  return s;
}

}  // namespace

void AppendTestJson(const TestRecord& t, const std::string& file, std::string& out) {
  out += '{';
  Field("nodeid", t.nodeid, out);
  Field("generic_id", t.generic_id, out);
  Field("file", file, out);
  Field("class", t.cls, out);
  Field("method", t.method, out);
  Field("generic_class", t.generic_class, out);
  Field("generic_method", t.generic_method, out);
  Field("kind", t.kind, out);
  out += "\"line_start\":" + std::to_string(t.line_start) +
         ",\"line_end\":" + std::to_string(t.line_end) + ",";
  out += "\"params\":{";
  Field("device", t.params.device, out);
  List("dtypes", t.params.dtypes, out);
  Field("op", t.params.op, out);
  Field("op_variant", t.params.op_variant, out);
  Field("module", t.params.module, out);
  out += "\"training\":";
  out += t.params.training ? (*t.params.training ? "true" : "false") : "null";
  out += ",\"values\":{";
  for (size_t i = 0; i < t.params.values.size(); ++i) {
    if (i) out += ',';
    Quote(t.params.values[i].first, out);
    out += ':';
    Quote(t.params.values[i].second, out);
  }
  out += "}},";
  List("decorators", t.decorators, out);
  List("skips", t.skips, out);
  Field("source_hash", t.source_hash, out);
  out += "\"content\":{";
  Field("body", t.content.body, out);
  Field("decorators", t.content.decorators, out);
  Field("setup", t.content.setup, out);
  Field("entry", t.content.entry, out);
  Field("dtypes", t.content.dtypes, out);
  out.back() = '}';
  out += '}';
}

// About what a JSON record takes (~800 bytes), to reserve for.
constexpr size_t kJsonBytesPerTest = 900;

// Appends line(test, file, first, out) for every test, in order (`first`:
// the very first test). A large answer is rendered by every core, each a
// range of tests (one file's tests may span ranges: a real tree's largest
// file can hold half of them) into its own buffer, joined in order:
// rendered by one thread, it was a serial tenth of a cold scan.
template <typename Line>
void AppendEachTest(const std::vector<FileScan>& files, size_t tests, size_t bytes_per_test,
                    const Line& line, std::string& out) {
  constexpr size_t kTestsPerRange = 4096;
  const size_t ranges = std::clamp<size_t>(tests / kTestsPerRange, 1,
                                           std::max(1u, std::thread::hardware_concurrency()));
  // Renders tests [begin, end) of all files' tests in order.
  auto render = [&](size_t begin, size_t end, std::string& buf) {
    size_t index = 0;
    for (const FileScan& f : files) {
      size_t n = f.tests.size();
      if (index + n > begin)
        for (size_t i = begin > index ? begin - index : 0; i < n && index + i < end; ++i)
          line(f.tests[i], f.path, index + i == 0, buf);
      index += n;
      if (index >= end) break;
    }
  };
  auto bound = [&](size_t r) { return tests * r / ranges; };
  std::vector<std::string> rest(ranges);
  {
    std::vector<std::jthread> threads;
    for (size_t k = 1; k < ranges; ++k)
      threads.emplace_back([&, k] {
        rest[k].reserve((bound(k + 1) - bound(k)) * bytes_per_test);
        render(bound(k), bound(k + 1), rest[k]);
      });
    render(0, bound(1), out);
  }
  for (size_t k = 1; k < ranges; ++k) out += rest[k];
}

std::string RenderScan(const TreeScanResult& result, ScanFormat format) {
  std::string buf;
  size_t tests = 0;
  for (const auto& f : result.files) tests += f.tests.size();
  // One allocation instead of a doubling series.
  buf.reserve(format == ScanFormat::kJsonl || format == ScanFormat::kJson
                  ? tests * kJsonBytesPerTest + 4096
                  : tests * 120 + 4096);
  switch (format) {
    case ScanFormat::kNodeids:
      for (const auto& f : result.files)
        for (const auto& t : f.tests) {
          buf += t.nodeid;
          buf += '\n';
        }
      break;
    case ScanFormat::kJsonl:
      AppendEachTest(
          result.files, tests, kJsonBytesPerTest,
          [](const TestRecord& t, const std::string& file, bool, std::string& out) {
            AppendTestJson(t, file, out);
            out += '\n';
          },
          buf);
      break;
    case ScanFormat::kJson: {
      buf += "{\"format\":\"testmap-scan/1\",";
      Field("torch_version", result.torch_version, buf);
      buf += "\"files\":" + std::to_string(result.files.size()) + ",\"tests\":[";
      AppendEachTest(
          result.files, tests, kJsonBytesPerTest,
          [](const TestRecord& t, const std::string& file, bool first, std::string& out) {
            out += first ? "\n" : ",\n";
            AppendTestJson(t, file, out);
          },
          buf);
      buf += "],\n\"diagnostics\":[";
      bool first = true;
      for (const auto& f : result.files)
        for (const auto& d : f.diagnostics) {
          if (!first) buf += ',';
          first = false;
          buf += '{';
          Field("file", f.path, buf);
          buf += "\"line\":" + std::to_string(d.line) + ",";
          Field("severity", SeverityName(d.severity), buf);
          Field("message", d.message, buf);
          buf.back() = '}';
        }
      buf += "],\"skipped_files\":[";
      first = true;
      for (const auto& f : result.files)
        if (f.skipped) {
          if (!first) buf += ',';
          first = false;
          Quote(f.path, buf);
        }
      buf += "]}\n";
      break;
    }
    case ScanFormat::kTable: {
      size_t width = 4;
      for (const auto& f : result.files)
        for (const auto& t : f.tests) width = std::max(width, t.nodeid.size());
      width = std::min<size_t>(width, 110);
      auto row = [&](const std::string& a, const std::string& b, const std::string& c) {
        buf += a;
        buf.append(a.size() < width ? width - a.size() : 0, ' ');
        buf += "  " + b;
        buf.append(b.size() < 6 ? 6 - b.size() : 0, ' ');
        buf += "  " + c + "\n";
      };
      row("TEST", "LINE", "PARAMETERS");
      for (const auto& f : result.files)
        for (const auto& t : f.tests) {
          row(t.nodeid, std::to_string(t.line_start), ParamSummary(t));
        }
      size_t skipped = std::count_if(result.files.begin(), result.files.end(),
                                     [](auto& f) { return f.skipped; });
      buf += "\n" + std::to_string(tests) + " tests in " + std::to_string(result.files.size()) +
             " files";
      if (skipped) buf += " (" + std::to_string(skipped) + " files skipped)";
      if (!result.torch_version.empty()) buf += "; torch " + result.torch_version + " metadata";
      buf += "\n";
      break;
    }
  }
  return buf;
}

}  // namespace testmap::python
