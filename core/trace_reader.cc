#include "core/trace_reader.h"

#include <simdjson.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "core/dtype_names.h"
#include "core/duration.h"
#include "core/errors.h"
#include "core/jsonl_lines.h"
#include "core/key_field.h"
#include "core/op_names.h"
#include "core/trace_format.h"

// Trace shards are the bulk of what ingest reads (hundreds of MB for a full
// PyTorch run), so they are parsed with simdjson's DOM parser: several
// times faster than an nlohmann DOM per line, and just as strict.

namespace testmap::core {
namespace {

namespace dom = simdjson::dom;

// The same few hundred operator and dtype spellings repeat millions of
// times: each is parsed once. Node-based maps keep the views stable.
struct ViewHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

struct NameCache {
  // Found by view: a lookup per observation allocates nothing.
  std::unordered_map<std::string, std::pair<std::string, std::string>, ViewHash, std::equal_to<>>
      ops;
  std::unordered_map<std::string, std::string, ViewHash, std::equal_to<>> dtypes;
  // Evidence, devices, roles: looked up without a copy (several per op).
  std::unordered_map<std::string, std::string, ViewHash, std::equal_to<>> strings;

  std::string_view Intern(std::string_view s) {
    auto it = strings.find(s);
    if (it == strings.end()) it = strings.emplace(std::string(s), std::string(s)).first;
    return it->second;
  }
};

class LineReader {
 public:
  LineReader(const std::string& path, int line, NameCache& cache)
      : path_(path), line_(line), cache_(cache) {}

  [[noreturn]] void Fail(const std::string& message) const {
    throw InputError(path_, line_, message);
  }

  void Duration(double seconds, std::string_view nodeid) const {
    CheckDuration(seconds, path_, line_, nodeid.empty() ? "the test" : std::string(nodeid));
  }

  // A node id, device or dtype as the index keys and edge values may hold
  // it (core/key_field.h).
  void Key(std::string_view field, const char* what) const {
    CheckKeyField(field, what, path_, line_);
  }
  void Item(std::string_view item, const char* what) const {
    CheckValueItem(item, what, path_, line_);
  }

  TraceCollection Collection(std::optional<double> start, std::optional<double> end,
                             std::optional<dom::object> files) const {
    if (!start) Fail("collection record without a numeric `start`");
    if (!end) Fail("collection record without a numeric `end`");
    if (!files) Fail("collection record without a `files` object");
    if (!(*start <= *end)) Fail("collection `end` before its `start`");
    TraceCollection out;
    out.line = line_;
    out.start = *start;
    out.end = *end;
    Duration(*end - *start, "the collection");
    for (auto [file, count] : *files) {
      Key(file, "file");
      int64_t n = -1;
      if (count.get_int64().get(n) != simdjson::SUCCESS || n < 0)
        Fail("the test count of " + std::string(file) + " is not a count");
      out.files.emplace_back(file, n);
    }
    return out;
  }

  std::string_view String(dom::element v, const char* what) const {
    std::string_view s;
    if (v.get_string().get(s) != simdjson::SUCCESS)
      Fail(std::string("`") + what + "` is not a string");
    return s;
  }

  // Fills `out`, reusing its dtypes' storage (a shard has millions of ops).
  void Op(dom::element value, TraceOp& out) {
    dom::object op;
    if (value.get_object().get(op) != simdjson::SUCCESS) Fail("an `ops` entry is not an object");
    out.evidence = "eager";
    out.role = kRoleTest;
    out.device = {};
    out.dtypes.clear();
    out.count = 1;
    std::string_view name;
    for (auto [key, v] : op) {
      if (key == "op") {
        name = String(v, "op");
      } else if (key == "evidence") {
        out.evidence = cache_.Intern(String(v, "evidence"));
      } else if (key == "role") {
        out.role = cache_.Intern(String(v, "role"));
      } else if (key == "device") {
        if (!v.is_null()) out.device = InternItem(String(v, "device"), "device");
      } else if (key == "count") {
        if (v.get_uint64().get(out.count) != simdjson::SUCCESS)
          Fail("`count` of " + std::string(name) + " is not a count");
      } else if (key == "dtypes") {
        dom::array dtypes;
        if (v.get_array().get(dtypes) != simdjson::SUCCESS)
          Fail("`dtypes` of " + std::string(name) + " is not a list");
        for (auto d : dtypes) {
          std::string_view s;
          if (d.get_string().get(s) != simdjson::SUCCESS)
            Fail("a dtype of " + std::string(name) + " is not a string");
          auto it = cache_.dtypes.find(s);
          if (it == cache_.dtypes.end()) {
            auto canonical = NormalizeDtype(s);
            if (!canonical) Item(s, "dtype");
            it = cache_.dtypes.emplace(std::string(s), canonical ? *canonical : std::string(s))
                     .first;
          }
          out.dtypes.push_back(it->second);
        }
      }
    }
    if (name.empty()) Fail("an `ops` entry without an `op` name");
    if (out.evidence != "eager" && out.evidence != "compile")
      Fail("unknown evidence `" + std::string(out.evidence) + "` for " + std::string(name));
    if (!IsRoleName(out.role))
      Fail("unknown role `" + std::string(out.role) + "` for " + std::string(name));
    auto it = cache_.ops.find(name);
    if (it == cache_.ops.end()) {
      auto parsed = ParseOpName(name);
      if (!parsed) Fail("`" + std::string(name) + "` is not an operator name");
      // The tracer records overloads only: a name without one
      // (aten::_local_scalar_dense) is the default overload, not a packet.
      it = cache_.ops.emplace(std::string(name), std::make_pair(parsed->Packet(), parsed->overload))
               .first;
    }
    out.packet = it->second.first;
    out.overload = it->second.second;
  }

