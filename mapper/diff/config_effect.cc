#include "mapper/diff/config_effect.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "core/node_id.h"
#include "mapper/config/config_rules.h"
#include "mapper/diff/unified_diff.h"

namespace testmap::diff {
namespace {

// file -> generic method -> generic ids defining it there.
using MethodsByFile = std::map<std::string, std::map<std::string, std::set<std::string>>>;

MethodsByFile Methods(const Side& side) {
  MethodsByFile out;
  std::unordered_set<std::string_view> seen;
  for (const SideTest& t : side.tests) {
    if (!seen.insert(t.generic_id).second) continue;
    core::NodeId g = core::NodeId::Parse(t.generic_id);
    out[g.path][g.name].insert(t.generic_id);
  }
  return out;
}

std::vector<std::string> SplitDtypes(const std::string& joined) {
  std::vector<std::string> out;
  size_t b = 0;
  while (b < joined.size()) {
    size_t e = joined.find(',', b);
    if (e == std::string::npos) e = joined.size();
    out.push_back(joined.substr(b, e - b));
    b = e + 1;
  }
  return out;
}

// The generic ids a name matches in the files a file entry governs.
std::vector<std::string> Matches(const config::ConfigRules& rules, const config::FileEntry& fe,
                                 const config::TestName& name, const MethodsByFile& methods) {
  std::vector<std::string> out;
  for (const auto& [file, by_method] : methods) {
    if (!rules.PathMatches(fe.path, file)) continue;
    if (!name.pattern) {
      auto it = by_method.find(name.method);
      if (it != by_method.end()) out.insert(out.end(), it->second.begin(), it->second.end());
      continue;
    }
    for (const auto& [method, ids] : by_method)
      if (rules.NameMatches(name, method)) out.insert(out.end(), ids.begin(), ids.end());
  }
  return out;
}

// `file::Class::method` -> `Class::method`, the form config names take.
std::string ConfigName(const std::string& generic_id) {
  size_t sep = generic_id.find("::");
  return sep == std::string::npos ? generic_id : generic_id.substr(sep + 2);
}

size_t Indent(const std::string& line) {
  size_t i = line.find_first_not_of(' ');
  return i == std::string::npos ? line.size() : i;
}

bool Blank(const std::string& line) {
  size_t i = line.find_first_not_of(' ');
  return i == std::string::npos;
}

// Edits of the config's lines, made at the marks the reader recorded.
class Patch {
 public:
  explicit Patch(const std::string& text) : lines_(SplitLines(text)) {
    edited_.assign(lines_.begin(), lines_.end());
  }

  // Rewrites the name at `mark` (quoted or not) to `to`.
  bool Rename(const config::TestName& name, const std::string& to) {
    std::string* line = Line(name.mark);
    if (!line) return false;
    size_t at = name.mark.column - 1;
    if (at < line->size() && (line->at(at) == '"' || line->at(at) == '\'')) ++at;
    if (line->compare(at, name.text.size(), name.text) != 0) return false;
    line->replace(at, name.text.size(), to);
    return true;
  }

  // Deletes the name at `mark`: its line in a block list, else its item
  // (and a comma) in a flow list.
  bool Remove(const config::TestName& name) {
    std::string* line = Line(name.mark);
    if (!line) return false;
    size_t at = name.mark.column - 1;
    size_t dash = line->find_first_not_of(' ');
    if (dash != std::string::npos && line->compare(dash, 2, "- ") == 0 &&
        line->find_first_not_of(' ', dash + 1) == at) {
      edited_[name.mark.line - 1].reset();
      return true;
    }
    size_t len = name.text.size();
    if (at < line->size() && (line->at(at) == '"' || line->at(at) == '\'')) len += 2;
    if (at + len > line->size()) return false;
    size_t b = at, e = at + len;
    size_t next = line->find_first_not_of(' ', e);
    if (next != std::string::npos && line->at(next) == ',') {
      e = line->find_first_not_of(' ', next + 1);
      if (e == std::string::npos) e = line->size();
    } else {
      size_t prev = line->find_last_not_of(' ', b ? b - 1 : 0);
      if (b && prev != std::string::npos && line->at(prev) == ',') b = prev;
    }
    line->erase(b, e - b);
    return true;
  }

