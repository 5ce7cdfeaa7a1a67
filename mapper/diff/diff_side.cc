#include "mapper/diff/diff_side.h"

#include <simdjson.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "analyzers/python/pytest_rootdir.h"
#include "analyzers/python/tree_scanner.h"
#include "core/errors.h"
#include "core/jsonl_lines.h"
#include "core/read_file.h"
#include "indexer/index_reader.h"
#include "indexer/index_store.h"

namespace testmap::diff {
namespace {

namespace fs = std::filesystem;
using simdjson::dom::element;
using simdjson::dom::object;

std::string Str(const object& o, const char* key) {
  std::string_view v;
  return o[key].get_string().get(v) == simdjson::SUCCESS ? std::string(v) : std::string();
}

// Fills `t` from one scan record; false when it is not one (no nodeid).
bool FromRecord(const object& rec, SideTest& t) {
  std::string_view v;
  if (rec["nodeid"].get_string().get(v) != simdjson::SUCCESS) return false;
  t.nodeid = v;
  t.generic_id = Str(rec, "generic_id");
  t.kind = Str(rec, "kind");
  t.source_hash = HashValue(Str(rec, "source_hash"));
  int64_t line;
  if (rec["line_start"].get_int64().get(line) == simdjson::SUCCESS) t.line = static_cast<int>(line);
  object params;
  if (rec["params"].get_object().get(params) == simdjson::SUCCESS) {
    t.device = Str(params, "device");
    t.op = Str(params, "op");
    t.module = Str(params, "module");
    simdjson::dom::array dtypes;
    if (params["dtypes"].get_array().get(dtypes) == simdjson::SUCCESS)
      for (element d : dtypes)
        if (d.get_string().get(v) == simdjson::SUCCESS) {
          if (!t.dtypes.empty()) t.dtypes += ',';
          t.dtypes += v;
        }
  }
  object content;
  if (rec["content"].get_object().get(content) == simdjson::SUCCESS) {
    t.body = HashValue(Str(content, "body"));
    t.decorators = HashValue(Str(content, "decorators"));
    t.setup = HashValue(Str(content, "setup"));
    t.entry = HashValue(Str(content, "entry"));
    t.dtypes_hash = HashValue(Str(content, "dtypes"));
  }
  return true;
}

SideTest FromScanned(const python::TestRecord& r) {
  SideTest t;
  t.nodeid = r.nodeid;
  t.generic_id = r.generic_id;
  t.kind = r.kind;
  t.device = r.params.device;
  t.op = r.params.op;
  t.module = r.params.module;
  for (const auto& d : r.params.dtypes) t.dtypes += (t.dtypes.empty() ? "" : ",") + d;
  t.line = r.line_start;
  t.source_hash = HashValue(r.source_hash);
  t.body = HashValue(r.content.body);
  t.decorators = HashValue(r.content.decorators);
  t.setup = HashValue(r.content.setup);
  t.entry = HashValue(r.content.entry);
  t.dtypes_hash = HashValue(r.content.dtypes);
  return t;
}

Side ReadIndex(const std::string& path) {
  Side side;
  side.kind = "index";
  auto store = indexer::IndexStore::Open(path, indexer::OpenMode::kRead);
  indexer::IndexReader index(*store);
  simdjson::dom::parser parser;
  index.ForEachTest([&](const std::string& nodeid, const std::string& json) {
    object rec;
    if (parser.parse(json.data(), json.size()).get_object().get(rec) != simdjson::SUCCESS)
      throw core::InputError(path, 0, "test record of " + nodeid + " is not JSON");
    SideTest t;
    // Tests only traced (never scanned) have no generic test or content:
    // the delta is of scanned suites. Tests a rescan removed
    // (indexer/scan_supersede.h) are no longer in the suite.
    bool removed = false;
    if (rec["removed"].get_bool().get(removed) == simdjson::SUCCESS && removed) return;
    if (FromRecord(rec, t) && !t.generic_id.empty()) side.tests.push_back(std::move(t));
  });
  return side;
}

Side ScanHere(const std::string& path, const SideOptions& options) {
  namespace py = testmap::python;
  Side side;
  side.kind = "tree";
  // Ids as `pytest --collect-only` run from the tree itself prints them:
  // each side's ids relative to its own tree (or the config above it),
  // wherever the diff runs from.
  std::error_code ec;
  fs::path abs = fs::absolute(path, ec);
  std::string cwd = fs::is_directory(abs, ec) ? abs.string() : abs.parent_path().string();
  py::PytestSetup setup = py::DeterminePytestSetup({{abs.string()}, "", "", cwd});
  py::TreeScanOptions o;
  o.paths = setup.paths;
  o.rootdir = setup.rootdir;
  o.collect.devices = py::ParseDeviceSpecs(options.devices);
  o.snapshot_file = options.snapshot;
  o.torch_python = options.torch_python;
  if (o.snapshot_file.empty() && o.torch_python.empty())
    o.torch_python = torch_snapshot::DefaultTorchPython();
  o.cache_dir = options.cache_dir;
  py::TreeScanResult r = py::ScanTree(o);
  if (!options.torch_python.empty() && !r.snapshot_setup_error.empty())
    throw core::InputError(path + ": torch python: " + r.snapshot_setup_error);
  side.torch_version = r.torch_version;
  for (const auto& f : r.files) {
    for (const auto& t : f.tests) side.tests.push_back(FromScanned(t));
    for (const auto& d : f.diagnostics)
      if (d.severity == py::Diagnostic::Severity::kError || f.incomplete)
        side.problems.push_back(f.path + ":" + std::to_string(d.line) + ": " + d.message);
  }
  for (const auto& e : r.errors) side.problems.push_back(e);
  if (!r.snapshot_error.empty())
    side.problems.push_back("torch metadata unavailable: " + r.snapshot_error);
  side.partial = py::IsPartial(r);
  return side;
}

}  // namespace

bool IsIndexDir(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec) && fs::exists(fs::path(path) / "CURRENT", ec);
}

