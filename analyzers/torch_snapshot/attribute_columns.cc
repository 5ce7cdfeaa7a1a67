#include "analyzers/torch_snapshot/attribute_columns.h"

#include <cstdlib>
#include <stdexcept>

#include "analyzers/torch_snapshot/torch_snapshot.h"

namespace testmap::torch_snapshot {
namespace {

// A row of attribute values in snapshot_torch.py's plain() code, one
// string per object: a JSON tree of ~150k small values tripled the
// snapshot's load time, this reader does not show in a profile. Reading
// into no value checks and skips one.
class RowReader {
 public:
  RowReader(std::string_view text, const std::string& path, size_t at = 0)
      : t_(text), path_(path), p_(at) {}

  // Where each value starts; throws unless there are exactly `columns`.
  std::vector<uint32_t> Starts(size_t columns) {
    if (t_.size() > UINT32_MAX) Fail("attribute row over 4 GiB");
    std::vector<uint32_t> starts;
    starts.reserve(columns);
    while (p_ < t_.size()) {
      starts.push_back(static_cast<uint32_t>(p_));
      Read(0, nullptr);
    }
    if (starts.size() != columns) Fail("attribute row does not match its columns");
    return starts;
  }

  // The value starting where this reader was placed.
  PlainValue Value() {
    PlainValue v;
    Read(0, &v);
    return v;
  }

 private:
  [[noreturn]] void Fail(const char* what) {
    throw std::runtime_error(path_ + ": malformed torch snapshot: " + what);
  }
  std::string_view Until(char end) {
    size_t e = t_.find(end, p_);
    if (e == std::string_view::npos) Fail("unterminated value in attribute row");
    std::string_view out = t_.substr(p_, e - p_);
    p_ = e + 1;
    return out;
  }
  // <utf-8 length>:<text>
  std::string_view Sized() {
    size_t n = std::strtoull(std::string(Until(':')).c_str(), nullptr, 10);
    if (n > t_.size() - p_) Fail("string runs past its attribute row");
    std::string_view s = t_.substr(p_, n);
    p_ += n;
    return s;
  }
  // One value, into `v` unless it is null.
  void Read(int depth, PlainValue* v) {
    using K = PlainValue::Kind;
    if (depth > 8) Fail("nesting too deep");
    if (p_ >= t_.size()) Fail("unexpected end of attribute row");
    PlainValue skipped;
    if (!v) v = &skipped;
    char c = t_[p_++];
    switch (c) {
      case '-':
        break;
      case 'N':
        v->kind = K::kNone;
        break;
      case 'T':
      case 'F':
        v->kind = K::kBool;
        v->truthy = c == 'T';
        break;
      case 'O':
      case 'o':
        v->kind = K::kObject;
        v->truthy = c == 'O';
        break;
      case '#':
        v->kind = K::kNumber;
        v->truthy = true;  // unknown, and never read: a number is named by its str()
        break;
      case 'n':  // an object's __name__
      case 'e':  // an Enum member: `<class>.<member>`, spelled as a string
        v->kind = c == 'n' ? K::kNamed : K::kEnum;
        Text(Sized(), v, skipped);
        v->truthy = true;
        break;
      case 'i':
        v->kind = K::kInt;
        v->i = std::strtoll(std::string(Until(';')).c_str(), nullptr, 10);
        v->truthy = v->i != 0;
        break;
      case 'f':
        v->kind = K::kFloat;
        v->f = std::strtod(std::string(Until(';')).c_str(), nullptr);
        v->truthy = v->f != 0;
        break;
      case 'd':
        v->kind = K::kDtype;
        Text(Until(';'), v, skipped);
        v->truthy = true;
        break;
      case 's': {
        v->kind = K::kStr;
        std::string_view s = Sized();
        Text(s, v, skipped);
        v->truthy = !s.empty();
        break;
      }
      case '[':
        v->kind = K::kList;
        v->truthy = false;
        while (p_ < t_.size() && t_[p_] != ']') {
          v->truthy = true;
          Read(depth + 1, v == &skipped ? nullptr : &v->items.emplace_back());
        }
        if (p_++ >= t_.size()) Fail("unterminated list in attribute row");
        break;
      default:
        Fail("unexpected code in attribute row");
    }
  }
  // A value's text, kept only when the value is.
  static void Text(std::string_view s, PlainValue* v, const PlainValue& skipped) {
    if (v != &skipped) v->s = s;
  }

  std::string_view t_;
  const std::string& path_;
  size_t p_ = 0;
};

}  // namespace

std::vector<PlainValue> DecodeAttributeRow(std::string_view text, size_t columns,
                                           const std::string& path) {
  std::vector<uint32_t> starts = RowReader(text, path).Starts(columns);
  std::vector<PlainValue> row;
  row.reserve(columns);
  for (uint32_t at : starts) row.push_back(RowReader(text, path, at).Value());
  return row;
}

AttributeColumns::AttributeColumns(size_t rows, size_t columns, std::string path)
    : rows_(rows),
      columns_(columns),
      path_(std::move(path)),
      indexed_(new std::once_flag[rows]),
      index_(new Row[rows]) {}

AttributeColumns::~AttributeColumns() {
  for (size_t r = 0; r < rows_; ++r)
    if (index_[r].values)
      for (size_t c = 0; c < columns_; ++c) delete index_[r].values[c].load();
}

const AttributeColumns::Row& AttributeColumns::Indexed(std::string_view text, size_t row) const {
  std::call_once(indexed_[row], [&] {
    if (text.empty() || columns_ == 0) return;
    try {
      index_[row].starts = RowReader(text, path_).Starts(columns_);
    } catch (const std::exception&) {
      return;  // malformed: no attributes
    }
    index_[row].values.reset(new std::atomic<PlainValue*>[columns_]());
  });
  return index_[row];
}

const PlainValue* AttributeColumns::Get(std::string_view text, size_t row, size_t column) const {
  if (row >= rows_ || column >= columns_) return nullptr;
  const Row& r = Indexed(text, row);
  if (r.starts.empty()) return nullptr;
  std::atomic<PlainValue*>& slot = r.values[column];
  if (PlainValue* v = slot.load(std::memory_order_acquire)) return v;
  // The row checked whole when indexed, so its values read back.
  auto decoded = std::make_unique<PlainValue>(RowReader(text, path_, r.starts[column]).Value());
  PlainValue* expected = nullptr;
  if (slot.compare_exchange_strong(expected, decoded.get(), std::memory_order_acq_rel))
    return decoded.release();
  return expected;  // another thread decoded it first
}

}  // namespace testmap::torch_snapshot