  // Deletes a whole test entry: from its dash line to the next line as
  // little indented (the next entry, a comment above it, or the next key),
  // with the comment lines just above it.
  bool RemoveEntry(const config::TestEntry& entry) {
    size_t start = entry.mark.line ? entry.mark.line - 1 : lines_.size();
    if (start >= lines_.size()) return false;
    size_t dash = Indent(lines_[start]);
    if (dash >= lines_[start].size() || lines_[start][dash] != '-') return false;
    size_t end = start + 1;
    while (end < lines_.size() && (Blank(lines_[end]) || Indent(lines_[end]) > dash)) ++end;
    // The comment lines right above it are about it.
    while (start > 0 && Indent(lines_[start - 1]) == dash &&
           lines_[start - 1].compare(dash, 1, "#") == 0)
      --start;
    for (size_t k = start; k < end; ++k) edited_[k].reset();
    return true;
  }

  std::string Diff(const std::string& path) const { return UnifiedDiff(path, lines_, edited_); }

 private:
  std::string* Line(const config::Mark& mark) {
    if (mark.line < 1 || static_cast<size_t>(mark.line) > lines_.size()) return nullptr;
    auto& e = edited_[mark.line - 1];
    return e ? &*e : nullptr;
  }
  std::vector<std::string> lines_;
  std::vector<std::optional<std::string>> edited_;
};

}  // namespace

ConfigEffect ComputeConfigEffect(const config::Config& config, const std::string& text,
                                 const Side& old_side, const Side& new_side, const Delta& delta,
                                 const std::string& root_token) {
  ConfigEffect effect;
  effect.config_path = config.path;
  config::ConfigRules rules(config, root_token);
  MethodsByFile old_methods = Methods(old_side), new_methods = Methods(new_side);
  std::unordered_map<std::string, const GenericDelta*> by_new, renamed_from;
  for (const GenericDelta& d : delta.generics) {
    if (d.status != Status::kRemoved) by_new[d.generic_id] = &d;
    if (d.status == Status::kRenamed) renamed_from[d.renamed_from] = &d;
  }
  Patch patch(text);
  bool edited = false;
  std::set<std::string> renamed_into_config;  // new generic ids a rename patch lists
  for (const config::FileEntry& fe : config.files) {
    for (const config::TestEntry& te : fe.tests) {
      size_t renamed = 0;
      std::vector<const config::TestName*> to_remove;
      for (const config::TestName& name : te.names) {
        std::vector<std::string> now = Matches(rules, fe, name, new_methods);
        for (const std::string& g : now) {
          auto it = by_new.find(g);
          if (it == by_new.end() || it->second->status != Status::kChanged) continue;
          const GenericDelta& d = *it->second;
          effect.reevaluate.push_back({name.text, name.mark, config::ModeName(te.EffectiveMode()),
                                       g, ChangeNames(d.changes), d.ids_added.size(),
                                       d.ids_removed.size(), d.ids_changed.size()});
        }
        if (!now.empty()) continue;
        std::vector<std::string> before = Matches(rules, fe, name, old_methods);
        if (before.empty()) continue;  // named nothing before either: config check's business
        StaleName s{name.text, name.mark, fe.path, before, "", name.pattern};
        if (!name.pattern && before.size() == 1) {
          auto it = renamed_from.find(before.front());
          if (it != renamed_from.end()) s.renamed_to = ConfigName(it->second->generic_id);
        }
        if (!name.pattern) {
          if (!s.renamed_to.empty() && patch.Rename(name, s.renamed_to)) {
            ++renamed;
            edited = true;
            renamed_into_config.insert(renamed_from.at(before.front())->generic_id);
          } else if (s.renamed_to.empty()) {
            to_remove.push_back(&name);
          }
        }
        effect.stale.push_back(std::move(s));
      }
      // A name of a removed test goes; its entry too when it named nothing else.
      if (!to_remove.empty() && to_remove.size() == te.names.size() && renamed == 0) {
        edited |= patch.RemoveEntry(te);
      } else {
        for (const config::TestName* name : to_remove) edited |= patch.Remove(*name);
      }
    }
  }
  std::unordered_map<std::string_view, const SideTest*> first_of;
  for (const SideTest& t : new_side.tests) first_of.emplace(t.generic_id, &t);
  for (const GenericDelta& d : delta.generics) {
    if (d.status != Status::kAdded && d.status != Status::kRenamed) continue;
    if (renamed_into_config.count(d.generic_id)) continue;
    auto found = first_of.find(d.generic_id);
    if (found == first_of.end()) continue;
    const SideTest* first = found->second;
    core::NodeId g = core::NodeId::Parse(first->generic_id);
    config::Decision decision =
        rules.Decide({g.path, g.name, SplitDtypes(first->dtypes), first->op, first->module});
    if (decision.governed && !decision.entry)
      effect.unlisted.push_back(
          {d.generic_id, config::ModeName(decision.mode), decision.decided_by});
  }
  if (edited) effect.patch = patch.Diff(config.path);
  return effect;
}

}  // namespace testmap::diff
