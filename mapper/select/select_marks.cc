#include "mapper/select/select_marks.h"

namespace testmap::select {

std::string OpMark(const std::string& packet) {
  size_t sep = packet.find("::");
  std::string ns = sep == std::string::npos ? "aten" : packet.substr(0, sep);
  std::string name = sep == std::string::npos ? packet : packet.substr(sep + 2);
  return ns == "aten" ? "op__" + name : "op__" + ns + "__" + name;
}

std::string DtypeMark(const std::string& dtype) { return "dtype__" + dtype; }

std::set<std::string> MarksOf(const indexer::IndexReader& index, const std::string& nodeid) {
  std::set<std::string> marks;
  for (const auto& e : index.EdgesOfTest(nodeid)) {
    marks.insert(OpMark(e.packet));
    for (const auto& t : e.tuples)
      for (const auto& d : t.dtypes) marks.insert(DtypeMark(d));
  }
  return marks;
}

}  // namespace testmap::select
