#include "mapper/select/select_marks.h"

namespace testmap::select {

std::string OpMark(const std::string& packet) {
  size_t sep = packet.find("::");
  std::string ns = sep == std::string::npos ? "aten" : packet.substr(0, sep);
  std::string name = sep == std::string::npos ? packet : packet.substr(sep + 2);
  return ns == "aten" ? "op__" + name : "op__" + ns + "__" + name;
}

std::string DtypeMark(const std::string& dtype) { return "dtype__" + dtype; }

namespace {

void AddEdgeMarks(const std::vector<indexer::Edge>& edges, const std::set<std::string>& roles,
                  std::set<std::string>& marks) {
  for (const auto& e : edges) {
    for (const auto& t : e.tuples) {
      if (!roles.count(t.role)) continue;
      marks.insert(OpMark(e.packet));
      for (const auto& d : t.dtypes) marks.insert(DtypeMark(d));
    }
  }
}

}  // namespace

std::set<std::string> MarksOf(const indexer::IndexReader& index, const std::string& nodeid,
                              const indexer::TestFacts* facts, const std::set<std::string>& roles) {
  std::set<std::string> marks;
  auto edges = index.EdgesOfTest(nodeid);
  if (edges.empty() && facts && !facts->generic_id.empty()) {
    // Never traced itself: the traced test of the same generic test and params.
    std::string params = facts->ParamsWithoutDevice();
    for (const auto& sibling : index.TestsOfGeneric(facts->generic_id)) {
      if (sibling == nodeid) continue;
      auto twin = indexer::ReadTestFacts(index.store(), sibling);
      if (!twin || twin->device == facts->device || twin->ParamsWithoutDevice() != params) continue;
      edges = index.EdgesOfTest(sibling);
      if (!edges.empty()) break;
    }
  }
  AddEdgeMarks(edges, roles, marks);
  return marks;
}

}  // namespace testmap::select
