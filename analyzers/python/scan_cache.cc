#include "analyzers/python/scan_cache.h"

#include <algorithm>
#include <climits>
#include <cstdint>
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

// 4: fields after a varint marker; node and generic ids derived from the
// class and method when they can be. (3: a 32-bit length or kSame before
// every field, ids always written.)
constexpr uint32_t kEncodingVersion = 4;

// A record's field is written after a varint marker:
//   kSame     as in the previous record (malformed in the first record);
//   kDerived  an id: path, class and method joined as pytest joins them;
//   n + kBytes  n bytes follow (a list: n items follow).
// The instances of one generic test (an @ops test has one per op and dtype,
// 23,514 in the real test_unary_ufuncs.py) share most fields, and their ids
// repeat their class and method: written once and derived, a cold scan's
// cache entries are a third the size (7.3 -> 2.6 MB for the nine real
// files), and it puts and flushes that much less.
constexpr uint64_t kSame = 0, kDerived = 1, kBytes = 2;

// `::cls::name` (`::name` without a class): an id after its file's path.
std::string IdTail(const std::string& cls, const std::string& name) {
  return NodeId("", cls, name);
}

// Writes the fields of one record after another.
class FieldWriter {
 public:
  explicit FieldWriter(ByteWriter& w) : w_(w) {}
  void Str(std::string_view s, std::string_view before) {
    if (!first_ && s == before) return w_.Varint(kSame);
    Bytes(s);
  }
  // An id's tail (after the path): derived when the class and method say it.
  void Id(std::string_view tail, std::string_view before, const std::string& derived) {
    if (!first_ && tail == before) return w_.Varint(kSame);
    if (tail == derived) return w_.Varint(kDerived);
    Bytes(tail);
  }
  template <class Vector, class Item>
  void List(const Vector& v, const Vector& before, Item item) {
    if (!first_ && v == before) return w_.Varint(kSame);
    w_.Varint(v.size() + kBytes);
    for (const auto& x : v) item(x);
  }
  void Bytes(std::string_view s) {
    w_.Varint(s.size() + kBytes);
    w_.out.append(s);
  }
  void Next() { first_ = false; }

 private:
  ByteWriter& w_;
  bool first_ = true;
};

// Reads what FieldWriter wrote.
class FieldReader {
 public:
  explicit FieldReader(ByteReader& r) : r_(r) {}
  bool Str(std::string* s, const std::string& before) {
    uint64_t m;
    if (!r_.Varint(&m) || m == kDerived) return false;  // only ids are derived
    if (m == kSame) {
      *s = before;
      return !first_;
    }
    return Bytes(m - kBytes, s);
  }
  // What FieldWriter::Id wrote, whole: `before` (already under `path`), or
  // `path` and the tail, derived from `cls` and `name` or read.
  bool Id(std::string* s, const std::string& before, const std::string& path,
          const std::string& cls, const std::string& name) {
    uint64_t m;
    if (!r_.Varint(&m)) return false;
    if (m == kSame) {
      *s = before;
      return !first_;
    }
    if (m == kDerived)
      *s = IdTail(cls, name);
    else if (!Bytes(m - kBytes, s))
      return false;
    s->insert(0, path);
    return true;
  }
  template <class Vector, class Item>
  bool List(Vector* v, const Vector& before, Item item) {
    uint64_t m;
    if (!r_.Varint(&m) || m == kDerived) return false;
    if (m == kSame) {
      *v = before;
      return !first_;
    }
    if (m - kBytes > r_.left()) return false;  // every item takes at least a byte
    v->resize(m - kBytes);
    for (auto& x : *v)
      if (!item(x)) return false;
    return true;
  }
  bool Bytes(std::string* s) {
    uint64_t n;
    return r_.Varint(&n) && n >= kBytes && Bytes(n - kBytes, s);
  }
  bool Bytes(uint64_t n, std::string* s) {
    std::string_view v;
    if (n > r_.left() || !r_.Bytes(static_cast<uint32_t>(n), &v)) return false;
    s->assign(v);
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
  auto str = [&f](const std::string& s) { f.Bytes(s); };
  for (const auto& t : scan.tests) {
    // The ids after the names they are derived from.
    f.Str(t.cls, p->cls);
    f.Str(t.method, p->method);
    f.Str(t.generic_class, p->generic_class);
    f.Str(t.generic_method, p->generic_method);
    f.Id(std::string_view(t.nodeid).substr(prefix), std::string_view(p->nodeid).substr(prefix),
         IdTail(t.cls, t.method));
    f.Id(std::string_view(t.generic_id).substr(prefix),
         std::string_view(p->generic_id).substr(prefix), IdTail(t.generic_class, t.generic_method));
    f.Str(t.kind, p->kind);
    w.Varint(static_cast<uint32_t>(t.line_start));
    w.Varint(static_cast<uint32_t>(t.line_end));
    f.Str(t.params.device, p->params.device);
    f.List(t.params.dtypes, p->params.dtypes, str);
    f.Str(t.params.op, p->params.op);
    f.Str(t.params.op_variant, p->params.op_variant);
    f.Str(t.params.module, p->params.module);
    w.Varint(t.params.training ? (*t.params.training ? 2 : 1) : 0);
    f.List(t.params.values, p->params.values, [&f](const auto& kv) {
      f.Bytes(kv.first);
      f.Bytes(kv.second);
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
  auto str = [&f](std::string& s) { return f.Bytes(&s); };
  // An id: the previous record's whole, derived, or its tail after the path.
  for (auto& t : out->tests) {
    uint64_t a, b, training;
    if (!f.Str(&t.cls, p->cls) || !f.Str(&t.method, p->method) ||
        !f.Str(&t.generic_class, p->generic_class) ||
        !f.Str(&t.generic_method, p->generic_method) ||
        !f.Id(&t.nodeid, p->nodeid, path, t.cls, t.method) ||
        !f.Id(&t.generic_id, p->generic_id, path, t.generic_class, t.generic_method) ||
        !f.Str(&t.kind, p->kind) || !r.Varint(&a) || !r.Varint(&b) || a > UINT32_MAX ||
        b > UINT32_MAX || !f.Str(&t.params.device, p->params.device) ||
        !f.List(&t.params.dtypes, p->params.dtypes, str) || !f.Str(&t.params.op, p->params.op) ||
        !f.Str(&t.params.op_variant, p->params.op_variant) ||
        !f.Str(&t.params.module, p->params.module) || !r.Varint(&training) || training > 2 ||
        !f.List(&t.params.values, p->params.values,
                [&f](auto& kv) { return f.Bytes(&kv.first) && f.Bytes(&kv.second); }) ||
        !f.List(&t.decorators, p->decorators, str) || !f.List(&t.skips, p->skips, str) ||
        !f.Str(&t.source_hash, p->source_hash) || !f.Str(&t.content.body, p->content.body) ||
        !f.Str(&t.content.decorators, p->content.decorators) ||
        !f.Str(&t.content.setup, p->content.setup) || !f.Str(&t.content.entry, p->content.entry) ||
        !f.Str(&t.content.dtypes, p->content.dtypes))
      return false;
    t.line_start = static_cast<int>(static_cast<uint32_t>(a));
    t.line_end = static_cast<int>(static_cast<uint32_t>(b));
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
