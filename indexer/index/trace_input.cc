#include "indexer/index/trace_input.h"

// Header-only: no library to link for one hash.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/dtype_names.h"
#include "core/op_names.h"
#include "indexer/index/index_error.h"
#include "indexer/index/jsonl_lines.h"

namespace testmap::indexer {
namespace {

using nlohmann::json;

std::string RunId(std::string_view line) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(XXH3_64bits(line.data(), line.size())));
  return hex;
}

std::string RequireString(const json& rec, const char* field, const std::string& path, int line) {
  auto it = rec.find(field);
  if (it == rec.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) {
    throw IndexError(path, line, std::string("record without a string `") + field + "` field");
  }
  return it->get<std::string>();
}

TracedOp ReadOp(const json& op, const std::string& path, int line) {
  if (!op.is_object()) throw IndexError(path, line, "an `ops` entry is not an object");
  std::string name = RequireString(op, "op", path, line);
  auto parsed = core::ParseOpName(name);
  if (!parsed) throw IndexError(path, line, "`" + name + "` is not an operator name");
  // The tracer records overloads only: a name without one (aten::_local_scalar_dense)
  // is the default overload there (c10::OperatorName prints it so), not a packet.
  TracedOp out;
  out.packet = parsed->Packet();
  out.overload = parsed->overload;
  out.tuple.evidence = op.value("evidence", std::string("eager"));
  if (out.tuple.evidence != "eager" && out.tuple.evidence != "compile") {
    throw IndexError(path, line, "unknown evidence `" + out.tuple.evidence + "` for " + name);
  }
  if (auto d = op.find("device"); d != op.end() && d->is_string()) out.tuple.device = *d;
  if (auto d = op.find("dtypes"); d != op.end()) {
    if (!d->is_array()) throw IndexError(path, line, "`dtypes` of " + name + " is not a list");
    for (const auto& t : *d) {
      if (!t.is_string()) throw IndexError(path, line, "a dtype of " + name + " is not a string");
      auto canonical = core::NormalizeDtype(t.get_ref<const std::string&>());
      out.tuple.dtypes.push_back(canonical ? *canonical : t.get<std::string>());
    }
  }
  auto c = op.find("count");
  out.tuple.count = c != op.end() && c->is_number_unsigned() ? c->get<uint64_t>() : 1;
  return out;
}

}  // namespace

bool LooksLikeTrace(const std::string& text) {
  json first = FirstJsonLine(text);
  return first.is_object() && first.contains("type");
}

TraceInput ParseTrace(const std::string& text, const std::string& path) {
  TraceInput input;
  input.path = path;
  // The `begin` of the test in flight: a shard that ends after a `begin`
  // (or has another process's `run` next) names a test that crashed its
  // process. `testmap trace` finishes shards itself; raw ones are read the
  // same way here.
  json pending;
  int pending_line = 0;
  auto crash_pending = [&] {
    if (pending.is_null()) return;
    TracedTest t;
    t.nodeid = pending["nodeid"];
    t.run_id = input.runs.back().id;
    t.line = pending_line;
    json outcome = {{"outcome", "crashed"},
                    {"duration", nullptr},
                    {"crash", {{"reason", "process ended during the test"}}},
                    {"start", pending.value("time", json(nullptr))},
                    {"worker", pending.value("worker", json(nullptr))}};
    t.outcome_json = outcome.dump();
    input.tests.push_back(std::move(t));
    pending = nullptr;
  };
  ForEachJsonLine(text, path, [&](const json& rec, int line, std::string_view raw) {
    std::string type = RequireString(rec, "type", path, line);
    if (type == "run") {
      std::string format = rec.value("format", std::string());
      if (format != kTraceFormatName) {
        throw IndexError(path, line, "not a testmap trace (format `" + format + "`)");
      }
      auto v = rec.find("version");
      if (v == rec.end() || !v->is_number_integer()) {
        throw IndexError(path, line, "trace run record without an integer `version`");
      }
      if (v->get<int>() > kTraceFormatVersion) {
        throw IndexError(path, line,
                         "trace format version " + std::to_string(v->get<int>()) +
                             " is newer than this testmap reads (version " +
                             std::to_string(kTraceFormatVersion) + "): upgrade testmap");
      }
      crash_pending();
      json record = rec;
      record["source"] = path;
      input.runs.push_back({RunId(raw), record.dump()});
      return;
    }
    if (input.runs.empty()) {
      throw IndexError(path, line, "`" + type + "` record before the shard's `run` record");
    }
    if (type == "begin") {
      crash_pending();
      RequireString(rec, "nodeid", path, line);
      pending = rec;
      pending_line = line;
    } else if (type == "test") {
      TracedTest t;
      t.nodeid = RequireString(rec, "nodeid", path, line);
      if (!pending.is_null() && pending["nodeid"] == t.nodeid) pending = nullptr;
      t.run_id = input.runs.back().id;
      t.line = line;
      auto ops = rec.find("ops");
      if (ops == rec.end() || !ops->is_array()) {
        throw IndexError(path, line, "test record without an `ops` list");
      }
      for (const auto& op : *ops) t.ops.push_back(ReadOp(op, path, line));
      auto d = rec.find("duration");
      if (d != rec.end() && !d->is_null() && (!d->is_number() || d->get<double>() < 0)) {
        throw IndexError(path, line, "`duration` is not a non-negative number");
      }
      json outcome = {{"outcome", RequireString(rec, "outcome", path, line)},
                      {"duration", d != rec.end() ? *d : json(nullptr)}};
      for (const char* field : {"phases", "start", "worker", "crash"}) {
        if (rec.contains(field)) outcome[field] = rec[field];
      }
      t.outcome_json = outcome.dump();
      input.tests.push_back(std::move(t));
    } else {
      throw IndexError(path, line, "unknown record type `" + type + "`");
    }
  });
  if (input.runs.empty()) throw IndexError(path, 0, "empty trace shard (no `run` record)");
  crash_pending();
  return input;
}

}  // namespace testmap::indexer