 private:
  // Checked once per distinct spelling, as the cache sees it first.
  std::string_view InternItem(std::string_view s, const char* what) {
    auto it = cache_.strings.find(s);
    if (it != cache_.strings.end()) return it->second;
    Item(s, what);
    return cache_.Intern(s);
  }

  const std::string& path_;
  int line_;
  NameCache& cache_;
};

// The `begin` of the test in flight.
struct Pending {
  std::string nodeid, start = "null", worker = "null";  // start and worker as JSON
  std::string worker_name;
  std::optional<double> start_time;
  int line = 0;
};

TraceTest UnfinishedTest(const Pending& p, const std::string& reason) {
  TraceTest t;
  t.line = p.line;
  t.nodeid = p.nodeid;
  t.outcome = kCrashedOutcome;
  t.start = p.start_time;
  t.worker = p.worker_name;
  t.unfinished = true;
  t.crash_reason = reason;
  t.outcome_json = "{\"outcome\":\"crashed\",\"duration\":null,\"crash\":{\"reason\":" +
                   nlohmann::json(reason).dump() + "},\"start\":" + p.start +
                   ",\"worker\":" + p.worker + "}";
  return t;
}

}  // namespace

bool LooksLikeTrace(std::string_view text) {
  // The plugin writes compact JSON, so a shard starts with {"type".
  size_t brace = text.find_first_not_of(" \t\r\n");
  if (brace == std::string_view::npos || text[brace] != '{') return false;
  size_t key = text.find_first_not_of(" \t\r\n", brace + 1);
  return key != std::string_view::npos && text.substr(key, 6) == "\"type\"";
}

void ReadTrace(std::string_view text, const std::string& path, TraceVisitor& visitor,
               const TraceReadOptions& options) {
  NameCache cache;
  dom::parser parser;
  bool seen_run = false;
  std::optional<Pending> pending;
  auto finish_pending = [&](const std::string& reason) {
    if (!pending) return;
    visitor.Test(UnfinishedTest(*pending, reason));
    pending.reset();
  };
  // simdjson may read up to SIMDJSON_PADDING bytes past a line's end
  // (whatever they hold). Every line but the last few has that much of the
  // text after it, so it is parsed in place; only those few are copied into
  // a padded buffer (a copy of the whole text was a second 27 MB per shard).
  const char* text_end = text.data() + text.size();
  simdjson::padded_string tail;
  bool stop = false;
  std::vector<TraceOp> spare_ops;  // the last test's, for their storage
  ForEachJsonlLine(text, [&](const JsonlLine& line) {
    if (stop) return;
    LineReader lr(path, line.number, cache);
    dom::object obj;
    const bool in_place = static_cast<size_t>(text_end - line.text.data()) >=
                          line.text.size() + simdjson::SIMDJSON_PADDING;
    if (!in_place) tail = simdjson::padded_string(line.text);
    auto error = (in_place ? parser.parse(line.text.data(), line.text.size(),
                                          /*realloc_if_needed=*/false)
                           : parser.parse(tail))
                     .get_object()
                     .get(obj);
    if (error != simdjson::SUCCESS && line.last_without_newline) {
      visitor.Warning(path + ":" + std::to_string(line.number) +
                      ": last line cut short (no newline, not complete JSON): ignored");
      stop = true;
      return;
    }
    if (error == simdjson::INCORRECT_TYPE) lr.Fail("record is not a JSON object");
    if (error != simdjson::SUCCESS) {
      std::string excerpt(line.text.substr(0, 60));
      lr.Fail("corrupt record, not JSON: '" + excerpt + (line.text.size() > 60 ? "...'" : "'") +
              " (" + simdjson::error_message(error) + ")");
    }
    TraceTest test;
    test.line = line.number;
    std::string_view type, format;
    std::string start_raw = "null", worker_raw = "null";
    int64_t version = -1;
    bool has_ops = false;
    std::optional<double> end;
    std::optional<dom::object> files;
    for (auto [key, v] : obj) {
      if (key == "type") {
        type = lr.String(v, "type");
      } else if (key == "nodeid") {
        test.nodeid = lr.String(v, "nodeid");
      } else if (key == "format") {
        format = lr.String(v, "format");
      } else if (key == "version") {
        if (v.get_int64().get(version) != simdjson::SUCCESS) lr.Fail("`version` is not an integer");
      } else if (key == "ops") {
        dom::array arr;
        if (v.get_array().get(arr) != simdjson::SUCCESS) lr.Fail("`ops` is not a list");
        test.ops.swap(spare_ops);
        size_t n = 0;
        for (auto op : arr) {
          if (n == test.ops.size()) test.ops.emplace_back();
          lr.Op(op, test.ops[n++]);
        }
        test.ops.resize(n);
        has_ops = true;
      } else if (key == "outcome") {
        test.outcome = lr.String(v, "outcome");
        test.outcome_json.insert(0, "\"outcome\":" + simdjson::minify(v));
      } else if (key == "duration") {
        double d = 0;
        if (!v.is_null()) {
          if (v.get_double().get(d) != simdjson::SUCCESS) lr.Fail("`duration` is not a number");
          lr.Duration(d, test.nodeid);
          test.duration = d;
        }
        test.outcome_json += ",\"duration\":" + simdjson::minify(v);
      } else if (key == "start" || key == "time") {
        double s = 0;
        if (v.get_double().get(s) == simdjson::SUCCESS) test.start = s;
        start_raw = simdjson::minify(v);
        if (key == "start") test.outcome_json += ",\"start\":" + start_raw;
      } else if (key == "worker") {
        if (!v.is_null()) test.worker = lr.String(v, "worker");
        worker_raw = simdjson::minify(v);
        test.outcome_json += ",\"worker\":" + worker_raw;
      } else if (key == "end") {
        double e = 0;
        if (v.get_double().get(e) != simdjson::SUCCESS) lr.Fail("`end` is not a number");
        end = e;
      } else if (key == "files") {
        dom::object f;
        if (v.get_object().get(f) != simdjson::SUCCESS) lr.Fail("`files` is not an object");
        files = f;
      } else if (key == "phases" || key == "crash") {
        test.outcome_json += ",\"" + std::string(key) + "\":" + simdjson::minify(v);
      }
    }
    if (type.empty()) lr.Fail("record without a string `type` field");
    if (type == kRunRecord) {
      if (format != kTraceFormatName)
        lr.Fail("not a testmap trace (format `" + std::string(format) + "`)");
      if (version < 0) lr.Fail("trace run record without an integer `version`");
      if (!ReadsTraceVersion(static_cast<int>(version))) {
        lr.Fail("trace format version " + std::to_string(version) +
                (version > kTraceFormatVersion ? " is newer than" : " is not one") +
                " this testmap reads (versions 1 to " + std::to_string(kTraceFormatVersion) + ")" +
                (version > kTraceFormatVersion ? ": upgrade testmap" : ""));
      }
      finish_pending(std::string(kUnfinishedCrashReason));
      seen_run = true;
      visitor.Run({line.number, line.text, static_cast<int>(version), test.worker});
      return;
    }
    if (!seen_run) lr.Fail("`" + std::string(type) + "` record before the shard's `run` record");
    if (type == kBeginRecord) {
      finish_pending(std::string(kUnfinishedCrashReason));
      if (test.nodeid.empty()) lr.Fail("record without a string `nodeid` field");
      lr.Key(test.nodeid, "node id");
      pending = Pending{std::string(test.nodeid), start_raw,  worker_raw,
                        std::string(test.worker), test.start, line.number};
    } else if (type == kTestRecord) {
      if (test.nodeid.empty()) lr.Fail("record without a string `nodeid` field");
      lr.Key(test.nodeid, "node id");
      if (!has_ops) lr.Fail("test record without an `ops` list");
      if (test.outcome.empty()) lr.Fail("record without a string `outcome` field");
      if (pending && pending->nodeid == test.nodeid) pending.reset();
      test.outcome_json = "{" + test.outcome_json + "}";
      visitor.Test(test);
      spare_ops.swap(test.ops);
    } else if (type == kCollectionRecord) {
      visitor.Collection(lr.Collection(test.start, end, files));
    } else {
      lr.Fail("unknown record type `" + std::string(type) + "`");
    }
  });
  if (!seen_run) throw InputError(path, 0, "empty trace shard (no `run` record)");
  finish_pending(options.final_crash_reason);
}

}  // namespace testmap::core
