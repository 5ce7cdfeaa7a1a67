#include "indexer/index/trace_input.h"

// Header-only: no library to link for one hash.
#define XXH_INLINE_ALL
#include <simdjson.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <tuple>
#include <unordered_map>

#include "core/content_hash.h"
#include "core/dtype_names.h"
#include "core/op_names.h"
#include "indexer/index/index_error.h"
#include "indexer/index/jsonl_lines.h"

// Trace shards are the bulk of what ingest reads (hundreds of MB for a
// full PyTorch run), so they are parsed with simdjson's DOM parser (runtime
// dispatch to the CPU's SIMD kernels): several times faster than building an
// nlohmann DOM per line, and just as strict.

namespace testmap::indexer {
namespace {

namespace dom = simdjson::dom;

std::string RunId(std::string_view line) { return core::ShortHexDigest(line); }

// Per-shard caches: the same few hundred operator and dtype spellings
// repeat millions of times.
struct NameCache {
  std::unordered_map<std::string, std::pair<std::string, std::string>> ops;
  std::unordered_map<std::string, std::string> dtypes;
};

class LineParser {
 public:
  LineParser(const std::string& path, int line, NameCache& cache)
      : path_(path), line_(line), cache_(cache) {}

  [[noreturn]] void Fail(const std::string& message) const {
    throw IndexError(path_, line_, message);
  }

  std::string_view String(dom::element v, const char* what) const {
    std::string_view s;
    if (v.get_string().get(s) != simdjson::SUCCESS)
      Fail(std::string("`") + what + "` is not a string");
    return s;
  }

  TracedOp Op(dom::element value) {
    dom::object op;
    if (value.get_object().get(op) != simdjson::SUCCESS) Fail("an `ops` entry is not an object");
    TracedOp out;
    out.tuple.evidence = "eager";
    out.tuple.count = 1;
    std::string_view name;
    for (auto [key, v] : op) {
      if (key == "op") {
        name = String(v, "op");
      } else if (key == "evidence") {
        out.tuple.evidence = String(v, "evidence");
      } else if (key == "device") {
        if (!v.is_null()) out.tuple.device = String(v, "device");
      } else if (key == "count") {
        uint64_t c;
        if (v.get_uint64().get(c) != simdjson::SUCCESS)
          Fail("`count` of " + std::string(name) + " is not a count");
        out.tuple.count = c;
      } else if (key == "dtypes") {
        dom::array dtypes;
        if (v.get_array().get(dtypes) != simdjson::SUCCESS)
          Fail("`dtypes` of " + std::string(name) + " is not a list");
        for (auto d : dtypes) {
          std::string_view s;
          if (d.get_string().get(s) != simdjson::SUCCESS)
            Fail("a dtype of " + std::string(name) + " is not a string");
          auto it = cache_.dtypes.find(std::string(s));
          if (it == cache_.dtypes.end()) {
            auto canonical = core::NormalizeDtype(s);
            it = cache_.dtypes.emplace(std::string(s), canonical ? *canonical : std::string(s))
                     .first;
          }
          out.tuple.dtypes.push_back(it->second);
        }
      }
    }
    if (name.empty()) Fail("an `ops` entry without an `op` name");
    if (out.tuple.evidence != "eager" && out.tuple.evidence != "compile") {
      Fail("unknown evidence `" + out.tuple.evidence + "` for " + std::string(name));
    }
    auto it = cache_.ops.find(std::string(name));
    if (it == cache_.ops.end()) {
      auto parsed = core::ParseOpName(name);
      if (!parsed) Fail("`" + std::string(name) + "` is not an operator name");
      // The tracer records overloads only: a name without one
      // (aten::_local_scalar_dense) is the default overload, not a packet.
      it = cache_.ops.emplace(std::string(name), std::make_pair(parsed->Packet(), parsed->overload))
               .first;
    }
    out.packet = it->second.first;
    out.overload = it->second.second;
    return out;
  }

