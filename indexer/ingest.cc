#include "indexer/ingest.h"

// Header-only xxHash, as trace_input.cc uses it.
#define XXH_INLINE_ALL
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "core/content_hash.h"
#include "core/errors.h"
#include "core/node_id.h"
#include "core/read_file.h"
#include "core/trace_reader.h"
#include "indexer/backend_input.h"
#include "indexer/index_backends.h"
#include "indexer/ingest_counters.h"
#include "indexer/key_check.h"
#include "indexer/scan_supersede.h"
#include "indexer/torch_logs_input.h"
#include "timings/timing_file_reader.h"

namespace testmap::indexer {
namespace {

namespace fs = std::filesystem;

// One input file, read and parsed.
struct ParsedFile {
  std::optional<BackendInput> backend;
  std::optional<TraceInput> trace;
  std::optional<std::vector<ScannedTest>> scan;
  std::optional<TimingInput> timing;
  std::vector<std::string> warnings;  // of the scan reader
  std::exception_ptr error;
};

ParsedFile ReadOne(const std::string& path, const std::string& log_test) {
  ParsedFile out;
  try {
    std::string text;
    try {
      text = core::ReadInputFile(path);
    } catch (const std::exception& e) {
      throw core::InputError(path, 0, std::string("cannot read: ") + e.what());
    }
    if (!log_test.empty()) {
      if (core::LooksLikeTrace(text) || LooksLikeScan(text))
        throw core::InputError(path, 0,
                               "--test takes TORCH_LOGS logs; this is a trace shard or scan "
                               "output (ingest it without --test)");
      out.trace = ParseTorchLogsForTest(text, path, log_test);
      CheckTraceKeys(*out.trace);
      if (out.trace->runs.empty() || out.trace->tests.front().edges.empty())
        throw core::InputError(path, 0,
                               "no aot_graphs or post_grad_graphs graph with ATen ops in it (was "
                               "it logged with TORCH_LOGS=aot_graphs,post_grad_graphs?)");
    } else if (core::LooksLikeTrace(text)) {
      out.trace = ParseTrace(text, path);
    } else if (LooksLikeScan(text)) {
      out.scan = ParseScan(text, path, &out.warnings);
      CheckScanKeys(*out.scan, path);
    } else if (LooksLikeBackendRecords(text)) {
      out.backend = BackendInput{path, ReadBackendRecords(text, path)};
    } else if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
      throw core::InputError(path, 0, "empty file: neither a trace shard, scan output nor timings");
    } else {
      // Timing files: the readers name the file and line of bad content.
      try {
        timings::DetectTimingFormat(text, path);
        out.timing = TimingInput{core::ShortHexDigest(text), timings::ReadTimingFile(path)};
        CheckTimingKeys(out.timing->records);
      } catch (const core::InputError& e) {
        if (std::string(e.what()).find("not a timing file") != std::string::npos)
          throw core::InputError(
              path, e.line(),
              "neither a testmap trace shard (first line a `run` record), `testmap "
              "scan --format jsonl` output, backend records (`testmap backend scan`), nor a "
              "timing file (JUnit XML, .test_durations, test-times.json)");
        throw core::InputError(e.what());  // already "FILE:LINE: message"
      }
    }
  } catch (...) {
    out.error = std::current_exception();
  }
  return out;
}

std::string TimingRecordJson(const timings::TimingRecord& r) {
  return nlohmann::json{{"id", r.id},           {"file", r.file},
                        {"class", r.cls},       {"level", timings::TimingLevelName(r.level)},
                        {"seconds", r.seconds}, {"outcome", timings::OutcomeName(r.outcome)},
                        {"rerun", r.rerun},     {"job", r.job},
                        {"config", r.config},   {"feature", r.feature},
                        {"source", r.source},   {"line", r.line}}
      .dump();
}

// A test only traced, never scanned: what its node id alone says.
std::string MinimalTestRecord(const std::string& nodeid) {
  const std::string_view id = nodeid;
  const size_t sep = id.find("::");
  const std::string_view file = id.substr(0, sep);
  std::string_view cls, method;
  if (sep != std::string_view::npos) {
    const std::string_view rest = id.substr(sep + 2);
    const size_t last = rest.rfind("::");
    cls = last == std::string_view::npos ? "" : rest.substr(0, last);
    method = last == std::string_view::npos ? rest : rest.substr(last + 2);
  }
  // A fresh ingest of traces makes one per test: where no character needs
  // escaping (any node id but one with a quote, a backslash or a control
  // character), the bytes nlohmann's dump gives are written directly, keys
  // in its order.
  const bool plain = std::none_of(nodeid.begin(), nodeid.end(), [](char c) {
    return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20;
  });
  if (!plain) {
    nlohmann::json rec = {{"nodeid", nodeid}, {"origin", "trace"}, {"file", std::string(file)}};
    if (sep != std::string_view::npos) {
      rec["class"] = std::string(cls);
      rec["method"] = std::string(method);
    }
    return rec.dump();
  }
  std::string out;
  out.reserve(2 * nodeid.size() + 64);
  auto field = [&](std::string_view key, std::string_view value) {
    out.append(out.empty() ? "{\"" : ",\"").append(key).append("\":\"").append(value);
    out.push_back('"');
  };
  if (sep != std::string_view::npos) field("class", cls);
  field("file", file);
  if (sep != std::string_view::npos) field("method", method);
  field("nodeid", id);
  field("origin", "trace");
  out.push_back('}');
  return out;
}

// Whether the index or this ingest's scans hold a scanned test of `file`.
bool HasScannedFile(const IndexStore& store, const std::unordered_set<std::string>& scan_files,
                    const std::string& file) {
  if (scan_files.count(file)) return true;
  bool found = false;
  store.Scan(Cf::kTests, file + "::", [&](std::string_view, std::string_view value) {
    found = value.find("\"origin\":\"scan\"") != std::string_view::npos;
    return !found;
  });
  return found;
}

// Traced ids that miss the scan: where the scan knows the file under the
// same path, some ids differ; where it knows it under a path one ends with
// the other (`work/x/test_a.py` and `test_a.py`, or `test_a.py` and
// `test/test_a.py`), the trace and the scan used different rootdirs, and
// every id of the file is a duplicate.
std::vector<std::string> JoinWarnings(const IndexStore& store, const IngestInputs& inputs,
                                      const std::unordered_set<std::string>& scanned) {
  std::unordered_set<std::string> scan_files;
  for (const auto& scan : inputs.scans) {
    for (const auto& t : scan) scan_files.insert(core::NodeId::Parse(t.nodeid).path);
  }
  // traced file -> (unjoined ids, an example)
  std::map<std::string, std::pair<size_t, std::string>> missing;
  for (const auto& trace : inputs.traces) {
    for (const auto& t : trace.tests) {
      if (scanned.count(t.nodeid) ||
          store.Get(Cf::kTests, t.nodeid).value_or("").find("\"origin\":\"scan\"") !=
              std::string::npos) {
        continue;
      }
      auto& m = missing[core::NodeId::Parse(t.nodeid).path];
      if (m.first++ == 0) m.second = t.nodeid;
    }
  }
  std::vector<std::string> warnings;
  for (const auto& [file, m] : missing) {
    const auto& [count, example] = m;
    if (HasScannedFile(store, scan_files, file)) {
      warnings.push_back(std::to_string(count) + " traced test(s) of " + file +
                         " are not in its scan (e.g. " + example + ")");
      continue;
    }
    std::string other;
    // The scan's path is a tail of the traced one: walk up the trace's path.
    for (size_t slash = file.find('/'); other.empty() && slash != std::string::npos;
         slash = file.find('/', slash + 1)) {
      if (HasScannedFile(store, scan_files, file.substr(slash + 1))) other = file.substr(slash + 1);
    }
    // The traced path is a tail of the scan's (this ingest's scans only).
    for (const auto& f : scan_files) {
      if (other.empty() && f.size() > file.size() && f.ends_with("/" + file)) other = f;
    }
    if (!other.empty()) {
      warnings.push_back("trace ids of " + file + " do not join the scan's ids of " + other + " (" +
                         std::to_string(count) + " test(s), e.g. " + example +
                         "): pytest's rootdir differed between `testmap trace` and `testmap "
                         "scan`; run both from the same folder with the same ini file");
    }
  }
  return warnings;
}

}  // namespace