uint64_t HashValue(std::string_view digest) {
  if (digest.empty()) return 0;
  auto hex = [](std::string_view s, uint64_t* v) {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *v, 16);
    return ec == std::errc() && end == s.data() + s.size();
  };
  uint64_t a = 0, b = 0, v;
  if (digest.size() == 16 && hex(digest, &a))
    v = a;
  else if (digest.size() == 32 && hex(digest.substr(0, 16), &a) && hex(digest.substr(16), &b))
    v = a ^ b;
  else
    v = std::hash<std::string_view>()(digest);
  return v ? v : 1;
}

std::vector<SideTest> ReadScanFile(const std::string& path, std::vector<std::string>* problems) {
  std::error_code ec;
  uintmax_t size = fs::file_size(path, ec);
  if (ec) throw core::InputError(path + ": cannot read: " + ec.message());
  if (size > core::kDefaultMaxInputBytes)
    throw core::InputError(path + ": " + std::to_string(size) + " bytes, over the " +
                           std::to_string(core::kDefaultMaxInputBytes) + "-byte limit");
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw core::InputError(path + ": cannot read: " + std::strerror(errno));
  std::vector<SideTest> out;
  simdjson::dom::parser parser;
  int base = 0;  // lines before the current piece
  auto parse = [&](std::string_view text) {
    core::ForEachJsonlLine(text, [&](const core::JsonlLine& line) {
      int number = base + line.number;
      object rec;
      SideTest t;
      if (parser.parse(line.text.data(), line.text.size()).get_object().get(rec) ==
              simdjson::SUCCESS &&
          FromRecord(rec, t)) {
        if (t.generic_id.empty())
          throw core::InputError(path, number, "scan record without generic_id");
        out.push_back(std::move(t));
        return;
      }
      if (line.last_without_newline) {
        problems->push_back(path + ":" + std::to_string(number) +
                            ": last line cut short, dropped: its tests are missing from this side");
        return;
      }
      throw core::InputError(path, number,
                             "not a scan record (want `testmap scan --format jsonl` output)");
    });
  };
  // Pieces of whole lines: memory stays a few pieces, not the file.
  constexpr size_t kPiece = size_t{16} << 20;
  std::string buf;
  for (;;) {
    size_t have = buf.size();
    buf.resize(have + kPiece);
    size_t n = std::fread(buf.data() + have, 1, kPiece, f.get());
    buf.resize(have + n);
    if (n == 0) break;
    size_t last = buf.rfind('\n');
    if (last == std::string::npos) continue;
    std::string_view whole(buf.data(), last + 1);
    parse(whole);
    base += static_cast<int>(std::count(whole.begin(), whole.end(), '\n'));
    buf.erase(0, last + 1);
  }
  if (std::ferror(f.get())) throw core::InputError(path + ": read error");
  if (!buf.empty()) parse(buf);
  return out;
}

Side ReadSide(const std::string& path, const SideOptions& options) {
  auto start = std::chrono::steady_clock::now();
  std::error_code ec;
  Side side;
  if (!fs::exists(path, ec)) throw core::InputError(path + ": no such file or directory");
  if (IsIndexDir(path)) {
    side = ReadIndex(path);
  } else if (fs::is_directory(path, ec) || fs::path(path).extension() == ".py") {
    side = ScanHere(path, options);
  } else {
    side.kind = "scan";
    side.tests = ReadScanFile(path, &side.problems);
    side.partial = !side.problems.empty();
  }
  side.label = path;
  side.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return side;
}

}  // namespace testmap::diff
