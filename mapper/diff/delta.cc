#include "mapper/diff/delta.h"

#include <algorithm>
#include <unordered_map>

#include "core/node_id.h"

namespace testmap::diff {
namespace {

// A generic test on one side: its tests' indices, sorted by node id.
struct Group {
  std::string_view generic_id;
  std::vector<uint32_t> tests;
};

std::vector<Group> GroupByGeneric(const Side& side) {
  std::vector<uint32_t> order(side.tests.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto& t = side.tests;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    int c = t[a].generic_id.compare(t[b].generic_id);
    return c != 0 ? c < 0 : t[a].nodeid < t[b].nodeid;
  });
  std::vector<Group> groups;
  for (uint32_t i : order) {
    if (groups.empty() || groups.back().generic_id != t[i].generic_id)
      groups.push_back({t[i].generic_id, {}});
    // The same node id twice (a scan file given twice): once.
    if (!groups.back().tests.empty() && t[groups.back().tests.back()].nodeid == t[i].nodeid)
      continue;
    groups.back().tests.push_back(i);
  }
  return groups;
}

uint32_t SourceChanges(const SideTest& a, const SideTest& b) {
  if (!a.body || !b.body) return a.source_hash != b.source_hash ? uint32_t{kBody} : 0u;
  uint32_t c = 0;
  if (a.body != b.body) c |= kBody;
  if (a.decorators != b.decorators) c |= kDecorators;
  if (a.setup != b.setup) c |= kSetup;
  return c;
}

uint32_t EntryChanges(const SideTest& a, const SideTest& b) {
  return (a.entry != b.entry ? uint32_t{kEntry} : 0u) |
         (a.dtypes_hash != b.dtypes_hash ? uint32_t{kDtypes} : 0u);
}

// What tells a test's instantiations apart under a renamed generic test:
// the node id with the generic class and method prefixes taken off
// (`CPU::_cpu_float32`).
std::string InstanceKey(const SideTest& t, const core::NodeId& generic) {
  core::NodeId id = core::NodeId::Parse(t.nodeid);
  auto tail = [](const std::string& s, const std::string& prefix) {
    return s.compare(0, prefix.size(), prefix) == 0 ? s.substr(prefix.size()) : s;
  };
  return tail(id.cls, generic.cls) + "::" + tail(id.name, generic.name);
}

void AllIds(const Side& side, const Group& g, std::vector<std::string>* out) {
  for (uint32_t i : g.tests) out->push_back(side.tests[i].nodeid);
}

void CompareSame(const Side& os, const Group& og, const Side& ns, const Group& ng,
                 GenericDelta& d) {
  d.changes = SourceChanges(os.tests[og.tests[0]], ns.tests[ng.tests[0]]);
  size_t i = 0, j = 0;
  while (i < og.tests.size() || j < ng.tests.size()) {
    const SideTest* a = i < og.tests.size() ? &os.tests[og.tests[i]] : nullptr;
    const SideTest* b = j < ng.tests.size() ? &ns.tests[ng.tests[j]] : nullptr;
    int c = !a ? 1 : !b ? -1 : a->nodeid.compare(b->nodeid);
    if (c < 0) {
      d.ids_removed.push_back(a->nodeid);
      ++i;
    } else if (c > 0) {
      d.ids_added.push_back(b->nodeid);
      ++j;
    } else {
      uint32_t e = EntryChanges(*a, *b);
      if (e) d.ids_changed.push_back(b->nodeid);
      d.changes |= e;
      ++i;
      ++j;
    }
  }
  if (!d.ids_added.empty() || !d.ids_removed.empty()) d.changes |= kParams;
}

void CompareRenamed(const Side& os, const Group& og, const Side& ns, const Group& ng,
                    GenericDelta& d) {
  d.changes = SourceChanges(os.tests[og.tests[0]], ns.tests[ng.tests[0]]) & ~kBody;
  core::NodeId old_generic = core::NodeId::Parse(og.generic_id);
  core::NodeId new_generic = core::NodeId::Parse(ng.generic_id);
  std::unordered_map<std::string, const SideTest*> old_keys;
  for (uint32_t i : og.tests) old_keys.emplace(InstanceKey(os.tests[i], old_generic), &os.tests[i]);
  size_t matched = 0;
  for (uint32_t j : ng.tests) {
    auto it = old_keys.find(InstanceKey(ns.tests[j], new_generic));
    if (it == old_keys.end()) continue;
    ++matched;
    d.changes |= EntryChanges(*it->second, ns.tests[j]);
  }
  if (matched != og.tests.size() || matched != ng.tests.size()) d.changes |= kParams;
  AllIds(ns, ng, &d.ids_added);
  AllIds(os, og, &d.ids_removed);
}

// The body identity a rename keeps; 0 when the records have none.
uint64_t BodyKey(const SideTest& t) { return t.body; }

// The file part of a generic id, as node ids spell it.
std::string FileOf(std::string_view generic_id) { return core::NodeId::Parse(generic_id).path; }

}  // namespace