std::string ResolveBackendName(const IngestInputs& inputs) {
  if (!inputs.backend.empty()) {
    CheckBackendName(inputs.backend);
    return inputs.backend;
  }
  std::set<std::string> devices;
  for (const auto& scan : inputs.scans)
    for (const auto& t : scan)
      if (!t.device.empty() && t.device != "cpu") devices.insert(t.device);
  if (devices.size() == 1) return *devices.begin();
  throw core::UsageError("backend records need a name to be stored under: give --backend NAME" +
                         std::string(devices.empty() ? "" : " (the scans name several devices)"));
}

IngestInputs ReadIngestInputs(const std::vector<std::string>& paths, const std::string& log_test,
                              const std::function<void(size_t, size_t)>& progress) {
  IngestInputs inputs;
  for (const auto& path : paths) {
    std::error_code ec;
    if (fs::is_directory(path, ec) && !log_test.empty()) {
      throw core::InputError(path, 0, "--test takes TORCH_LOGS log files, not a directory");
    } else if (fs::is_directory(path, ec)) {
      std::vector<std::string> shards;
      for (const auto& entry : fs::directory_iterator(path)) {
        std::string name = entry.path().filename().string();
        if (name.starts_with("trace-") && name.ends_with(".jsonl"))
          shards.push_back(entry.path().string());
      }
      if (shards.empty()) throw core::InputError(path, 0, "directory without trace-*.jsonl shards");
      std::sort(shards.begin(), shards.end());
      inputs.files.insert(inputs.files.end(), shards.begin(), shards.end());
    } else if (!fs::exists(path, ec)) {
      throw core::InputError(path, 0, "no such file or directory");
    } else {
      inputs.files.push_back(path);
    }
  }
  // Files parse independently: one worker per core, results kept in input
  // order, and the first bad file (in input order) is the error reported.
  std::vector<ParsedFile> parsed(inputs.files.size());
  std::atomic<size_t> next{0}, done{0};
  auto work = [&] {
    for (size_t i; (i = next++) < parsed.size();) {
      parsed[i] = ReadOne(inputs.files[i], log_test);
      if (progress) progress(++done, parsed.size());
    }
  };
  size_t workers =
      std::min<size_t>(parsed.size(), std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> threads;
  for (size_t w = 1; w < workers; ++w) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  for (auto& p : parsed) {
    if (p.error) std::rethrow_exception(p.error);
    if (p.trace) {
      inputs.warnings.insert(inputs.warnings.end(), p.trace->warnings.begin(),
                             p.trace->warnings.end());
      inputs.traces.push_back(std::move(*p.trace));
    }
    inputs.warnings.insert(inputs.warnings.end(), p.warnings.begin(), p.warnings.end());
    if (p.scan) inputs.scans.push_back(std::move(*p.scan));
    if (p.backend) inputs.backends.push_back(std::move(*p.backend));
    if (p.timing) inputs.timings.push_back(std::move(*p.timing));
  }
  return inputs;
}

namespace {

struct ViewHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// Distinct strings and their ranks in byte order. Edge keys are ordered by
// their fields (PACKET\0OVERLOAD, NODEID, RUN), and comparing field ranks
// is much cheaper than comparing keys whose first 60 bytes agree: this is
// what keeps the sort of millions of edges from dominating ingestion.
class Ranks {
 public:
  uint32_t Id(std::string_view s) {
    auto it = ids_.find(s);
    if (it != ids_.end()) return it->second;
    it = ids_.emplace(std::string(s), static_cast<uint32_t>(names_.size())).first;
    names_.push_back(it->first);
    return it->second;
  }
  uint32_t size() const { return static_cast<uint32_t>(names_.size()); }
  // After Finish: rank[id], the position of Name(id) in byte order.
  const std::vector<uint32_t>& rank() const { return rank_; }
  // The names are then copied into one buffer in rank order, so that a
  // producer that writes them in key order reads memory in order too.
  void Finish() {
    std::vector<uint32_t> order(names_.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](uint32_t a, uint32_t b) { return names_[a] < names_[b]; });
    rank_.assign(order.size(), 0);
    size_t bytes = 0;
    for (uint32_t i = 0; i < order.size(); ++i) {
      rank_[order[i]] = i;
      bytes += names_[i].size();
    }
    sorted_.reserve(bytes);
    std::vector<size_t> at(order.size());
    for (uint32_t id : order) {
      at[id] = sorted_.size();
      sorted_.append(names_[id]);
    }
    for (uint32_t id = 0; id < names_.size(); ++id)
      names_[id] = std::string_view(sorted_).substr(at[id], names_[id].size());
  }
  std::string_view Name(uint32_t id) const { return names_[id]; }

 private:
  std::unordered_map<std::string, uint32_t, ViewHash, std::equal_to<>> ids_;
  std::vector<std::string_view> names_;
  std::vector<uint32_t> rank_;
  std::string sorted_;
};

struct EdgeRow {
  uint32_t op, test, run;  // ids in their Ranks
  std::string_view value;  // encoded, in the batch's arena or the input's strings
};

// Produces both edge directions in key order, duplicates (same op, test
// and run) resolved to the last one seen (rows are in input order). Both
// tell the counters what they write: op_tests the keys, test_ops the values
// (the op_tests writer, with its scattered reads, is the slower one).
//
// Rows come in segments, each one test record's edges (in operator order,
// as trace_input.h gives them) or one static edge. Ordering segments by
// test, not rows, puts the rows in test_ops order (test, operator, run)
// wherever a test has one segment; the tests with several (runs, a static
// edge beside traced ones, a test recorded twice) have their few rows
// sorted. One stable counting pass by operator then turns that order into
// op_tests order (operator, test, run). Linear in the rows, and no key is
// compared: keys share their first 60 bytes, ranks are integers.
struct EdgeEmitter {
  std::vector<EdgeRow> rows;
  std::vector<uint32_t> segments;  // where each segment begins in `rows`
  Ranks ops, tests, runs;
  std::vector<bool> run_may_exist;  // by run id (IngestCounters::RunMayExist)
  IngestCounters* counters = nullptr;
  // Row indices in test_ops key order, duplicates in input order (Order).
  std::vector<uint32_t> by_test;

  // Starts a segment at the next row.
  void BeginSegment() {
    if (segments.empty() || segments.back() != rows.size())
      segments.push_back(static_cast<uint32_t>(rows.size()));
  }

  // Fills `by_test`, once the ranks are Finished.
  void Order() {
    const auto &op_rank = ops.rank(), &test_rank = tests.rank(), &run_rank = runs.rank();
    auto end_of = [&](size_t s) { return s + 1 < segments.size() ? segments[s + 1] : rows.size(); };
    auto test_of = [&](size_t s) { return test_rank[rows[segments[s]].test]; };
    if (!segments.empty() && segments.back() == rows.size()) segments.pop_back();
    std::vector<uint32_t> count(tests.size() + 1, 0), order(segments.size());
    for (size_t s = 0; s < segments.size(); ++s) ++count[test_of(s) + 1];
    for (size_t r = 1; r < count.size(); ++r) count[r] += count[r - 1];
    for (uint32_t s = 0; s < segments.size(); ++s) order[count[test_of(s)]++] = s;
    by_test.clear();
    by_test.reserve(rows.size());
    auto op_run = [&](uint32_t i) { return std::pair(op_rank[rows[i].op], run_rank[rows[i].run]); };
    for (size_t g = 0; g < order.size();) {
      size_t h = g + 1;
      while (h < order.size() && test_of(order[h]) == test_of(order[g])) ++h;
      const size_t first = by_test.size();
      bool sorted = h == g + 1;
      for (size_t k = g; k < h; ++k) {
        for (uint32_t i = segments[order[k]]; i < end_of(order[k]); ++i) {
          sorted = sorted && (by_test.size() == first || op_run(by_test.back()) < op_run(i));
          by_test.push_back(i);
        }
      }
      if (!sorted) {
        std::stable_sort(by_test.begin() + first, by_test.end(),
                         [&](uint32_t a, uint32_t b) { return op_run(a) < op_run(b); });
      }
      g = h;
    }
  }

  void Produce(bool by_op, const IndexBatch::Sink& sink) const {
    // Rows in key order: by_test's, or for op_tests copies of the rows
    // put stably by operator, (operator, test, run), duplicates still in
    // input order. Copies, so that the writer reads them in order: the
    // rows of one operator are scattered over all of `rows`.
    std::vector<EdgeRow> by_operator;
    if (by_op) {
      const auto& op_rank = ops.rank();
      std::vector<uint32_t> count(ops.size() + 1, 0);
      for (const EdgeRow& r : rows) ++count[op_rank[r.op] + 1];
      for (size_t r = 1; r < count.size(); ++r) count[r] += count[r - 1];
      by_operator.resize(by_test.size());
      for (uint32_t i : by_test) by_operator[count[op_rank[rows[i].op]]++] = rows[i];
    }
    const size_t n = by_test.size();
    auto row = [&](size_t i) -> const EdgeRow& {
      return by_op ? by_operator[i] : rows[by_test[i]];
    };
    auto same_key = [&](const EdgeRow& a, const EdgeRow& b) {
      return a.op == b.op && a.test == b.test && a.run == b.run;
    };
    std::string key;
    for (size_t i = 0; i < n; ++i) {
      const EdgeRow& r = row(i);
      if (i + 1 < n && same_key(row(i + 1), r)) continue;  // the last wins
      std::string_view first = by_op ? ops.Name(r.op) : tests.Name(r.test);
      std::string_view second = by_op ? tests.Name(r.test) : ops.Name(r.op);
      key.assign(first);  // ops are stored as PACKET\0OVERLOAD
      key.push_back('\0');
      key += second;
      key.push_back('\0');
      key += runs.Name(r.run);
      sink(key, r.value);
      if (by_op) {
        counters->AddEdge(key, run_may_exist[r.run]);
      } else {
        counters->AddWrittenValue(r.value);
      }
    }
  }
};

}  // namespace

