// The instance attributes of a snapshot's OpInfos or ModuleInfos, as
// snapshot_torch.py writes them: one row of plain() codes per object, one
// value per attribute name (column). Rows are decoded lazily and
// thread-safely, a value at a time: a scan filters on a few of the ~100
// columns, and decoding all 177k values of torch 2.13's OpInfos took 14 MB
// and ~7 ms on test_unary_ufuncs.py's critical path (docs/scan.md).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace testmap::torch_snapshot {

struct PlainValue;

// A whole row of `columns` values, decoded now; throws std::runtime_error
// naming `path` when it is malformed.
std::vector<PlainValue> DecodeAttributeRow(std::string_view text, size_t columns,
                                           const std::string& path);

class AttributeColumns {
 public:
  // `path` names the snapshot in errors.
  AttributeColumns(size_t rows, size_t columns, std::string path);
  ~AttributeColumns();
  AttributeColumns(const AttributeColumns&) = delete;
  AttributeColumns& operator=(const AttributeColumns&) = delete;

  // Object `row`'s value in `column`, decoded from `text`, the object's
  // row (the same text on every call for that row). nullptr when the row
  // is empty or malformed: the object then has no attributes at all, so
  // that filters on it stay unknown rather than wrong. The value lives as
  // long as this table.
  const PlainValue* Get(std::string_view text, size_t row, size_t column) const;

 private:
  // A row as first read: where each of its values starts, and each value
  // once decoded (null before). Both empty for a row without attributes.
  struct Row {
    std::vector<uint32_t> starts;
    std::unique_ptr<std::atomic<PlainValue*>[]> values;
  };
  const Row& Indexed(std::string_view text, size_t row) const;

  size_t rows_, columns_;
  std::string path_;
  std::unique_ptr<std::once_flag[]> indexed_;
  std::unique_ptr<Row[]> index_;
};

}  // namespace testmap::torch_snapshot
