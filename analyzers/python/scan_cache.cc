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

// 3: a record's field equal to the previous record's is written as kSame.
constexpr uint32_t kEncodingVersion = 3;

// In place of a field's length: "as in the previous record". The instances
// of one generic test (an @ops test has one per op and dtype, 23,514 in the
// real test_unary_ufuncs.py) share most fields, and writing them once keeps
// a cold scan from copying them into the cache thousands of times.
constexpr uint32_t kSame = 0xFFFFFFFF;

// Writes the fields of one record after another, each either its bytes or
// kSame.
class FieldWriter {
 public:
  explicit FieldWriter(ByteWriter& w) : w_(w) {}
  void Str(std::string_view s, std::string_view before) {
    if (first_ || s != before)
      w_.Str(s);
    else
      w_.U32(kSame);
  }
  template <class Vector, class Item>
  void List(const Vector& v, const Vector& before, Item item) {
    if (!first_ && v == before) return w_.U32(kSame);
    w_.U32(static_cast<uint32_t>(v.size()));
    for (const auto& x : v) item(x);
  }
  void Next() { first_ = false; }

 private:
  ByteWriter& w_;
  bool first_ = true;
};

// Reads what FieldWriter wrote: kSame takes the previous record's value
// (and is malformed in the first record).
class FieldReader {
 public:
  explicit FieldReader(ByteReader& r) : r_(r) {}
  // `same` is set when the field was the previous record's.
  bool Str(std::string* s, const std::string& before, bool* same = nullptr) {
    uint32_t n;
    if (!r_.U32(&n)) return false;
    if (same) *same = n == kSame;
    if (n == kSame) {
      *s = before;
      return !first_;
    }
    std::string_view v;
    if (!r_.Bytes(n, &v)) return false;
    s->assign(v);
    return true;
  }
  template <class Vector, class Item>
  bool List(Vector* v, const Vector& before, Item item) {
    uint32_t n;
    if (!r_.U32(&n)) return false;
    if (n == kSame) {
      *v = before;
      return !first_;
    }
    if (n > r_.left()) return false;  // every item takes at least a byte
    v->resize(n);
    for (auto& x : *v)
      if (!item(x)) return false;
    return true;
  }
  void Next() { first_ = false; }

 private:
  ByteReader& r_;
  bool first_ = true;
};

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
  FieldWriter f(w);
  // The previous record (the first is compared with itself, and written whole).
  const TestRecord* p = scan.tests.empty() ? nullptr : &scan.tests.front();
  auto str = [&w](const std::string& s) { w.Str(s); };
  for (const auto& t : scan.tests) {
    f.Str(std::string_view(t.nodeid).substr(prefix), std::string_view(p->nodeid).substr(prefix));
    f.Str(std::string_view(t.generic_id).substr(prefix),
          std::string_view(p->generic_id).substr(prefix));
    f.Str(t.cls, p->cls);
    f.Str(t.method, p->method);
    f.Str(t.generic_class, p->generic_class);
    f.Str(t.generic_method, p->generic_method);
    f.Str(t.kind, p->kind);
    w.U32(static_cast<uint32_t>(t.line_start));
    w.U32(static_cast<uint32_t>(t.line_end));
    f.Str(t.params.device, p->params.device);
    f.List(t.params.dtypes, p->params.dtypes, str);
    f.Str(t.params.op, p->params.op);
    f.Str(t.params.op_variant, p->params.op_variant);
    f.Str(t.params.module, p->params.module);
    w.U32(t.params.training ? (*t.params.training ? 2 : 1) : 0);
    f.List(t.params.values, p->params.values, [&w](const auto& kv) {
      w.Str(kv.first);
      w.Str(kv.second);
    });
    f.List(t.decorators, p->decorators, str);
    f.List(t.skips, p->skips, str);
    f.Str(t.source_hash, p->source_hash);
    f.Str(t.content.body, p->content.body);
    f.Str(t.content.decorators, p->content.decorators);
    f.Str(t.content.setup, p->content.setup);
    f.Str(t.content.entry, p->content.entry);
    f.Str(t.content.dtypes, p->content.dtypes);
    f.Next();
    p = &t;
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
  if (n > r.left()) return false;
  out->diagnostics.resize(n);
  for (auto& d : out->diagnostics) {
    uint32_t sev, line;
    if (!r.U32(&sev) || !r.U32(&line) || !r.Str(&d.message)) return false;
    d.severity = static_cast<Diagnostic::Severity>(sev);
    d.line = static_cast<int>(line);
  }
  if (!r.U32(&n) || n > r.left()) return false;
  out->tests.resize(n);
  FieldReader f(r);
  const TestRecord none;
  const TestRecord* p = &none;  // the previous record
  auto str = [&r](std::string& s) { return r.Str(&s); };
  for (auto& t : out->tests) {
    uint32_t a, b, training;
    bool same_id = false, same_generic = false;  // then the path is there already
    if (!f.Str(&t.nodeid, p->nodeid, &same_id) ||
        !f.Str(&t.generic_id, p->generic_id, &same_generic) || !f.Str(&t.cls, p->cls) ||
        !f.Str(&t.method, p->method) || !f.Str(&t.generic_class, p->generic_class) ||
        !f.Str(&t.generic_method, p->generic_method) || !f.Str(&t.kind, p->kind) || !r.U32(&a) ||
        !r.U32(&b) || !f.Str(&t.params.device, p->params.device) ||
        !f.List(&t.params.dtypes, p->params.dtypes, str) || !f.Str(&t.params.op, p->params.op) ||
        !f.Str(&t.params.op_variant, p->params.op_variant) ||
        !f.Str(&t.params.module, p->params.module) || !r.U32(&training) ||
        !f.List(&t.params.values, p->params.values,
                [&r](auto& kv) { return r.Str(&kv.first) && r.Str(&kv.second); }) ||
        !f.List(&t.decorators, p->decorators, str) || !f.List(&t.skips, p->skips, str) ||
        !f.Str(&t.source_hash, p->source_hash) || !f.Str(&t.content.body, p->content.body) ||
        !f.Str(&t.content.decorators, p->content.decorators) ||
        !f.Str(&t.content.setup, p->content.setup) || !f.Str(&t.content.entry, p->content.entry) ||
        !f.Str(&t.content.dtypes, p->content.dtypes))
      return false;
    if (!same_id) t.nodeid.insert(0, path);
    if (!same_generic) t.generic_id.insert(0, path);
    t.line_start = static_cast<int>(a);
    t.line_end = static_cast<int>(b);
    if (training) t.params.training = training == 2;
    f.Next();
    p = &t;
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
