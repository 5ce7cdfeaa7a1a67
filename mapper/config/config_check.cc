#include "mapper/config/config_check.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/closest_names.h"
#include "indexer/index_test_facts.h"
#include "mapper/config/config_rules.h"

namespace testmap::config {
namespace {

using Severity = Diagnostic::Severity;

// What the index holds per test file: generic method -> generic classes.
using FileTests = std::map<std::string, std::map<std::string, std::set<std::string>>>;

FileTests IndexFiles(const indexer::IndexStore& store) {
  FileTests files;
  indexer::ForEachTestFacts(store, [&](indexer::TestFacts&& t) {
    auto& methods = files[t.file];
    if (!t.generic_method.empty()) methods[t.generic_method].insert(t.generic_class);
  });
  return files;
}

class Checker {
 public:
  Checker(const Config& config, const CheckRequest& request, CheckResult& out)
      : config_(config), request_(request), out_(out), rules_(config, request.root_token) {}

  void Run() {
    if (request_.index) IndexChecks(IndexFiles(*request_.index));
    DuplicateChecks();
    if (request_.torch) TorchChecks();
  }

 private:
  void Warn(const Mark& mark, const std::string& message) {
    out_.diagnostics.push_back({Severity::kWarning, config_.path, mark, message});
  }

  void IndexChecks(const FileTests& index) {
    for (const auto& file : config_.files) {
      std::vector<const std::map<std::string, std::set<std::string>>*> matched;
      std::vector<std::string> names;
      for (const auto& [path, methods] : index) {
        if (rules_.PathMatches(file.path, path)) {
          matched.push_back(&methods);
          names.push_back(path);
        }
      }
      if (matched.empty()) {
        Warn(file.mark, "path `" + file.path +
                            "` names no test file of the index (paths are read "
                            "under the root token `" +
                            request_.root_token + "`)");
        continue;
      }
      for (const auto& entry : file.tests) {
        for (const auto& name : entry.names) CheckName(name, matched, names);
      }
    }
  }

  void CheckName(const TestName& name,
                 const std::vector<const std::map<std::string, std::set<std::string>>*>& files,
                 const std::vector<std::string>& paths) {
    std::string where = paths.size() == 1 ? paths[0] : std::to_string(paths.size()) + " files";
    bool any = false;
    std::set<std::string> classes;
    std::vector<std::string> known;
    for (const auto* methods : files) {
      for (const auto& [method, cls] : *methods) {
        known.push_back(method);
        if (!rules_.NameMatches(name, method)) continue;
        any = true;
        classes.insert(cls.begin(), cls.end());
      }
    }
    if (!any) {
      if (name.pattern) {
        Warn(name.mark, "pattern `" + name.text + "` (matched against generic method names, " +
                            "as the framework does) matches no test in " + where);
      } else {
        auto close = core::ClosestNames(name.method, known, 3);
        std::string hint;
        for (const auto& c : close) hint += (hint.empty() ? " (did you mean " : ", ") + c;
        Warn(name.mark,
             "`" + name.text + "` matches no test in " + where + (hint.empty() ? "" : hint + "?)"));
      }
      return;
    }
    if (!name.pattern && !classes.count(name.cls)) {
      std::string list;
      for (const auto& c : classes) list += (list.empty() ? "" : ", ") + c;
      Warn(name.mark, "no class `" + name.cls + "` has `" + name.method + "` in " + where + " (" +
                          list +
                          " does); the framework ignores the class, so this entry "
                          "applies to it anyway");
    }
  }

  void DuplicateChecks() {
    for (const auto& file : config_.files) {
      // method -> (entry, name) where it was last listed
      std::map<std::string, std::pair<const TestEntry*, const TestName*>> seen;
      for (const auto& entry : file.tests) {
        for (const auto& name : entry.names) {
          if (name.pattern) continue;
          auto [it, fresh] = seen.emplace(name.method, std::make_pair(&entry, &name));
          // Several classes' names in one entry are one entry for the method.
          if (!fresh && it->second.first != &entry) {
            Warn(name.mark, "`" + name.method + "` is already listed at line " +
                                std::to_string(it->second.second->mark.line) +
                                "; the framework keeps the last entry for it");
            it->second = {&entry, &name};
          }
        }
      }
    }
  }

  void CheckOpInfo(const NamedItem& item, const std::vector<std::string>& known,
                   const std::set<std::string>& known_set) {
    if (known_set.count(item.name)) return;
    auto close = core::ClosestNames(item.name, known, 3);
    std::string hint;
    for (const auto& c : close) hint += (hint.empty() ? " (did you mean " : ", ") + c;
    Warn(item.mark, "`" + item.name + "` is not an OpInfo of torch " +
                        request_.torch->torch_version + (hint.empty() ? "" : hint + "?)"));
  }

