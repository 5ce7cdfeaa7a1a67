#include "mapper/config/config_rules.h"

#include <algorithm>

#include "core/node_id.h"

namespace testmap::config {
namespace {

std::string At(const Config& config, const Mark& mark) {
  return config.path + ":" + std::to_string(mark.line);
}

bool Contains(const std::vector<NamedItem>& items, const std::string& name) {
  return std::any_of(items.begin(), items.end(),
                     [&](const NamedItem& i) { return i.name == name; });
}

const NamedItem* Find(const std::optional<std::vector<NamedItem>>& items, const std::string& name) {
  if (!items) return nullptr;
  for (const auto& i : *items)
    if (i.name == name) return &i;
  return nullptr;
}

// ModuleInfo names are `nn.Linear`; configs write `torch.nn.Linear` (the
// framework looks up both).
bool SameModule(const std::string& config_name, const std::string& module) {
  return config_name == module || config_name == "torch." + module;
}

const NamedItem* FindModule(const std::vector<NamedItem>& items, const std::string& module) {
  for (const auto& i : items)
    if (SameModule(i.name, module)) return &i;
  return nullptr;
}

bool GlobAt(const std::string& p, size_t pi, const std::string& t, size_t ti) {
  while (pi < p.size()) {
    char c = p[pi];
    if (c == '*') {
      bool cross = pi + 1 < p.size() && p[pi + 1] == '*';
      size_t next = pi + (cross ? 2 : 1);
      if (cross && next < p.size() && p[next] == '/') {
        // `**/` also matches no directory at all.
        if (GlobAt(p, next + 1, t, ti)) return true;
      }
      for (size_t k = ti; k <= t.size(); ++k) {
        if (GlobAt(p, next, t, k)) return true;
        if (k < t.size() && !cross && t[k] == '/') break;
      }
      return false;
    }
    if (ti >= t.size()) return false;
    if (c == '?') {
      if (t[ti] == '/') return false;
    } else if (c == '[') {
      size_t close = p.find(']', pi + 1);
      if (close == std::string::npos) {
        if (t[ti] != c) return false;
      } else {
        bool negate = p[pi + 1] == '!';
        bool hit = false;
        for (size_t k = pi + 1 + negate; k < close; ++k) {
          if (k + 2 < close && p[k + 1] == '-') {
            hit = hit || (t[ti] >= p[k] && t[ti] <= p[k + 2]);
            k += 2;
          } else {
            hit = hit || t[ti] == p[k];
          }
        }
        if (hit == negate) return false;
        pi = close;
      }
    } else if (c != t[ti]) {
      return false;
    }
    ++pi;
    ++ti;
  }
  return ti == t.size();
}

}  // namespace

bool GlobMatch(const std::string& pattern, const std::string& text) {
  return GlobAt(pattern, 0, text, 0);
}

std::string DtypeBlock(const DtypeRule& rule, const std::vector<std::string>& dtypes,
                       const std::string& opinfo) {
  for (const auto& d : dtypes) {
    if (rule.exclude.count(d)) return "dtype " + d + " is excluded by edits.dtypes.exclude";
    if (rule.include.count(d)) continue;
    if (rule.ceiling && !rule.ceiling->count(d))
      return "dtype " + d + " is not in " + rule.ceiling_source;
    if (!opinfo.empty()) {
      auto it = rule.opinfo_dtypes.find(opinfo);
      if (it != rule.opinfo_dtypes.end() && !it->second.count(d))
        return "dtype " + d + " is not in the dtypes of supported op " + opinfo;
    }
  }
  return "";
}

ConfigRules::ConfigRules(const Config& config, std::string root_token)
    : config_(config), root_token_(std::move(root_token)) {
  for (const auto& file : config_.files) {
    FileIndex index;
    for (const auto& entry : file.tests) {
      for (const auto& name : entry.names) {
        if (name.pattern) {
          index.patterns.emplace_back(&entry, &name);
          std::optional<std::regex> re;
          try {
            re.emplace(name.method, std::regex::ECMAScript);
          } catch (const std::regex_error&) {
            // Not a regex (`*_cpu`): matched as a glob instead.
          }
          regexes_[&name] = std::move(re);
        } else {
          index.exact[name.method] = {&entry, &name};  // the last wins
        }
      }
    }
    files_.push_back(std::move(index));
  }
  if (!config_.global.supported_dtypes.empty()) {
    global_rule_.ceiling.emplace();
    for (const auto& d : config_.global.supported_dtypes) global_rule_.ceiling->insert(d.name);
  }
  if (config_.global.supported_ops) {
    for (const auto& op : *config_.global.supported_ops) {
      if (op.dtypes.empty()) continue;
      auto& set = global_rule_.opinfo_dtypes[op.name];
      for (const auto& d : op.dtypes) set.insert(d.name);
    }
  }
}

bool ConfigRules::PathMatches(const std::string& config_path, const std::string& file) const {
  std::string rest;
  if (!root_token_.empty() && config_path.starts_with(root_token_)) {
    rest = config_path.substr(root_token_.size());
    if (!rest.empty() && rest[0] != '/') return false;  // `${TORCH_ROOT}x/...`
    rest = rest.empty() ? rest : rest.substr(1);
    // Either side may or may not name PyTorch's test/ folder (ids from the
    // repo root or from test/): core's one file identity joins them.
    return GlobMatch(rest, file) ||
           GlobMatch(core::TestFileIdentity(rest), core::TestFileIdentity(file));
  }
  if (config_path.starts_with("${")) return false;  // another root (${TORCH_DEVICE_ROOT})
  // An absolute or relative path: the node id's file at its end.
  return GlobMatch(config_path, file) || GlobMatch("*/" + file, config_path) ||
         GlobMatch(config_path, "*/" + file);
}

const FileEntry* ConfigRules::FileFor(const std::string& file) const {
  for (const auto& f : config_.files)
    if (PathMatches(f.path, file)) return &f;
  return nullptr;
}

bool ConfigRules::NameMatches(const TestName& name, const std::string& method) const {
  if (!name.pattern) return name.method == method;
  auto it = regexes_.find(&name);
  if (it != regexes_.end() && it->second)
    return std::regex_search(method, *it->second, std::regex_constants::match_continuous);
  return GlobMatch(name.method, method);
}

const TestEntry* ConfigRules::EntryFor(const FileEntry& file, const std::string& method,
                                       const TestName** matched) const {
  const FileIndex& index = files_[&file - config_.files.data()];
  if (auto it = index.exact.find(method); it != index.exact.end()) {
    if (matched) *matched = it->second.second;
    return it->second.first;
  }
  const TestEntry* found = nullptr;
  for (const auto& [entry, name] : index.patterns) {
    if (!NameMatches(*name, method)) continue;
    found = entry;
    if (matched) *matched = name;
  }
  return found;
}

DtypeRule ConfigRules::DtypeRuleFor(const TestEntry* entry) const {
  DtypeRule rule = global_rule_;
  if (entry) {
    for (const auto& d : entry->edits.dtypes.include) rule.include.insert(d.name);
    for (const auto& d : entry->edits.dtypes.exclude) rule.exclude.insert(d.name);
  }
  return rule;
}

std::string ConfigRules::SkipRule(const TestEntry* entry, const TestFacts& test) const {
  if (std::string why = DtypeBlock(DtypeRuleFor(entry), test.dtypes, test.opinfo); !why.empty())
    return why;
  const Global& global = config_.global;
  if (!test.opinfo.empty()) {
    if (entry && Contains(entry->edits.ops.exclude, test.opinfo))
      return "OpInfo " + test.opinfo + " is excluded by edits.ops.exclude";
    bool included = entry && Contains(entry->edits.ops.include, test.opinfo);
    if (global.supported_ops && !included && !Find(global.supported_ops, test.opinfo))
      return "OpInfo " + test.opinfo + " is not in global.supported_ops";
  }
  if (!test.module.empty()) {
    if (entry && FindModule(entry->edits.modules.exclude, test.module))
      return "module " + test.module + " is excluded by edits.modules.exclude";
    bool included = entry && FindModule(entry->edits.modules.include, test.module);
    if (global.supported_modules && !included &&
        !FindModule(*global.supported_modules, test.module))
      return "module " + test.module + " is not in global.supported_modules";
  }
  return "";
}

Decision ConfigRules::Decide(const TestFacts& test) const {
  Decision d;
  d.file = FileFor(test.file);
  if (!d.file) return d;
  d.governed = true;
  d.entry = EntryFor(*d.file, test.generic_method, &d.name);
  if (d.entry) {
    d.mode = d.entry->EffectiveMode();
    d.decided_by = d.name->text + " at " + At(config_, d.name->mark);
  } else if (d.file->unlisted_test_mode) {
    d.mode = *d.file->unlisted_test_mode;
    d.decided_by = "unlisted_test_mode at " + At(config_, d.file->unlisted_mark);
  } else {
    d.mode = kUnlistedDefaultMode;
    d.decided_by = std::string("default unlisted_test_mode (") + ModeName(kUnlistedDefaultMode) +
                   ") of " + d.file->path;
  }
  if (d.mode == Mode::kSkip) return d;
  if (std::string why = SkipRule(d.entry, test); !why.empty()) {
    d.mode = Mode::kSkip;
    d.rule = std::move(why);
    return d;
  }
  const Global& global = config_.global;
  if (d.mode == Mode::kMandatorySuccess) {
    auto flip = [&](const std::string& why) {
      d.mode = Mode::kXfail;
      d.rule = why;
    };
    if (const NamedItem* op = Find(global.supported_ops, test.opinfo); op && op->force_xfail) {
      flip("supported op " + test.opinfo + " has force_xfail");
    } else if (const NamedItem* m = global.supported_modules
                                        ? FindModule(*global.supported_modules, test.module)
                                        : nullptr;
               m && !test.module.empty() && m->force_xfail) {
      flip("supported module " + m->name + " has force_xfail");
    } else {
      for (const auto& dt : test.dtypes) {
        for (const auto& s : global.supported_dtypes) {
          if (s.name == dt && s.force_xfail && d.rule.empty())
            flip("supported dtype " + dt + " has force_xfail");
        }
      }
    }
  }
  return d;
}

}  // namespace testmap::config