IngestSummary Ingest(IndexStore& store, const IngestInputs& inputs) {
  IngestSummary summary;
  summary.files = inputs.files.size();
  IndexBatch batch;
  IngestCounters counters(store);
  EdgeEmitter edges;
  edges.counters = &counters;
  std::string op_key;
  auto add_static_edge = [&](std::string_view packet, std::string_view nodeid,
                             const std::string& value) {
    op_key.assign(packet);
    op_key.push_back('\0');
    op_key.append(kStaticOverload);
    edges.BeginSegment();
    edges.rows.push_back({edges.ops.Id(op_key), edges.tests.Id(nodeid), edges.runs.Id(kStaticRunId),
                          batch.Store(value)});
    ++summary.edges;
  };
  std::unordered_set<std::string> scanned;
  // Records, with the runs a rescan retires (scan_supersede.h).
  // Said in the default column family, which the counters' producer writes.
  const bool superseded = PutScannedRecords(store, inputs.scans, batch);
  for (const auto& scan : inputs.scans) {
    for (const auto& t : scan) {
      scanned.insert(t.nodeid);
      ++summary.scanned_tests;
      if (!t.generic_id.empty()) batch.Put(Cf::kGeneric, JoinKey({t.generic_id, t.nodeid}), "");
      if (!t.static_packet.empty()) {
        add_static_edge(t.static_packet, t.nodeid, EncodeEdge({t.static_tuple}));
        ++summary.observations;
      }
    }
  }
  // The trace edges' rows are built on a thread of their own while this
  // one writes the records (outcomes, runs, tests only traced): on a large
  // ingest each is a tenth of a second that would otherwise run alone.
  size_t trace_edges = 0, trace_observations = 0;
  std::jthread rows_builder([&] {
    size_t rows = edges.rows.size();
    for (const auto& trace : inputs.traces)
      for (const auto& t : trace.tests) rows += t.edges.size();
    edges.rows.reserve(rows);
    // An input's edges name its distinct operator keys by position
    // (trace_input.h): each is looked up once per input, not once per edge.
    std::vector<uint32_t> op_ids;
    for (const auto& trace : inputs.traces) {
      op_ids.clear();
      for (std::string_view op_key : trace.op_keys) op_ids.push_back(edges.ops.Id(op_key));
      for (const auto& t : trace.tests) {
        const uint32_t test = edges.tests.Id(t.nodeid), run = edges.runs.Id(t.run_id);
        edges.BeginSegment();
        for (const auto& e : t.edges) {
          trace_observations += e.observations;
          edges.rows.push_back(
              {op_ids[e.op], test, run, e.value});  // the input outlives the commit
        }
        trace_edges += t.edges.size();
      }
    }
    edges.ops.Finish();
    edges.tests.Finish();
    edges.runs.Finish();
    edges.Order();
  });
  // The tests this ingest traced already (views of the inputs' node ids).
  std::unordered_set<std::string_view> traced;
  for (const auto& trace : inputs.traces) {
    for (const auto& run : trace.runs) batch.Put(Cf::kRuns, run.id, run.record_json);
    summary.runs += trace.runs.size();
    for (const auto& t : trace.tests) {
      ++summary.test_records;
      // A TORCH_LOGS log says what a test compiled, not how it ended.
      if (!t.outcome_json.empty())
        batch.Put(Cf::kOutcomes, JoinKey({t.nodeid, t.run_id}), t.outcome_json);
      if (traced.insert(t.nodeid).second) {
        ++summary.traced_tests;
        if (!scanned.count(t.nodeid) && !store.Get(Cf::kTests, t.nodeid))
          batch.Put(Cf::kTests, t.nodeid, MinimalTestRecord(t.nodeid));
      }
    }
  }
  if (!inputs.traces.empty()) summary.warnings = JoinWarnings(store, inputs, scanned);
  rows_builder.join();
  summary.edges += trace_edges;
  summary.observations += trace_observations;
  if (!edges.rows.empty()) {
    batch.SetProducer(Cf::kOpTests,
                      [&](const IndexBatch::Sink& sink) { edges.Produce(true, sink); });
    batch.SetProducer(Cf::kTestOps,
                      [&](const IndexBatch::Sink& sink) { edges.Produce(false, sink); });
  }
  // Duplicates collapse in the producers; this counts them as rows.
  batch.AddProducedCount(2 * edges.rows.size());
  // Timing files: each record under its file's content hash and position.
  for (const TimingInput& timing : inputs.timings) {
    for (size_t i = 0; i < timing.records.size(); ++i) {
      const timings::TimingRecord& r = timing.records[i];
      char seq[16];
      std::snprintf(seq, sizeof seq, "%08zu", i);
      batch.Put(Cf::kTimings, JoinKey({r.id, r.job, r.config, timing.source_hash, seq}),
                TimingRecordJson(r));
      ++summary.timings;
    }
  }
  if (!inputs.backends.empty()) {
    StoredBackend backend{ResolveBackendName(inputs), {}, {}};
    for (const auto& b : inputs.backends) {
      backend.sources.push_back(b.path);
      backend.records.insert(backend.records.end(), b.records.begin(), b.records.end());
    }
    summary.backend = backend.name;
    summary.backend_records = backend.records.size();
    batch.Put(Cf::kBackends, backend.name, EncodeBackend(backend));
  }
  // The counters: what the batch writes against what the index held.
  std::vector<std::string_view> traced_by_edges, op_keys;
  std::vector<bool> test_traced(edges.tests.size()), run_static;
  for (uint32_t r = 0; r < edges.runs.size(); ++r) {
    edges.run_may_exist.push_back(counters.RunMayExist(edges.runs.Name(r)));
    run_static.push_back(edges.runs.Name(r) == kStaticRunId);
  }
  for (const EdgeRow& r : edges.rows) {
    if (!run_static[r.run]) test_traced[r.test] = true;
  }
  for (uint32_t t = 0; t < edges.tests.size(); ++t) {
    if (test_traced[t]) traced_by_edges.push_back(edges.tests.Name(t));
  }
  for (uint32_t o = 0; o < edges.ops.size(); ++o) op_keys.push_back(edges.ops.Name(o));
  // The batch's records are counted while the commit writes the other
  // column families (the edges' producer counts the edges meanwhile); the
  // counters' producer comes last and waits for it.
  std::exception_ptr count_error;
  std::jthread batch_counter([&] {
    try {
      counters.AddBatch(batch, traced_by_edges, op_keys);
    } catch (...) {
      count_error = std::current_exception();
    }
  });
  std::string counters_value;
  batch.SetProducer(
      Cf::kDefault,
      [&](const IndexBatch::Sink& sink) {
        batch_counter.join();
        if (count_error) std::rethrow_exception(count_error);
        counters_value = EncodeCounters(counters.Finish());
        // Keys in increasing order: "counters" < "superseded".
        static_assert(std::string_view(kCountersKey) < std::string_view(kSupersededKey));
        sink(kCountersKey, counters_value);
        if (superseded) sink(kSupersededKey, "1");
      },
      /*after_others=*/true);
  summary.keys = batch.size();
  store.Commit(batch);
  return summary;
}

}  // namespace testmap::indexer