  void CheckModule(const NamedItem& item, const std::set<std::string>& known,
                   const std::vector<std::string>& list) {
    std::string name = item.name.starts_with("torch.") ? item.name.substr(6) : item.name;
    if (known.count(name)) return;
    auto close = core::ClosestNames(name, list, 3);
    std::string hint;
    for (const auto& c : close) hint += (hint.empty() ? " (did you mean torch." : ", torch.") + c;
    Warn(item.mark, "`" + item.name + "` is not a ModuleInfo of torch " +
                        request_.torch->torch_version + (hint.empty() ? "" : hint + "?)"));
  }

  void TorchChecks() {
    const auto& torch = *request_.torch;
    std::set<std::string> opinfos, modules;
    for (const auto& op : torch.ops) opinfos.insert(op.name);
    for (const auto& m : torch.modules) modules.insert(m.name);
    std::vector<std::string> opinfo_list(opinfos.begin(), opinfos.end());
    std::vector<std::string> module_list(modules.begin(), modules.end());
    const Global& g = config_.global;
    std::set<std::string> dtypes;
    for (const auto& d : g.supported_dtypes) dtypes.insert(d.name);
    if (g.supported_ops) {
      for (const auto& op : *g.supported_ops) {
        CheckOpInfo(op, opinfo_list, opinfos);
        for (const auto& d : op.dtypes) {
          if (!dtypes.empty() && !dtypes.count(d.name))
            Warn(d.mark, "dtype " + d.name + " of supported op " + op.name +
                             " is not in global.supported_dtypes");
        }
      }
    }
    if (g.supported_modules)
      for (const auto& m : *g.supported_modules) CheckModule(m, modules, module_list);
    for (const auto& file : config_.files) {
      for (const auto& entry : file.tests) {
        for (const auto* list : {&entry.edits.ops.include, &entry.edits.ops.exclude})
          for (const auto& op : *list) CheckOpInfo(op, opinfo_list, opinfos);
        for (const auto* list : {&entry.edits.modules.include, &entry.edits.modules.exclude})
          for (const auto& m : *list) CheckModule(m, modules, module_list);
      }
    }
  }

  const Config& config_;
  const CheckRequest& request_;
  CheckResult& out_;
  ConfigRules rules_;
};

}  // namespace

bool CheckResult::HasErrors() const { return Count(Severity::kError) > 0; }

size_t CheckResult::Count(Severity s) const {
  return std::count_if(diagnostics.begin(), diagnostics.end(),
                       [&](const Diagnostic& d) { return d.severity == s; });
}

CheckResult CheckConfig(const std::string& path, const CheckRequest& request) {
  CheckResult out;
  out.path = path;
  ReadResult read = ReadConfig(path, request.read);
  out.diagnostics = std::move(read.diagnostics);
  // Semantic checks only on a config that read cleanly: its model is whole.
  if (!out.HasErrors()) Checker(read.config, request, out).Run();
  for (const auto& f : read.config.files) {
    ++out.files;
    out.entries += f.tests.size();
    for (const auto& e : f.tests) out.names += e.names.size();
  }
  std::stable_sort(out.diagnostics.begin(), out.diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     return std::make_pair(a.mark.line, a.mark.column) <
                            std::make_pair(b.mark.line, b.mark.column);
                   });
  return out;
}

nlohmann::json CheckJson(const CheckResult& r) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& d : r.diagnostics)
    list.push_back({{"severity", d.severity == Severity::kError ? "error" : "warning"},
                    {"file", d.path},
                    {"line", d.mark.line},
                    {"column", d.mark.column},
                    {"message", d.message}});
  return {{"config", r.path},
          {"files", r.files},
          {"entries", r.entries},
          {"names", r.names},
          {"errors", r.Count(Severity::kError)},
          {"warnings", r.Count(Severity::kWarning)},
          {"diagnostics", list}};
}

void RenderCheck(const CheckResult& r, const std::string& format, std::ostream& out) {
  if (format == "json") {
    out << CheckJson(r).dump(2) << "\n";
    return;
  }
  for (const auto& d : r.diagnostics) out << d.ToString() << "\n";
  out << r.path << ": " << r.files << " files, " << r.entries << " entries, " << r.names
      << " names; " << r.Count(Severity::kError) << " errors, " << r.Count(Severity::kWarning)
      << " warnings\n";
}

}  // namespace testmap::config
