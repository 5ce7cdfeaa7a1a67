#include "analyzers/python/scan_cache.h"

#include <algorithm>
#include <cstring>

#include "analyzers/python/byte_record.h"

namespace testmap::python {
namespace {

std::string Key(const core::Hash128& content, const core::Hash128& context) {
  std::string k(32, '\0');
  std::memcpy(k.data(), &content.high, 8);
  std::memcpy(k.data() + 8, &content.low, 8);
  std::memcpy(k.data() + 16, &context.high, 8);
  std::memcpy(k.data() + 24, &context.low, 8);
  return k;
}

constexpr uint32_t kEncodingVersion = 2;

}  // namespace

std::string EncodeFileScan(const FileScan& scan) {
  ByteWriter w;
  w.U32(kEncodingVersion);
  w.U32((scan.skipped ? 1u : 0u) | (scan.incomplete ? 2u : 0u));
  w.U32(static_cast<uint32_t>(scan.diagnostics.size()));
  for (const auto& d : scan.diagnostics) {
    w.U32(static_cast<uint32_t>(d.severity));
    w.U32(static_cast<uint32_t>(d.line));
    w.Str(d.message);
  }
  size_t prefix = scan.path.size();
  w.U32(static_cast<uint32_t>(scan.tests.size()));
  for (const auto& t : scan.tests) {
    w.Str(std::string_view(t.nodeid).substr(prefix));
    w.Str(std::string_view(t.generic_id).substr(prefix));
    w.Str(t.cls);
    w.Str(t.method);
    w.Str(t.generic_class);
    w.Str(t.generic_method);
    w.Str(t.kind);
    w.U32(static_cast<uint32_t>(t.line_start));
    w.U32(static_cast<uint32_t>(t.line_end));
    w.Str(t.params.device);
    w.Strs(t.params.dtypes);
    w.Str(t.params.op);
    w.Str(t.params.op_variant);
    w.Str(t.params.module);
    w.U32(t.params.training ? (*t.params.training ? 2 : 1) : 0);
    w.U32(static_cast<uint32_t>(t.params.values.size()));
    for (const auto& [k, v] : t.params.values) {
      w.Str(k);
      w.Str(v);
    }
    w.Strs(t.decorators);
    w.Strs(t.skips);
    w.Str(t.source_hash);
    for (const std::string* part : {&t.content.body, &t.content.decorators, &t.content.setup,
                                    &t.content.entry, &t.content.dtypes})
      w.Str(*part);
  }
  return std::move(w.out);
}

bool DecodeFileScan(std::string_view bytes, const std::string& path, FileScan* out) {
  ByteReader r(bytes);
  uint32_t version, skipped, n;
  if (!r.U32(&version) || version != kEncodingVersion || !r.U32(&skipped) || !r.U32(&n))
    return false;
  out->path = path;
  out->skipped = (skipped & 1) != 0;
  out->incomplete = (skipped & 2) != 0;
  out->diagnostics.resize(n);
  for (auto& d : out->diagnostics) {
    uint32_t sev, line;
    if (!r.U32(&sev) || !r.U32(&line) || !r.Str(&d.message)) return false;
    d.severity = static_cast<Diagnostic::Severity>(sev);
    d.line = static_cast<int>(line);
  }
  if (!r.U32(&n)) return false;
  out->tests.resize(n);
  for (auto& t : out->tests) {
    uint32_t a, b, training, nv;
    if (!r.Str(&t.nodeid) || !r.Str(&t.generic_id) || !r.Str(&t.cls) || !r.Str(&t.method) ||
        !r.Str(&t.generic_class) || !r.Str(&t.generic_method) || !r.Str(&t.kind) || !r.U32(&a) ||
        !r.U32(&b) || !r.Str(&t.params.device) || !r.Strs(&t.params.dtypes) ||
        !r.Str(&t.params.op) || !r.Str(&t.params.op_variant) || !r.Str(&t.params.module) ||
        !r.U32(&training) || !r.U32(&nv))
      return false;
    t.nodeid.insert(0, path);
    t.generic_id.insert(0, path);
    t.line_start = static_cast<int>(a);
    t.line_end = static_cast<int>(b);
    if (training) t.params.training = training == 2;
    t.params.values.resize(nv);
    for (auto& [k, v] : t.params.values)
      if (!r.Str(&k) || !r.Str(&v)) return false;
    if (!r.Strs(&t.decorators) || !r.Strs(&t.skips) || !r.Str(&t.source_hash)) return false;
    for (std::string* part : {&t.content.body, &t.content.decorators, &t.content.setup,
                              &t.content.entry, &t.content.dtypes})
      if (!r.Str(part)) return false;
  }
  return r.done();
}

std::unique_ptr<ScanCache> ScanCache::Open(const std::string& dir, std::string* error) {
  auto store = KeyValueCache::Open(dir, error);
  return store ? std::unique_ptr<ScanCache>(new ScanCache(std::move(store))) : nullptr;
}

std::optional<FileScan> ScanCache::Get(const core::Hash128& content, const core::Hash128& context,
                                       const std::string& path) {
  auto value = store_->Get(Key(content, context));
  FileScan scan;
  if (!value || !DecodeFileScan(*value, path, &scan)) return std::nullopt;  // corrupt: a miss
  return scan;
}

void ScanCache::Put(const core::Hash128& content, const core::Hash128& context,
                    const FileScan& scan) {
  std::string key = Key(content, context);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!put_.insert(key).second) return;
  }
  store_->Put(key, EncodeFileScan(scan));
}

void ScanCache::Flush() { store_->Flush(); }

}  // namespace testmap::python
