// OpAttribute/ModuleAttribute decode a value when it is first read: every
// value of the real torch's snapshot must read as a decoder written here
// from snapshot_torch.py's plain() codes reads it, from several threads at
// once, and a row malformed anywhere must leave every column of its object
// unknown, as a row decoded whole did.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "analyzers/torch_snapshot/torch_snapshot.h"
#include "tests/support/command.h"
#include "tests/support/temp_dir.h"

namespace testmap::torch_snapshot {
namespace {

// A plain() value as text, decoded independently of attribute_columns.cc;
// "!" marks a malformed row.
struct Oracle {
  std::string_view t;
  size_t p = 0;
  bool bad = false;

  std::string Until(char c) {
    size_t e = t.find(c, p);
    if (e == std::string_view::npos) return bad = true, "";
    std::string s(t.substr(p, e - p));
    p = e + 1;
    return s;
  }
  std::string Sized() {
    size_t n = std::stoull("0" + Until(':'));
    if (bad || n > t.size() - p) return bad = true, "";
    std::string s(t.substr(p, n));
    p += n;
    return s;
  }
  std::string Value(int depth = 0) {
    if (depth > 8 || p >= t.size()) return bad = true, "";
    switch (char c = t[p++]) {
      case '-':
        return "absent";
      case 'N':
        return "None";
      case 'T':
      case 'F':
      case 'O':
      case 'o':
      case '#':
        return std::string(1, c);
      case 'n':
        return "named " + Sized();
      case 'i':
        return "int " + std::to_string(std::strtoll(Until(';').c_str(), nullptr, 10));
      case 'f':
        return "float " + std::to_string(std::strtod(Until(';').c_str(), nullptr));
      case 'd':
        return "dtype " + Until(';');
      case 's':
        return "str " + Sized();
      case 'e':
        return "enum " + Sized();
      case '[': {
        std::string out = "[";
        while (!bad && p < t.size() && t[p] != ']') out += Value(depth + 1) + ",";
        if (p++ >= t.size()) bad = true;
        return out + "]";
      }
      default:
        return bad = true, "";
    }
  }
  // Every value of a row, or nothing if it is malformed or not `columns` long.
  std::vector<std::string> Row(size_t columns) {
    std::vector<std::string> out;
    while (!bad && p < t.size()) out.push_back(Value());
    if (bad || out.size() != columns) out.clear();
    return out;
  }
};

std::string Show(const PlainValue& v) {
  using K = PlainValue::Kind;
  switch (v.kind) {
    case K::kAbsent:
      return "absent";
    case K::kNone:
      return "None";
    case K::kBool:
      return v.truthy ? "T" : "F";
    case K::kObject:
      return v.truthy ? "O" : "o";
    case K::kNumber:
      return "#";
    case K::kNamed:
      return "named " + v.s;
    case K::kInt:
      return "int " + std::to_string(v.i);
    case K::kFloat:
      return "float " + std::to_string(v.f);
    case K::kDtype:
      return "dtype " + v.s;
    case K::kStr:
      return "str " + v.s;
    case K::kEnum:
      return "enum " + v.s;
    case K::kList: {
      std::string out = "[";
      for (const PlainValue& item : v.items) out += Show(item) + ",";
      return out + "]";
    }
  }
  return "?";
}

const std::string& RealPath() {
  static const std::string path = EnsureTorchSnapshot(TESTMAP_PYTHON, DefaultCacheDir());
  return path;
}

// Reads every (object, column) of the snapshot on `threads` threads, each
// in its own order, and checks each value against the oracle.
void ExpectEveryValueAsTheOracleReadsIt(const TorchSnapshot& s, int threads) {
  struct Cell {
    size_t row, column;
    bool module;
  };
  std::vector<Cell> cells;
  for (size_t r = 0; r < s.ops.size(); ++r)
    for (size_t c = 0; c < s.op_attr_names.size(); ++c) cells.push_back({r, c, false});
  for (size_t r = 0; r < s.modules.size(); ++r)
    for (size_t c = 0; c < s.module_attr_names.size(); ++c) cells.push_back({r, c, true});
  std::vector<std::vector<std::string>> seen(threads, std::vector<std::string>(cells.size()));
  {
    std::vector<std::jthread> workers;
    for (int w = 0; w < threads; ++w)
      workers.emplace_back([&, w] {
        std::vector<size_t> order(cells.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::shuffle(order.begin(), order.end(), std::mt19937(w));
        for (size_t i : order) {
          const Cell& c = cells[i];
          const PlainValue* v =
              c.module ? s.ModuleAttribute(s.modules[c.row], s.module_attr_names[c.column])
                       : s.OpAttribute(s.ops[c.row], s.op_attr_names[c.column]);
          seen[w][i] = v ? Show(*v) : "unknown";
        }
      });
  }
  size_t known = 0;
  for (size_t i = 0; i < cells.size(); ++i) {
    const Cell& c = cells[i];
    const std::string& text = c.module ? s.modules[c.row].attr_row : s.ops[c.row].attr_row;
    std::vector<std::string> row =
        Oracle{text}.Row(c.module ? s.module_attr_names.size() : s.op_attr_names.size());
    std::string want = row.empty() ? "unknown" : row[c.column];
    known += want != "unknown";
    for (int w = 0; w < threads; ++w)
      ASSERT_EQ(seen[w][i], want) << (c.module ? "module " : "op ") << c.row << " column "
                                  << c.column << " thread " << w;
  }
  EXPECT_GT(known, cells.size() / 2);
}

TEST(AttributeColumns, EveryValueOfTheRealSnapshotReadsAsAnIndependentDecoderReadsIt) {
  TorchSnapshot s = LoadTorchSnapshot(RealPath());
  ASSERT_GT(s.ops.size(), 500u);
  ASSERT_GT(s.op_attr_names.size(), 50u);
  ExpectEveryValueAsTheOracleReadsIt(s, 4);
  // Read again: decoded values are kept, at the same address.
  const PlainValue* first = s.OpAttribute(s.ops[0], s.op_attr_names[0]);
  EXPECT_EQ(s.OpAttribute(s.ops[0], s.op_attr_names[0]), first);
  EXPECT_EQ(s.OpAttribute(s.ops[0], "no_such_attribute"), nullptr);
}

// A row broken after its first column, cut short, made a column longer or
// given an unknown code: the object has no attributes, its first column
// included, as when rows were decoded whole. Its neighbours keep theirs.
TEST(AttributeColumns, ARowMalformedAfterTheColumnReadLeavesTheObjectUnknown) {
  nlohmann::json j = nlohmann::json::parse(testing::ReadFile(RealPath()));
  std::vector<size_t> rows;
  for (size_t i = 0; i < j["ops"].size() && rows.size() < 4; ++i)
    if (!j["ops"][i].value("attrs", "").empty()) rows.push_back(i);
  ASSERT_EQ(rows.size(), 4u);
  auto row = [&](size_t i) -> nlohmann::json& { return j["ops"][rows[i]]["attrs"]; };
  row(0) = row(0).get<std::string>() + "[";  // an unterminated list at the end
  row(1) = row(1).get<std::string>() + "N";  // one value too many
  row(2) = row(2).get<std::string>().substr(0, row(2).get<std::string>().size() - 1);
  row(3) = row(3).get<std::string>() + "?";  // no such code
  TorchSnapshot s = LoadTorchSnapshot(testing::WriteTempFile("broken_rows.json", j.dump()));
  for (size_t r : rows) {
    SCOPED_TRACE(s.ops[r].name);
    EXPECT_EQ(s.OpAttribute(s.ops[r], s.op_attr_names.front()), nullptr);
    EXPECT_EQ(s.OpAttribute(s.ops[r], s.op_attr_names.back()), nullptr);
  }
  ExpectEveryValueAsTheOracleReadsIt(s, 2);
}

// An entry that is not one of the snapshot's (a copy) has no attributes:
// its row index would be another object's.
TEST(AttributeColumns, AnEntryOutsideTheSnapshotHasNoAttributes) {
  TorchSnapshot s = LoadTorchSnapshot(RealPath());
  OpInfoEntry copy = s.ops[0];
  EXPECT_EQ(s.OpAttribute(copy, s.op_attr_names[0]), nullptr);
  EXPECT_NE(s.OpAttribute(s.ops[0], s.op_attr_names[0]), nullptr);
}

}  // namespace
}  // namespace testmap::torch_snapshot