 private:
  const std::string& path_;
  int line_;
  NameCache& cache_;
};

// One edge per operator overload: all its (evidence, device, dtypes).
std::vector<TracedEdge> GroupEdges(const std::vector<TracedOp>& ops) {
  std::vector<const TracedOp*> order;
  for (const auto& op : ops) order.push_back(&op);
  std::stable_sort(order.begin(), order.end(), [](const TracedOp* a, const TracedOp* b) {
    return std::tie(a->packet, a->overload) < std::tie(b->packet, b->overload);
  });
  std::vector<TracedEdge> edges;
  std::vector<const EdgeTuple*> tuples;
  for (size_t i = 0; i < order.size();) {
    tuples.clear();
    size_t j = i;
    for (; j < order.size() && order[j]->packet == order[i]->packet &&
           order[j]->overload == order[i]->overload;
         ++j) {
      tuples.push_back(&order[j]->tuple);
    }
    edges.push_back({order[i]->packet, order[i]->overload, EncodeEdge(tuples), tuples.size()});
    i = j;
  }
  return edges;
}

}  // namespace

bool LooksLikeTrace(const std::string& text) {
  nlohmann::json first = FirstJsonLine(text);
  return first.is_object() && first.contains("type");
}

TraceInput ParseTrace(const std::string& text, const std::string& path) {
  TraceInput input;
  input.path = path;
  NameCache cache;
  dom::parser parser;
  simdjson::padded_string padded(text);
  // The `begin` of the test in flight: a shard that ends after a `begin`
  // (or has another process's `run` next) names a test that crashed its
  // process. `testmap trace` finishes shards itself; raw ones are read the
  // same way here.
  struct Pending {
    std::string nodeid, time = "null", worker = "null";
    int line = 0;
  };
  std::optional<Pending> pending;
  auto crash_pending = [&] {
    if (!pending) return;
    TracedTest t;
    t.nodeid = pending->nodeid;
    t.run_id = input.runs.back().id;
    t.line = pending->line;
    t.outcome_json =
        "{\"outcome\":\"crashed\",\"duration\":null,\"crash\":{\"reason\":\"process ended during "
        "the "
        "test\"},\"start\":" +
        pending->time + ",\"worker\":" + pending->worker + "}";
    input.tests.push_back(std::move(t));
    pending.reset();
  };

  const char* data = padded.data();
  size_t size = padded.size(), pos = 0;
  int line_number = 0;
  while (pos < size) {
    size_t end = std::string_view(data, size).find('\n', pos);
    bool has_newline = end != std::string_view::npos;
    if (!has_newline) end = size;
    std::string_view line(data + pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    LineParser lp(path, line_number, cache);
    dom::object obj;
    auto error =
        parser.parse(line.data(), line.size(), /*realloc_if_needed=*/false).get_object().get(obj);
    if (error == simdjson::INCORRECT_TYPE) lp.Fail("record is not a JSON object");
    if (error != simdjson::SUCCESS) {
      if (!has_newline) {
        lp.Fail(
            "truncated record (the line ends without a newline and is not complete JSON: the "
            "writer was "
            "cut short)");
      }
      std::string excerpt(line.substr(0, 60));
      lp.Fail("corrupt record, not JSON: '" + excerpt + (line.size() > 60 ? "...'" : "'") + " (" +
              simdjson::error_message(error) + ")");
    }
    std::string_view type, nodeid;
    std::string outcome_fields;
    std::vector<TracedOp> ops;
    bool has_ops = false, has_outcome = false;
    std::string begin_time = "null", begin_worker = "null";
    for (auto [key, v] : obj) {
      if (key == "type") {
        type = lp.String(v, "type");
      } else if (key == "nodeid") {
        nodeid = lp.String(v, "nodeid");
      } else if (key == "ops") {
        dom::array arr;
        if (v.get_array().get(arr) != simdjson::SUCCESS) lp.Fail("`ops` is not a list");
        ops.reserve(arr.size());
        for (auto op : arr) ops.push_back(lp.Op(op));
        has_ops = true;
      } else if (key == "outcome") {
        outcome_fields.insert(0, "\"outcome\":" + simdjson::minify(v));
        lp.String(v, "outcome");
        has_outcome = true;
      } else if (key == "duration") {
        double d = 0;
        if (!v.is_null() && (v.get_double().get(d) != simdjson::SUCCESS || d < 0 || d != d)) {
          lp.Fail("`duration` is not a non-negative number");
        }
        outcome_fields += ",\"duration\":" + simdjson::minify(v);
      } else if (key == "phases" || key == "start" || key == "worker" || key == "crash" ||
                 key == "time") {
        std::string raw = simdjson::minify(v);
        if (key == "time") begin_time = raw;
        if (key == "worker") begin_worker = raw;
        if (key != "time") outcome_fields += ",\"" + std::string(key) + "\":" + raw;
      }
    }
    if (type.empty()) lp.Fail("record without a string `type` field");
    if (type == "run") {
      // Rare and small: read with the DOM parser, kept whole as run metadata.
      auto rec = nlohmann::json::parse(line);
      std::string format = rec.value("format", std::string());
      if (format != kTraceFormatName) lp.Fail("not a testmap trace (format `" + format + "`)");
      auto v = rec.find("version");
      if (v == rec.end() || !v->is_number_integer())
        lp.Fail("trace run record without an integer `version`");
      if (v->get<int>() > kTraceFormatVersion) {
        lp.Fail("trace format version " + std::to_string(v->get<int>()) +
                " is newer than this testmap reads (version " +
                std::to_string(kTraceFormatVersion) + "): upgrade testmap");
      }
      crash_pending();
      rec["source"] = path;
      input.runs.push_back({RunId(line), rec.dump()});
      continue;
    }
    if (input.runs.empty())
      lp.Fail("`" + std::string(type) + "` record before the shard's `run` record");
    if (type == "begin") {
      crash_pending();
      if (nodeid.empty()) lp.Fail("record without a string `nodeid` field");
      pending = Pending{std::string(nodeid), begin_time, begin_worker, line_number};
    } else if (type == "test") {
      if (nodeid.empty()) lp.Fail("record without a string `nodeid` field");
      if (!has_ops) lp.Fail("test record without an `ops` list");
      if (!has_outcome) lp.Fail("record without a string `outcome` field");
      if (pending && pending->nodeid == nodeid) pending.reset();
      TracedTest t;
      t.nodeid = nodeid;
      t.run_id = input.runs.back().id;
      t.line = line_number;
      t.outcome_json = "{" + outcome_fields + "}";
      t.edges = GroupEdges(ops);
      input.tests.push_back(std::move(t));
    } else {
      lp.Fail("unknown record type `" + std::string(type) + "`");
    }
  }
  if (input.runs.empty()) throw IndexError(path, 0, "empty trace shard (no `run` record)");
  crash_pending();
  return input;
}

}  // namespace testmap::indexer
