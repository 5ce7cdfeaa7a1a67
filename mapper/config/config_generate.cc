#include "mapper/config/config_generate.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <functional>
#include <sstream>

#include "mapper/config/config_rules.h"

namespace testmap::config {
namespace {

using admit::Observed;
using admit::State;
using admit::TestAdmission;

// How many operators (or tests) a comment names before "and N more".
constexpr size_t kNamed = 4;

bool Failed(const std::string& outcome) { return outcome == "failed" || outcome == "error"; }
bool Passed(const std::string& outcome) {
  return outcome == "passed" || outcome == "xpassed" || outcome == "skipped";
}

std::string DtypesText(const std::set<std::vector<std::string>>& combos) {
  std::set<std::string> flat;
  for (const auto& c : combos) flat.insert(c.begin(), c.end());
  std::string s;
  for (const auto& d : flat) s += (s.empty() ? "" : ",") + d;
  return s;
}

// Why these tests are not admitted, in one line: the missing operators with
// the dtypes they were seen with, the dtype rules, the missing evidence.
std::string Reasons(const std::vector<const TestAdmission*>& tests) {
  std::map<std::string, std::set<std::vector<std::string>>> ops;
  std::set<std::string> rules, unknown;
  for (const auto* t : tests) {
    for (const auto& m : t->missing) {
      Observed seen = admit::ObservedOf(m);
      ops[m.op].insert(seen.dtypes.begin(), seen.dtypes.end());
    }
    if (!t->dtype_block.empty()) rules.insert(t->dtype_block);
    if (!t->unknown_reason.empty()) unknown.insert(t->unknown_reason);
  }
  std::vector<std::string> parts;
  if (!ops.empty()) {
    std::string s = "needs ";
    size_t n = 0;
    for (const auto& [op, combos] : ops) {
      if (n == kNamed) {
        s += " and " + std::to_string(ops.size() - kNamed) + " more operators";
        break;
      }
      std::string dtypes = DtypesText(combos);
      s += (n++ ? ", " : "") + op + (dtypes.empty() ? "" : " (" + dtypes + ")");
    }
    parts.push_back(s);
  }
  // "dtype int16 is not in X", "dtype int8 is not in X" -> "dtypes int16,int8 are not in X"
  std::map<std::string, std::set<std::string>> by_rule;
  for (const auto& r : rules) {
    size_t sp = r.find(' ', 6);
    if (r.rfind("dtype ", 0) == 0 && sp != std::string::npos && r.compare(sp, 4, " is ") == 0)
      by_rule[r.substr(sp + 4)].insert(r.substr(6, sp - 6));
    else
      parts.push_back(r);
  }
  for (const auto& [rule, dtypes] : by_rule) {
    std::string list;
    for (const auto& d : dtypes) list += (list.empty() ? "" : ",") + d;
    parts.push_back((dtypes.size() == 1 ? "dtype " + list + " is " : "dtypes " + list + " are ") +
                    rule);
  }
  for (const auto& u : unknown) parts.push_back(u);
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

TestFacts FactsOf(const TestAdmission& t) {
  return {t.file, t.generic_method, t.dtypes, t.opinfo, t.module};
}

// Modes come from the evidence: a supported config's global keeps its
// capabilities and precisions, not its force_xfail flags.
Global CarriedGlobal(const Global& g, bool& dropped) {
  Global out = g;
  auto clear = [&](std::vector<NamedItem>& items) {
    for (auto& i : items) {
      dropped = dropped || i.force_xfail;
      i.force_xfail = false;
      for (auto& d : i.dtypes) {
        dropped = dropped || d.force_xfail;
        d.force_xfail = false;
      }
    }
  };
  clear(out.supported_dtypes);
  if (out.supported_ops) clear(*out.supported_ops);
  if (out.supported_modules) clear(*out.supported_modules);
  return out;
}

class Planner {
 public:
  Planner(const admit::Admission& a, const GenerateRequest& r) : admission_(a), request_(r) {}

  GeneratedConfig Run();

 private:
  void PlanGeneric(GeneratedFile& file, const std::string& method,
                   const std::vector<const TestAdmission*>& tests);
  const TestEntry* SupportedEntry(const TestAdmission& t) const;

  const admit::Admission& admission_;
  const GenerateRequest& request_;
  GeneratedConfig out_;
  std::optional<Config> global_only_;  // the output's global, for the rules it implies
  std::optional<ConfigRules> global_rules_, supported_rules_;
};

const TestEntry* Planner::SupportedEntry(const TestAdmission& t) const {
  if (!supported_rules_) return nullptr;
  const FileEntry* f = supported_rules_->FileFor(t.file);
  return f ? supported_rules_->EntryFor(*f, t.generic_method) : nullptr;
}

void Planner::PlanGeneric(GeneratedFile& file, const std::string& method,
                          const std::vector<const TestAdmission*>& tests) {
  std::set<std::string> classes;
  for (const auto* t : tests) classes.insert(t->generic_class + "::" + method);
  std::vector<std::string> names(classes.begin(), classes.end());
  std::string name;
  for (const auto& n : names) name += (name.empty() ? "" : ", ") + n;
  std::vector<const TestAdmission*> admitted, rest;
  for (const auto* t : tests) (t->state == State::kAdmitted ? admitted : rest).push_back(t);
  const std::string& backend =
      admission_.caps.backend.empty() ? std::string("the backend") : admission_.caps.backend;
  if (admitted.empty()) {
    for (const auto* t : tests) out_.intended[t->nodeid] = Mode::kSkip;
    bool any_blocked = std::any_of(rest.begin(), rest.end(),
                                   [](const auto* t) { return t->state == State::kBlocked; });
    if (!any_blocked) {
      file.unlisted.push_back(name + ": " + Reasons(rest));
      return;
    }
    GeneratedEntry e;
    e.names = names;
    e.method = method;
    e.mode = Mode::kSkip;
    e.comment.push_back("blocked: " + Reasons(rest));
    file.entries.push_back(std::move(e));
    return;
  }
  GeneratedEntry e;
  e.names = names;
  e.method = method;
  const TestEntry* carried = SupportedEntry(*admitted.front());
  if (carried) e.include_dtypes = carried->edits.dtypes.include;
  // What the output's global section (with the entry's dtype includes)
  // already skips needs no edit.
  TestEntry so_far;
  so_far.edits.dtypes.include = e.include_dtypes;
  std::vector<const TestAdmission*> open;
  for (const auto* t : rest)
    if (global_rules_->SkipRule(&so_far, FactsOf(*t)).empty()) open.push_back(t);
  for (const auto* t : admitted) {
    if (!t->opinfo.empty() && global_rules_->SkipRule(&so_far, FactsOf(*t)).starts_with("OpInfo") &&
        std::none_of(e.include_ops.begin(), e.include_ops.end(),
                     [&](const NamedItem& i) { return i.name == t->opinfo; })) {
      NamedItem item;
      item.name = t->opinfo;
      item.description = "admitted: every operator its tests dispatch is runnable";
      e.include_ops.push_back(item);
    }
  }
  // Dtypes and OpInfos no admitted variant has can be excluded.
  std::set<std::string> admitted_dtypes, admitted_ops;
  for (const auto* t : admitted) {
    admitted_dtypes.insert(t->dtypes.begin(), t->dtypes.end());
    if (!t->opinfo.empty()) admitted_ops.insert(t->opinfo);
  }
  std::map<std::string, std::vector<const TestAdmission*>> by_dtype, by_op;
  for (const auto* t : open) {
    for (const auto& d : t->dtypes)
      if (!admitted_dtypes.count(d)) by_dtype[d].push_back(t);
    if (!t->opinfo.empty() && !admitted_ops.count(t->opinfo)) by_op[t->opinfo].push_back(t);
  }
  for (const auto& [d, ts] : by_dtype) {
    NamedItem item;
    item.name = d;
    item.description = Reasons(ts);
    e.exclude_dtypes.push_back(item);
  }
  for (const auto& [op, ts] : by_op) {
    NamedItem item;
    item.name = op;
    item.description = Reasons(ts);
    e.exclude_ops.push_back(item);
  }
  std::vector<const TestAdmission*> uncovered;
  for (const auto* t : open) {
    bool covered = (!t->opinfo.empty() && by_op.count(t->opinfo)) ||
                   std::any_of(t->dtypes.begin(), t->dtypes.end(),
                               [&](const std::string& d) { return by_dtype.count(d) > 0; });
    if (!covered) uncovered.push_back(t);
  }
  size_t failed = 0, passed = 0;
  std::vector<std::string> failures;
  for (const auto* t : admitted) {
    if (Failed(t->backend_outcome)) {
      ++failed;
      if (failures.size() < kNamed) failures.push_back(t->nodeid);
    } else if (Passed(t->backend_outcome)) {
      ++passed;
    }
  }
  std::string variants =
      admitted.size() == 1 ? "" : " (" + std::to_string(admitted.size()) + " variants)";
  if (!uncovered.empty()) {
    e.mode = Mode::kXfail;
    e.inexact = true;
    e.comment.push_back("admitted" + variants + ", but " + std::to_string(uncovered.size()) +
                        " variants that differ only by parameters a config cannot select are "
                        "not: " +
                        Reasons(uncovered));
  } else if (failed) {
    e.mode = Mode::kXfail;
    std::string list;
    for (const auto& f : failures) list += (list.empty() ? "" : ", ") + f;
    e.comment.push_back("admitted" + variants + ", but failed on " + backend + ": " + list +
                        (failed > failures.size() ? " and more" : ""));
  } else if (passed == admitted.size()) {
    e.mode = Mode::kMandatorySuccess;
    e.comment.push_back("admitted" + variants + ": every operator runnable; passed on " + backend);
  } else {
    e.mode = request_.unrun_mode;
    e.comment.push_back("admitted" + variants + ": every operator runnable; not run on " + backend +
                        " yet");
  }
  if (!e.exclude_dtypes.empty() || !e.exclude_ops.empty()) {
    std::string what;
    for (const auto& d : e.exclude_dtypes) what += (what.empty() ? "" : "/") + d.name;
    for (const auto& o : e.exclude_ops) what += (what.empty() ? "" : "/") + o.name;
    std::vector<const TestAdmission*> excluded;
    for (const auto* t : open)
      if (std::find(uncovered.begin(), uncovered.end(), t) == uncovered.end())
        excluded.push_back(t);
    e.comment.push_back(what + " variants excluded: " + Reasons(excluded));
  }
  for (const auto* t : admitted) out_.intended[t->nodeid] = e.mode;
  for (const auto* t : rest) {
    bool runs = std::find(uncovered.begin(), uncovered.end(), t) != uncovered.end();
    out_.intended[t->nodeid] = runs ? e.mode : Mode::kSkip;
    if (runs) out_.inexact.insert(t->nodeid);
  }
  file.entries.push_back(std::move(e));
}

GeneratedConfig Planner::Run() {
  bool dropped = false;
  if (request_.supported) {
    out_.global = CarriedGlobal(request_.supported->global, dropped);
    supported_rules_.emplace(*request_.supported, request_.root_token);
  } else if (admission_.caps.dtypes) {
    out_.global.present = true;
    for (const auto& d : *admission_.caps.dtypes) {
      NamedItem item;
      item.name = d;
      out_.global.supported_dtypes.push_back(item);
    }
  }
  global_only_.emplace();
  global_only_->global = out_.global;
  global_rules_.emplace(*global_only_, request_.root_token);

  const admit::Capabilities& caps = admission_.caps;
  out_.header.push_back("Generated by `testmap config generate` from the evidence in the index:");
  out_.header.push_back(
      "capabilities: " + caps.origin +
      (caps.backend.empty() ? "" : " (backend " + caps.backend + ", " + caps.dispatch_key + ")"));
  for (const auto& n : admission_.notes) out_.header.push_back(n);
  if (dropped)
    out_.header.push_back(
        "force_xfail of the supported config dropped: modes come from the "
        "backend's outcomes here");

  // file -> generic method -> its instantiations (of every class).
  std::map<std::string, std::map<std::string, std::vector<const TestAdmission*>>> groups;
  for (const auto& t : admission_.tests) {
    if (t.generic_id.empty()) {
      ++out_.untraced_generic;
      continue;
    }
    if (t.generic_class.empty()) {
      ++out_.classless;
      continue;
    }
    groups[t.file][t.generic_method].push_back(&t);
  }
  for (const auto& [file, generics] : groups) {
    GeneratedFile f;
    f.file = file;
    f.path = request_.root_token + "/" + file;
    for (const auto& [method, tests] : generics) PlanGeneric(f, method, tests);
    out_.files.push_back(std::move(f));
  }
  if (out_.untraced_generic)
    out_.header.push_back(std::to_string(out_.untraced_generic) +
                          " tests only traced, never scanned, have no generic name: not listed");
  if (out_.classless)
    out_.header.push_back(std::to_string(out_.classless) +
                          " module-level test functions have no class to name as Class::method: "
                          "not listed");
  return std::move(out_);
}

// yaml-cpp writes the values; this indents its block and puts comment
// lines above it.
std::string Indented(const std::string& text, int indent) {
  std::string pad(indent, ' '), out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) out += (line.empty() ? "" : pad) + line + "\n";
  return out;
}

std::string Comments(const std::vector<std::string>& lines, int indent) {
  std::string out;
  for (const auto& l : lines) out += std::string(indent, ' ') + "# " + l + "\n";
  return out;
}

void EmitItems(YAML::Emitter& y, const std::vector<NamedItem>& items, bool dtypes_key) {
  y << YAML::BeginSeq;
  for (const auto& i : items) {
    y << YAML::BeginMap << YAML::Key << "name" << YAML::Value << i.name;
    if (!i.description.empty()) y << YAML::Key << "description" << YAML::Value << i.description;
    if (i.precision) {
      y << YAML::Key << "precision" << YAML::Value << YAML::BeginMap;
      if (i.precision->atol) y << YAML::Key << "atol" << YAML::Value << *i.precision->atol;
      if (i.precision->rtol) y << YAML::Key << "rtol" << YAML::Value << *i.precision->rtol;
      y << YAML::EndMap;
    }
    if (i.force_xfail) y << YAML::Key << "force_xfail" << YAML::Value << true;
    if (dtypes_key && !i.dtypes.empty()) {
      y << YAML::Key << "dtypes" << YAML::Value;
      EmitItems(y, i.dtypes, false);
    }
    y << YAML::EndMap;
  }
  y << YAML::EndSeq;
}

void EmitIncludeExclude(YAML::Emitter& y, const char* key, const std::vector<NamedItem>& include,
                        const std::vector<NamedItem>& exclude) {
  if (include.empty() && exclude.empty()) return;
  y << YAML::Key << key << YAML::Value << YAML::BeginMap;
  if (!include.empty()) {
    y << YAML::Key << "include" << YAML::Value;
    EmitItems(y, include, false);
  }
  if (!exclude.empty()) {
    y << YAML::Key << "exclude" << YAML::Value;
    EmitItems(y, exclude, false);
  }
  y << YAML::EndMap;
}

std::string Yaml(const std::function<void(YAML::Emitter&)>& fn) {
  YAML::Emitter y;
  y.SetIndent(2);
  fn(y);
  return std::string(y.c_str()) + "\n";
}

}  // namespace

GeneratedConfig PlanConfig(const admit::Admission& admission, const GenerateRequest& request) {
  return Planner(admission, request).Run();
}

std::string EmitEntry(const GeneratedEntry& e, int indent) {
  std::string body = Yaml([&](YAML::Emitter& y) {
    y << YAML::BeginSeq << YAML::BeginMap;
    y << YAML::Key << "names" << YAML::Value << YAML::BeginSeq;
    for (const auto& n : e.names) y << n;
    y << YAML::EndSeq;
    y << YAML::Key << "mode" << YAML::Value << ModeName(e.mode);
    bool edits = !e.include_ops.empty() || !e.exclude_ops.empty() || !e.include_dtypes.empty() ||
                 !e.exclude_dtypes.empty();
    if (edits) {
      y << YAML::Key << "edits" << YAML::Value << YAML::BeginMap;
      EmitIncludeExclude(y, "ops", e.include_ops, e.exclude_ops);
      EmitIncludeExclude(y, "dtypes", e.include_dtypes, e.exclude_dtypes);
      y << YAML::EndMap;
    }
    y << YAML::EndMap << YAML::EndSeq;
  });
  return Comments(e.comment, indent) + Indented(body, indent);
}

std::string EmitFileEntry(const GeneratedFile& f, int indent) {
  std::string head = Yaml([&](YAML::Emitter& y) {
    y << YAML::BeginSeq << YAML::BeginMap;
    y << YAML::Key << "path" << YAML::Value << f.path;
    y << YAML::Key << "unlisted_test_mode" << YAML::Value << "skip";
    y << YAML::EndMap << YAML::EndSeq;
  });
  std::string out = Indented(head, indent);
  std::vector<std::string> unlisted;
  if (!f.unlisted.empty()) {
    unlisted.push_back("left to unlisted_test_mode (no evidence):");
    for (const auto& u : f.unlisted) unlisted.push_back("  " + u);
  }
  out += Comments(unlisted, indent + 2);
  if (f.entries.empty()) return out;
  out += std::string(indent + 2, ' ') + "tests:\n";
  for (const auto& e : f.entries) out += EmitEntry(e, indent + 4);
  return out;
}

std::string EmitConfig(const GeneratedConfig& c) {
  std::string out = Comments(c.header, 0);
  out += "test_suite_config:\n  files:\n";
  for (const auto& f : c.files) out += EmitFileEntry(f, 4);
  const Global& g = c.global;
  if (g.supported_dtypes.empty() && !g.supported_ops && !g.supported_modules && !g.seed) return out;
  std::string global = Yaml([&](YAML::Emitter& y) {
    y << YAML::BeginMap << YAML::Key << "global" << YAML::Value << YAML::BeginMap;
    if (!g.supported_dtypes.empty()) {
      y << YAML::Key << "supported_dtypes" << YAML::Value;
      EmitItems(y, g.supported_dtypes, false);
    }
    if (g.supported_ops) {
      y << YAML::Key << "supported_ops" << YAML::Value;
      EmitItems(y, *g.supported_ops, true);
    }
    if (g.supported_modules) {
      y << YAML::Key << "supported_modules" << YAML::Value;
      EmitItems(y, *g.supported_modules, true);
    }
    if (g.seed) {
      y << YAML::Key << "input_config" << YAML::Value << YAML::BeginMap << YAML::Key << "seed"
        << YAML::Value << *g.seed << YAML::EndMap;
    }
    y << YAML::EndMap << YAML::EndMap;
  });
  return out + Indented(global, 2);
}

}  // namespace testmap::config
