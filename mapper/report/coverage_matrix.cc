#include "mapper/report/coverage_matrix.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <unordered_map>

#include "core/dtype_names.h"
#include "core/errors.h"
#include "mapper/query/evidence_runs.h"

namespace testmap::report {
namespace {

// The role of an observation, or "" while the index's edges carry none
// (indexes before roles; the page then shows no role filter).
template <class Tuple>
std::string_view RoleOf(const Tuple& t) {
  if constexpr (requires { t.role; }) {
    return t.role;
  } else {
    return {};
  }
}

// One (dtype, test) entry while reading, before tests are numbered in
// sorted order. dtype -1 is the "any" column.
struct RawEntry {
  int dtype;
  uint32_t test;
  uint32_t mask;
};

class Interner {
 public:
  uint32_t Id(const std::string& s) {
    auto [it, added] = ids_.try_emplace(s, static_cast<uint32_t>(names_.size()));
    if (added) names_.push_back(s);
    return it->second;
  }
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::unordered_map<std::string, uint32_t> ids_;
  std::vector<std::string> names_;
};

}  // namespace

CoverageMatrix ReadCoverage(const indexer::IndexReader& index) {
  CoverageMatrix m;
  Interner tests, dtypes;
  std::vector<Facet> facets;  // in order of first sight; sorted at the end
  std::map<std::string, std::vector<RawEntry>> rows;
  auto facet_bit = [&](std::string_view evidence, std::string_view role) {
    Facet f{std::string(evidence), std::string(role)};
    auto it = std::find(facets.begin(), facets.end(), f);
    if (it == facets.end()) {
      if (facets.size() == kMaxFacets)
        throw core::InputError(
            index.store().dir(), 0,
            "more than " + std::to_string(kMaxFacets) + " (evidence, role) kinds in the index");
      it = facets.insert(facets.end(), std::move(f));
    }
    return uint32_t{1} << (it - facets.begin());
  };

  // Edges come grouped by operator, so the last row looked up is usually
  // the one wanted again.
  std::string last_op;
  std::vector<RawEntry>* row = nullptr;
  query::EvidenceRuns evidence(index,
                               "");  // retired runs and removed tests left out, as query does
  index.ForEachEdge([&](const indexer::Edge& e) {
    if (evidence.filters() && !evidence.Keep(e.nodeid, e.run)) return;
    ++m.edges;
    std::string op = e.Op();
    if (!row || op != last_op) {
      row = &rows[op];
      last_op = op;
    }
    uint32_t test = tests.Id(e.nodeid);
    uint32_t any = 0;
    for (const auto& t : e.tuples) {
      uint32_t bit = facet_bit(t.evidence, RoleOf(t));
      any |= bit;
      for (const auto& d : t.dtypes) row->push_back({static_cast<int>(dtypes.Id(d)), test, bit});
    }
    row->push_back({-1, test, any});
  });

  // Number tests, dtypes and facets in their final order.
  std::vector<uint32_t> test_order(tests.names().size());
  {
    std::vector<uint32_t> by_name(test_order.size());
    for (uint32_t i = 0; i < by_name.size(); ++i) by_name[i] = i;
    std::sort(by_name.begin(), by_name.end(),
              [&](uint32_t a, uint32_t b) { return tests.names()[a] < tests.names()[b]; });
    for (uint32_t rank = 0; rank < by_name.size(); ++rank) {
      test_order[by_name[rank]] = rank;
      m.tests.push_back(tests.names()[by_name[rank]]);
    }
  }
  std::vector<int> dtype_column(dtypes.names().size(), -1);
  for (const std::string& d : core::AllDtypes()) {
    auto it = std::find(dtypes.names().begin(), dtypes.names().end(), d);
    if (it == dtypes.names().end()) continue;
    dtype_column[it - dtypes.names().begin()] = static_cast<int>(m.dtypes.size());
    m.dtypes.push_back(d);
  }
  for (size_t i = 0; i < dtype_column.size(); ++i) {  // names core does not know, last
    if (dtype_column[i] < 0) {
      dtype_column[i] = static_cast<int>(m.dtypes.size());
      m.dtypes.push_back(dtypes.names()[i]);
    }
  }
  m.facets = facets;
  std::sort(m.facets.begin(), m.facets.end(), [](const Facet& a, const Facet& b) {
    return std::tie(a.evidence, a.role) < std::tie(b.evidence, b.role);
  });
  std::vector<uint32_t> facet_bit_to(facets.size());
  for (size_t i = 0; i < facets.size(); ++i)
    facet_bit_to[i] =
        uint32_t{1} << (std::find(m.facets.begin(), m.facets.end(), facets[i]) - m.facets.begin());
  auto remap_mask = [&](uint32_t mask) {
    uint32_t out = 0;
    for (size_t i = 0; i < facets.size(); ++i)
      if (mask & (uint32_t{1} << i)) out |= facet_bit_to[i];
    return out;
  };

  for (auto& [op, raw] : rows) {
    for (RawEntry& r : raw) {
      r.test = test_order[r.test];
      if (r.dtype >= 0) r.dtype = dtype_column[r.dtype];
    }
    std::sort(raw.begin(), raw.end(), [](const RawEntry& a, const RawEntry& b) {
      return std::tie(a.dtype, a.test) < std::tie(b.dtype, b.test);
    });
    CoverageRow out{op, {}};
    for (const RawEntry& r : raw) {
      if (out.cells.empty() || out.cells.back().dtype != r.dtype)
        out.cells.push_back({r.dtype, {}});
      auto& entries = out.cells.back().entries;
      if (!entries.empty() && entries.back().test == r.test) {
        entries.back().facet_mask |= remap_mask(r.mask);  // another run or dtype combination
      } else {
        entries.push_back({r.test, remap_mask(r.mask)});
      }
    }
    std::vector<RawEntry>().swap(raw);
    m.rows.push_back(std::move(out));
  }
  return m;
}

}  // namespace testmap::report
