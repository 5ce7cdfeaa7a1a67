#include "indexer/index_reader.h"

#include <algorithm>

#include "core/errors.h"
#include "indexer/index_layout.h"
#include "indexer/index_op_keys.h"

namespace testmap::indexer {

std::string Edge::Op() const {
  if (overload.empty() || overload == kStaticOverload) return packet;
  return packet + "." + overload;
}

namespace {

// An op_tests key and value into `e`, reusing its storage: walks over
// thousands of edges hand the same Edge to their callback each time.
void ReadOpTestsEdge(std::string_view key, std::string_view value, Edge& e) {
  std::string_view f[4];
  size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    size_t nul = key.find('\0', start);
    if (nul == std::string_view::npos) throw core::InputError("malformed op_tests key");
    f[i] = key.substr(start, nul - start);
    start = nul + 1;
  }
  f[3] = key.substr(start);
  if (f[3].find('\0') != std::string_view::npos) throw core::InputError("malformed op_tests key");
  e.packet = f[0];
  e.overload = f[1];
  e.nodeid = f[2];
  e.run = f[3];
  DecodeEdgeInto(value, e.tuples);
}

}  // namespace

Edge EdgeFromOpTestsKey(std::string_view key, std::string_view value) {
  Edge e;
  ReadOpTestsEdge(key, value, e);
  return e;
}

Edge EdgeFromTestOpsKey(std::string_view key, std::string_view value) {
  auto f = SplitKey(key);
  if (f.size() != 4) throw core::InputError("malformed test_ops key");
  return Edge{std::string(f[1]), std::string(f[2]), std::string(f[0]), std::string(f[3]),
              DecodeEdge(value)};
}

void IndexReader::ForEachEdgeOfOp(const std::string& packet,
                                  const std::optional<std::string>& overload,
                                  const std::function<void(const Edge&)>& fn) const {
  std::string prefix = overload ? KeyPrefix({packet, *overload}) : KeyPrefix({packet});
  Edge e;
  store_.Scan(Cf::kOpTests, prefix, [&](std::string_view k, std::string_view v) {
    ReadOpTestsEdge(k, v, e);
    fn(e);
    return true;
  });
}

std::vector<Edge> IndexReader::EdgesOfTest(const std::string& nodeid) const {
  std::vector<Edge> out;
  store_.Scan(Cf::kTestOps, KeyPrefix({nodeid}), [&](std::string_view k, std::string_view v) {
    out.push_back(EdgeFromTestOpsKey(k, v));
    return true;
  });
  return out;
}

std::vector<std::string> IndexReader::KnownOps() const {
  std::vector<std::string> out;
  for (const OpKey& k : ListOpKeys(store_)) out.push_back(k.Canonical());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::optional<std::string> IndexReader::TestRecord(const std::string& nodeid) const {
  return store_.Get(Cf::kTests, nodeid);
}

std::vector<std::string> IndexReader::TestsOfGeneric(const std::string& generic_id) const {
  std::vector<std::string> out;
  store_.Scan(Cf::kGeneric, KeyPrefix({generic_id}), [&](std::string_view k, std::string_view) {
    out.emplace_back(k.substr(generic_id.size() + 1));
    return true;
  });
  return out;
}

std::vector<OutcomeRecord> IndexReader::Outcomes(const std::string& nodeid) const {
  std::vector<OutcomeRecord> out;
  store_.Scan(Cf::kOutcomes, KeyPrefix({nodeid}), [&](std::string_view k, std::string_view v) {
    out.push_back({std::string(k.substr(nodeid.size() + 1)), std::string(v)});
    return true;
  });
  return out;
}

std::optional<std::string> IndexReader::Run(const std::string& run_id) const {
  return store_.Get(Cf::kRuns, run_id);
}

void IndexReader::ForEachEdge(const std::function<void(const Edge&)>& fn) const {
  Edge e;
  store_.Scan(Cf::kOpTests, "", [&](std::string_view k, std::string_view v) {
    ReadOpTestsEdge(k, v, e);
    fn(e);
    return true;
  });
}

void IndexReader::ForEachTest(
    const std::function<void(const std::string&, const std::string&)>& fn) const {
  store_.Scan(Cf::kTests, "", [&](std::string_view k, std::string_view v) {
    fn(std::string(k), std::string(v));
    return true;
  });
}

void IndexReader::ForEachRun(
    const std::function<void(const std::string&, const std::string&)>& fn) const {
  store_.Scan(Cf::kRuns, "", [&](std::string_view k, std::string_view v) {
    fn(std::string(k), std::string(v));
    return true;
  });
}

size_t IndexReader::CountKeys(Cf cf) const {
  size_t n = 0;
  store_.Scan(cf, "", [&](std::string_view, std::string_view) {
    ++n;
    return true;
  });
  return n;
}

}  // namespace testmap::indexer
