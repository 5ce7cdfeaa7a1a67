#include "analyzers/python/scan_output.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "analyzers/python/parallel_ranges.h"

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

size_t TableWidth(size_t longest_id) {
  return std::min<size_t>(std::max<size_t>(4, longest_id), 110);
}

namespace {

// The table's row: the TEST column padded to the layout's width.
void Row(std::string_view a, std::string_view b, std::string_view c, size_t width,
         std::string& out) {
  out += a;
  out.append(a.size() < width ? width - a.size() : 0, ' ');
  out += "  ";
  out += b;
  out.append(b.size() < 6 ? 6 - b.size() : 0, ' ');
  out += "  ";
  out += c;
  out += '\n';
}

// About what a JSON record takes (~800 bytes), to reserve for.
constexpr size_t kJsonBytesPerTest = 900;

}  // namespace

void RenderSegment(std::span<const TestRecord> tests, const std::string& file,
                   const ScanLayout& layout, std::string& out) {
  switch (layout.format) {
    case ScanFormat::kNodeids:
      for (const auto& t : tests) {
        out += t.nodeid;
        out += '\n';
      }
      break;
    case ScanFormat::kJsonl:
      out.reserve(out.size() + tests.size() * kJsonBytesPerTest);
      for (const auto& t : tests) {
        AppendTestJson(t, file, out);
        out += '\n';
      }
      break;
    case ScanFormat::kJson:
      out.reserve(out.size() + tests.size() * kJsonBytesPerTest);
      for (const auto& t : tests) {
        out += ",\n";
        AppendTestJson(t, file, out);
      }
      break;
    case ScanFormat::kTable:
      for (const auto& t : tests)
        Row(t.nodeid, std::to_string(t.line_start), ParamSummary(t), layout.table_width, out);
      break;
  }
}

OutputBytes RenderFileSegment(std::span<const TestRecord> tests, const std::string& file,
                              const ScanLayout& layout, int threads) {
  constexpr size_t kTestsPerRange = 4096;
  std::vector<std::string> parts(std::max(1, threads));
  ForEachRange(tests.size(), kTestsPerRange, threads, [&](size_t range, size_t begin, size_t end) {
    RenderSegment(tests.subspan(begin, end - begin), file, layout, parts[range]);
  });
  OutputBytes out;
  for (auto& part : parts) out.Append(std::move(part));
  return out;
}

std::string RenderHead(const ScanSummary& scan, const ScanLayout& layout) {
  std::string out;
  if (layout.format == ScanFormat::kTable)
    Row("TEST", "LINE", "PARAMETERS", layout.table_width, out);
  if (layout.format == ScanFormat::kJson) {
    out += "{\"format\":\"testmap-scan/1\",";
    Field("torch_version", scan.torch_version, out);
    out += "\"files\":" + std::to_string(scan.files.size()) + ",\"tests\":[";
  }
  return out;
}

std::string RenderTail(const ScanSummary& scan, const ScanLayout& layout) {
  std::string out;
  if (layout.format == ScanFormat::kTable) {
    size_t skipped = std::count_if(scan.files.begin(), scan.files.end(),
                                   [](const FileScan& f) { return f.skipped; });
    out += "\n" + std::to_string(scan.tests) + " tests in " + std::to_string(scan.files.size()) +
           " files";
    if (skipped) out += " (" + std::to_string(skipped) + " files skipped)";
    if (!scan.torch_version.empty()) out += "; torch " + scan.torch_version + " metadata";
    out += "\n";
  }
  if (layout.format == ScanFormat::kJson) {
    out += "],\n\"diagnostics\":[";
    bool first = true;
    for (const auto& f : scan.files)
      for (const auto& d : f.diagnostics) {
        if (!first) out += ',';
        first = false;
        out += '{';
        Field("file", f.path, out);
        out += "\"line\":" + std::to_string(d.line) + ",";
        Field("severity", SeverityName(d.severity), out);
        Field("message", d.message, out);
        out.back() = '}';
      }
    out += "],\"skipped_files\":[";
    first = true;
    for (const auto& f : scan.files)
      if (f.skipped) {
        if (!first) out += ',';
        first = false;
        Quote(f.path, out);
      }
    out += "]}\n";
  }
  return out;
}

OutputBytes ComposeScan(const ScanLayout& layout, const OutputBytes& head,
                        const std::vector<OutputBytes>& segments, const OutputBytes& tail) {
  OutputBytes out = head;
  // A JSON array's first element has no comma before it.
  bool drop_comma = layout.format == ScanFormat::kJson;
  for (const OutputBytes& s : segments) {
    if (drop_comma && s.size() > 0) {
      out.Append(s.Range(1, s.size() - 1));
      drop_comma = false;
    } else {
      out.Append(s);
    }
  }
  out.Append(tail);
  return out;
}

std::string RenderScan(const TreeScanResult& result, ScanFormat format) {
  ScanSummary scan{result.files, 0, result.torch_version};
  ScanLayout layout{format, 0};
  size_t longest = 0;
  for (const auto& f : result.files) {
    scan.tests += f.tests.size();
    for (const auto& t : f.tests) longest = std::max(longest, t.nodeid.size());
  }
  layout.table_width = TableWidth(longest);
  std::vector<OutputBytes> segments;
  for (const auto& f : result.files) {
    std::string s;
    RenderSegment(f.tests, f.path, layout, s);
    segments.emplace_back(std::move(s));
  }
  return ComposeScan(layout, OutputBytes(RenderHead(scan, layout)), segments,
                     OutputBytes(RenderTail(scan, layout)))
      .str();
}

}  // namespace testmap::python