std::vector<std::string> ChangeNames(uint32_t changes) {
  static const char* const kNames[] = {"body", "decorators", "setup", "params", "entry", "dtypes"};
  std::vector<std::string> out;
  for (int b = 0; b < 6; ++b)
    if (changes & (1u << b)) out.push_back(kNames[b]);
  return out;
}

const char* StatusName(Status s) {
  switch (s) {
    case Status::kAdded:
      return "added";
    case Status::kRemoved:
      return "removed";
    case Status::kRenamed:
      return "renamed";
    case Status::kChanged:
      return "changed";
    case Status::kUnchanged:
      break;
  }
  return "unchanged";
}

Delta ComputeDelta(const Side& os, const Side& ns) {
  std::vector<Group> og = GroupByGeneric(os), ng = GroupByGeneric(ns);
  Delta delta;
  std::vector<const Group*> only_old, only_new;
  size_t i = 0, j = 0;
  while (i < og.size() || j < ng.size()) {
    int c = i == og.size() ? 1 : j == ng.size() ? -1 : og[i].generic_id.compare(ng[j].generic_id);
    if (c < 0) {
      only_old.push_back(&og[i++]);
    } else if (c > 0) {
      only_new.push_back(&ng[j++]);
    } else {
      GenericDelta d;
      CompareSame(os, og[i], ns, ng[j], d);
      d.old_ids = og[i].tests.size();
      d.new_ids = ng[j].tests.size();
      if (d.changes) {
        // A changed source invalidates every id's trace, unchanged ids too.
        if (d.changes & (kBody | kDecorators | kSetup)) AllIds(ns, ng[j], &d.retrace);
        const SideTest& first = ns.tests[ng[j].tests[0]];
        d.status = Status::kChanged;
        d.generic_id = first.generic_id;
        d.file = FileOf(first.generic_id);
        d.line = first.line;
        delta.generics.push_back(std::move(d));
      } else {
        ++delta.counts.unchanged;
      }
      ++i;
      ++j;
    }
  }

  // Renames: a test only on the new side whose body an old-only test had,
  // preferring one of the same class, then of the same file.
  std::unordered_multimap<uint64_t, const Group*> by_body;
  for (const Group* g : only_old) {
    uint64_t key = BodyKey(os.tests[g->tests[0]]);
    if (key) by_body.emplace(key, g);
  }
  std::unordered_map<const Group*, bool> paired;
  for (const Group* g : only_new) {
    const SideTest& first = ns.tests[g->tests[0]];
    GenericDelta d;
    d.generic_id = first.generic_id;
    d.file = FileOf(first.generic_id);
    d.line = first.line;
    d.new_ids = g->tests.size();
    const Group* best = nullptr;
    int best_score = -1;
    auto [lo, hi] = by_body.equal_range(BodyKey(first));
    core::NodeId mine = core::NodeId::Parse(first.generic_id);
    for (auto it = lo; BodyKey(first) && it != hi; ++it) {
      if (paired[it->second]) continue;
      const SideTest& o = os.tests[it->second->tests[0]];
      if (o.kind != first.kind) continue;
      core::NodeId theirs = core::NodeId::Parse(o.generic_id);
      int score = (theirs.path == mine.path) * 2 + (theirs.cls == mine.cls);
      if (score > best_score) best = it->second, best_score = score;
    }
    if (best) {
      paired[best] = true;
      d.status = Status::kRenamed;
      d.renamed_from = std::string(best->generic_id);
      d.old_ids = best->tests.size();
      CompareRenamed(os, *best, ns, *g, d);
    } else {
      d.status = Status::kAdded;
      AllIds(ns, *g, &d.ids_added);
    }
    delta.generics.push_back(std::move(d));
  }
  for (const Group* g : only_old) {
    if (paired[g]) continue;
    const SideTest& first = os.tests[g->tests[0]];
    GenericDelta d;
    d.status = Status::kRemoved;
    d.generic_id = first.generic_id;
    d.file = FileOf(first.generic_id);
    d.line = first.line;
    d.old_ids = g->tests.size();
    AllIds(os, *g, &d.ids_removed);
    delta.generics.push_back(std::move(d));
  }

  for (GenericDelta& d : delta.generics) {
    if (d.status == Status::kAdded || d.status == Status::kRenamed) {
      d.retrace = d.ids_added;
    } else if (d.status == Status::kChanged && d.retrace.empty()) {
      std::merge(d.ids_added.begin(), d.ids_added.end(), d.ids_changed.begin(), d.ids_changed.end(),
                 std::back_inserter(d.retrace));
    }
    DeltaCounts& c = delta.counts;
    c.added += d.status == Status::kAdded;
    c.removed += d.status == Status::kRemoved;
    c.renamed += d.status == Status::kRenamed;
    c.changed += d.status == Status::kChanged;
    c.ids_added += d.ids_added.size();
    c.ids_removed += d.ids_removed.size();
    c.ids_changed += d.ids_changed.size();
    c.retrace += d.retrace.size();
  }
  std::sort(
      delta.generics.begin(), delta.generics.end(),
      [](const GenericDelta& a, const GenericDelta& b) { return a.generic_id < b.generic_id; });
  delta.counts.old_ids = os.tests.size();
  delta.counts.new_ids = ns.tests.size();
  return delta;
}

}  // namespace testmap::diff
