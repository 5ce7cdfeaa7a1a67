// RenderDiff: table, json, jsonl and nodeids of a DiffResult.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "mapper/diff/diff.h"

namespace testmap::diff {

using nlohmann::ordered_json;

namespace {

ordered_json SideJson(const Side& s) {
  return {{"path", s.label},       {"kind", s.kind},       {"torch_version", s.torch_version},
          {"ids", s.tests.size()}, {"partial", s.partial}, {"seconds", s.seconds}};
}

}  // namespace

ordered_json GenericDeltaJson(const GenericDelta& d) {
  ordered_json j = {{"status", StatusName(d.status)}, {"generic_id", d.generic_id}};
  if (!d.renamed_from.empty()) j["renamed_from"] = d.renamed_from;
  j["file"] = d.file;
  j["line"] = d.line;
  j["changes"] = ChangeNames(d.changes);
  j["old_ids"] = d.old_ids;
  j["new_ids"] = d.new_ids;
  j["ids_added"] = d.ids_added;
  j["ids_removed"] = d.ids_removed;
  j["ids_changed"] = d.ids_changed;
  j["retrace"] = d.retrace.size();
  return j;
}

namespace {

ordered_json CountsJson(const DeltaCounts& c) {
  return {{"added", c.added},
          {"removed", c.removed},
          {"renamed", c.renamed},
          {"changed", c.changed},
          {"unchanged", c.unchanged},
          {"ids_added", c.ids_added},
          {"ids_removed", c.ids_removed},
          {"ids_changed", c.ids_changed},
          {"retrace", c.retrace},
          {"old_ids", c.old_ids},
          {"new_ids", c.new_ids}};
}

std::string Where(const config::Mark& m) {
  return std::to_string(m.line) + ":" + std::to_string(m.column);
}

ordered_json ConfigJson(const ConfigEffect& e) {
  ordered_json stale = ordered_json::array(), re = ordered_json::array(),
               un = ordered_json::array();
  for (const auto& s : e.stale)
    stale.push_back({{"name", s.name},
                     {"at", e.config_path + ":" + Where(s.mark)},
                     {"file", s.file_path},
                     {"pattern", s.pattern},
                     {"old_generics", s.old_generics},
                     {"renamed_to", s.renamed_to}});
  for (const auto& r : e.reevaluate)
    re.push_back({{"name", r.name},
                  {"at", e.config_path + ":" + Where(r.mark)},
                  {"mode", r.mode},
                  {"generic_id", r.generic_id},
                  {"changes", r.changes},
                  {"ids_added", r.ids_added},
                  {"ids_removed", r.ids_removed},
                  {"ids_changed", r.ids_changed}});
  for (const auto& u : e.unlisted)
    un.push_back({{"generic_id", u.generic_id}, {"mode", u.mode}, {"decided_by", u.decided_by}});
  return {{"path", e.config_path},
          {"stale", stale},
          {"reevaluate", re},
          {"unlisted", un},
          {"patch", e.patch}};
}

std::string Pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

void RenderTable(const DiffResult& r, std::ostream& out) {
  size_t width = 12;
  for (const auto& d : r.delta.generics) width = std::max(width, d.generic_id.size());
  width = std::min<size_t>(width, 100);
  out << Pad("STATUS", 10) << Pad("GENERIC TEST", width + 2) << Pad("CHANGES", 28)
      << "IDS +ADDED -REMOVED ~CHANGED\n";
  for (const auto& d : r.delta.generics) {
    std::string changes;
    for (const auto& c : ChangeNames(d.changes)) changes += (changes.empty() ? "" : ",") + c;
    out << Pad(StatusName(d.status), 10) << Pad(d.generic_id, width + 2)
        << Pad(changes.empty() ? "-" : changes, 28) << "+" << d.ids_added.size() << " -"
        << d.ids_removed.size() << " ~" << d.ids_changed.size() << "\n";
    if (!d.renamed_from.empty()) out << Pad("", 10) << "  (from " << d.renamed_from << ")\n";
  }
  const DeltaCounts& c = r.delta.counts;
  out << "\ngeneric tests: " << c.added << " added, " << c.removed << " removed, " << c.renamed
      << " renamed, " << c.changed << " changed, " << c.unchanged << " unchanged; ids: +"
      << c.ids_added << " -" << c.ids_removed << " ~" << c.ids_changed << " (" << c.old_ids
      << " -> " << c.new_ids << "); " << c.retrace << " to re-trace\n";
  if (!r.config) return;
  const ConfigEffect& e = *r.config;
  out << "\nconfig " << e.config_path << ": " << e.stale.size() << " stale name(s), "
      << e.reevaluate.size() << " to re-evaluate, " << e.unlisted.size()
      << " new test(s) unlisted\n";
  for (const auto& s : e.stale)
    out << "  stale       " << e.config_path << ":" << Where(s.mark) << " " << s.name
        << (s.renamed_to.empty() ? (s.pattern ? "  (pattern; matches nothing now)" : "  (removed)")
                                 : "  -> renamed " + s.renamed_to)
        << "\n";
  for (const auto& re : r.config->reevaluate) {
    std::string changes;
    for (const auto& ch : re.changes) changes += (changes.empty() ? "" : ",") + ch;
    out << "  reevaluate  " << e.config_path << ":" << Where(re.mark) << " " << re.name << " ("
        << re.mode << "): " << re.generic_id << " changed " << changes << "\n";
  }
  for (const auto& u : e.unlisted)
    out << "  unlisted    " << u.generic_id << " -> " << u.mode << " (" << u.decided_by << ")\n";
  if (!e.patch.empty()) out << "\nproposed patch:\n" << e.patch;
}

}  // namespace

ordered_json DiffJson(const DiffResult& r, bool with_generics) {
  ordered_json j = {{"format", "testmap-diff/1"},
                    {"old", SideJson(r.old_side)},
                    {"new", SideJson(r.new_side)},
                    {"counts", CountsJson(r.delta.counts)},
                    {"seconds", r.delta_seconds}};
  if (with_generics) {
    ordered_json generics = ordered_json::array();
    for (const auto& d : r.delta.generics) generics.push_back(GenericDeltaJson(d));
    j["generics"] = std::move(generics);
  }
  if (r.config) j["config"] = ConfigJson(*r.config);
  j["problems"] = r.old_side.problems;
  for (const auto& p : r.new_side.problems) j["problems"].push_back(p);
  return j;
}

void RenderDiff(const DiffResult& r, DiffFormat format, std::ostream& out) {
  switch (format) {
    case DiffFormat::kNodeids: {
      std::vector<const std::string*> ids;
      for (const auto& d : r.delta.generics)
        for (const auto& id : d.retrace) ids.push_back(&id);
      std::sort(ids.begin(), ids.end(), [](auto* a, auto* b) { return *a < *b; });
      std::string buf;
      for (size_t i = 0; i < ids.size(); ++i)
        if (i == 0 || *ids[i] != *ids[i - 1]) (buf += *ids[i]) += '\n';
      out << buf;
      break;
    }
    case DiffFormat::kJsonl:
      for (const auto& d : r.delta.generics) out << GenericDeltaJson(d).dump() << "\n";
      break;
    case DiffFormat::kJson:
      out << DiffJson(r).dump(1) << "\n";
      break;
    case DiffFormat::kTable:
      RenderTable(r, out);
      break;
  }
}

}  // namespace testmap::diff
