#include "mapper/config/config_reader.h"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <initializer_list>
#include <set>

#include "core/dtype_names.h"
#include "core/errors.h"
#include "core/read_file.h"

namespace testmap::config {
namespace {

// A config error: an InputError with the file and line (so that a front
// end reading e.line(), the MCP server's tool errors, gets the line), whose
// message names the column too, as Diagnostic::ToString does.
class ConfigError : public core::InputError {
 public:
  explicit ConfigError(const Diagnostic& d)
      : core::InputError(d.path, d.mark.line, d.message),
        what_(d.mark.line > 0 ? d.path + ":" + std::to_string(d.mark.line) + ":" +
                                    std::to_string(d.mark.column) + ": " + d.message
                              : core::InputError::what()) {}
  const char* what() const noexcept override { return what_.c_str(); }

 private:
  std::string what_;
};

// Walks the YAML tree, filling the model and collecting diagnostics; a
// wrong shape is reported once and the value skipped, so one run lists
// every problem.
class Reader {
 public:
  Reader(std::string path, const ReadOptions& options)
      : path_(std::move(path)), options_(options) {}

  void Read(const YAML::Node& root, Config& config);
  std::vector<Diagnostic> diagnostics;

 private:
  static Mark MarkOf(const YAML::Node& n) {
    YAML::Mark m = n.Mark();
    if (m.is_null()) return {};
    return {m.line + 1, m.column + 1, static_cast<size_t>(m.pos)};
  }
  void Error(const YAML::Node& n, const std::string& message) {
    diagnostics.push_back({Diagnostic::Severity::kError, path_, MarkOf(n), message});
  }
  void Warn(const YAML::Node& n, const std::string& message) {
    diagnostics.push_back({Diagnostic::Severity::kWarning, path_, MarkOf(n), message});
  }

  // Calls `fn(key, value)` for each entry of a map; reports duplicate keys,
  // and keys outside `known` (a warning, an error when strict).
  template <class Fn>
  bool ForEachKey(const YAML::Node& map, const std::string& where,
                  const std::vector<const char*>& known, Fn fn) {
    if (!map.IsMap()) {
      Error(map, where + " must be a mapping");
      return false;
    }
    std::set<std::string> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
      if (!it->first.IsScalar()) {
        Error(it->first, "a key of " + where + " must be a string");
        continue;
      }
      std::string key = it->first.Scalar();
      if (!seen.insert(key).second) {
        Error(it->first, "duplicate key `" + key + "` in " + where);
        continue;
      }
      bool is_known = false;
      for (const char* k : known) is_known = is_known || key == k;
      if (!is_known) {
        std::string message = "unknown key `" + key + "` in " + where;
        if (options_.strict)
          Error(it->first, message);
        else
          Warn(it->first, message + " (ignored)");
        continue;
      }
      fn(key, it->second, it->first);
    }
    return true;
  }

  bool String(const YAML::Node& n, const std::string& where, std::string& out) {
    if (!n.IsScalar()) {
      Error(n, where + " must be a string");
      return false;
    }
    out = n.Scalar();
    return true;
  }
  bool Bool(const YAML::Node& n, const std::string& where, bool& out) {
    std::string s;
    if (!String(n, where, s)) return false;
    if (s == "true" || s == "True" || s == "yes") {
      out = true;
    } else if (s == "false" || s == "False" || s == "no") {
      out = false;
    } else {
      Error(n, where + " must be true or false, not `" + s + "`");
      return false;
    }
    return true;
  }
  std::optional<double> Number(const YAML::Node& n, const std::string& where) {
    std::string s;
    if (!String(n, where, s)) return std::nullopt;
    try {
      size_t used = 0;
      double v = std::stod(s, &used);
      if (used == s.size()) return v;
    } catch (const std::exception&) {
    }
    Error(n, where + " must be a number, not `" + s + "`");
    return std::nullopt;
  }
  std::vector<std::string> Strings(const YAML::Node& n, const std::string& where) {
    std::vector<std::string> out;
    if (n.IsScalar()) {
      out.push_back(n.Scalar());
    } else if (n.IsSequence()) {
      for (const auto& item : n) {
        std::string s;
        if (String(item, "an item of " + where, s)) out.push_back(s);
      }
    } else if (!n.IsNull()) {
      Error(n, where + " must be a list of strings");
    }
    return out;
  }
  std::optional<Mode> ModeValue(const YAML::Node& n, const std::string& where) {
    std::string s;
    if (!String(n, where, s)) return std::nullopt;
    auto mode = ParseMode(s);
    if (!mode)
      Error(n, "unknown " + where + " `" + s +
                   "` (one of mandatory_success, xfail, xfail_strict, skip)");
    return mode;
  }
  void Tags(const YAML::Node& n, const std::string& where, std::vector<std::string>& out) {
    out = Strings(n, where);
    for (const auto& t : out) {
      bool ident = !t.empty() && !std::isdigit(static_cast<unsigned char>(t[0]));
      for (char c : t) ident = ident && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
      if (!ident) Warn(n, where + " `" + t + "` is not a Python identifier: pytest cannot mark it");
    }
  }

  enum class ItemKind { kDtype, kOp, kModule, kFunction };
  std::vector<NamedItem> Items(const YAML::Node& n, const std::string& where, ItemKind kind);
  void Precision(const YAML::Node& n, const std::string& where, NamedItem& item);
  void IncludeExcludeOf(const YAML::Node& n, const std::string& where, ItemKind kind,
                        IncludeExclude& out);
  void EditsOf(const YAML::Node& n, Edits& edits);
  void TestOf(const YAML::Node& n, TestEntry& entry);
  void FileOf(const YAML::Node& n, FileEntry& file);
  void GlobalOf(const YAML::Node& n, Global& global);
  TestName NameOf(const YAML::Node& n, const std::string& text);

  std::string path_;
  ReadOptions options_;
};

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

void Reader::Precision(const YAML::Node& n, const std::string& where, NamedItem& item) {
  config::Precision p;
  ForEachKey(n, where, {"atol", "rtol"},
             [&](const std::string& key, const YAML::Node& v, const YAML::Node&) {
               (key == "atol" ? p.atol : p.rtol) = Number(v, where + "." + key);
             });
  item.precision = p;
}

std::vector<NamedItem> Reader::Items(const YAML::Node& n, const std::string& where, ItemKind kind) {
  std::vector<NamedItem> out;
  if (n.IsNull()) return out;
  if (!n.IsSequence()) {
    Error(n, where + " must be a list of {name: ...} entries");
    return out;
  }
  for (const auto& entry : n) {
    NamedItem item;
    item.mark = MarkOf(entry);
    YAML::Node name_node = entry;
    if (entry.IsScalar()) {
      item.name = entry.Scalar();  // the framework accepts bare names too
    } else {
      // Arrays with static storage: an initializer_list chosen by a
      // conditional would point at temporaries.
      static const std::vector<const char*> kDtypeKeys = {"name", "description", "precision",
                                                          "force_xfail"};
      static const std::vector<const char*> kFunctionKeys = {"name", "description"};
      static const std::vector<const char*> kOpKeys = {
          "name", "description", "force_xfail", "dtypes", "tags", "sample_inputs_func"};
      const std::vector<const char*>& known = kind == ItemKind::kDtype      ? kDtypeKeys
                                              : kind == ItemKind::kFunction ? kFunctionKeys
                                                                            : kOpKeys;
      bool has_name = false;
      ForEachKey(entry, "an entry of " + where, known,
                 [&](const std::string& key, const YAML::Node& v, const YAML::Node&) {
                   if (key == "name") {
                     has_name = String(v, where + ".name", item.name);
                     name_node.reset(v);  // rebinds; `=` would assign into the document
                     item.mark = MarkOf(v);
                   } else if (key == "description") {
                     String(v, where + ".description", item.description);
                   } else if (key == "precision") {
                     Precision(v, where + ".precision", item);
                   } else if (key == "force_xfail") {
                     Bool(v, where + ".force_xfail", item.force_xfail);
                   } else if (key == "dtypes") {
                     item.dtypes = Items(v, where + ".dtypes", ItemKind::kDtype);
                   }
                 });
      if (!has_name) {
        if (entry.IsMap()) Error(entry, "an entry of " + where + " needs a `name`");
        continue;
      }
    }
    if (kind == ItemKind::kDtype) {
      auto canonical = core::NormalizeDtype(item.name);
      if (!canonical) {
        Error(name_node, "`" + item.name + "` in " + where + " is not a dtype torch has");
        continue;
      }
      item.name = *canonical;
    }
    out.push_back(std::move(item));
  }
  return out;
}

void Reader::IncludeExcludeOf(const YAML::Node& n, const std::string& where, ItemKind kind,
                              IncludeExclude& out) {
  ForEachKey(n, where, {"include", "exclude"},
             [&](const std::string& key, const YAML::Node& v, const YAML::Node&) {
               (key == "include" ? out.include : out.exclude) = Items(v, where + "." + key, kind);
             });
}

void Reader::EditsOf(const YAML::Node& n, Edits& edits) {
  ForEachKey(n, "edits", {"ops", "dtypes", "modules", "functions", "inputs"},
             [&](const std::string& key, const YAML::Node& v, const YAML::Node& k) {
               if (key == "ops") {
                 IncludeExcludeOf(v, "edits.ops", ItemKind::kOp, edits.ops);
               } else if (key == "dtypes") {
                 IncludeExcludeOf(v, "edits.dtypes", ItemKind::kDtype, edits.dtypes);
               } else if (key == "modules") {
                 IncludeExcludeOf(v, "edits.modules", ItemKind::kModule, edits.modules);
               } else if (key == "functions") {
                 ForEachKey(v, "edits.functions", {"cpu_move"},
                            [&](const std::string&, const YAML::Node& list, const YAML::Node&) {
                              edits.cpu_move =
                                  Items(list, "edits.functions.cpu_move", ItemKind::kFunction);
                            });
               } else {
                 Warn(k,
                      "edits.inputs is the framework's own input generation; "
                      "testmap does not evaluate it");
               }
             });
}

TestName Reader::NameOf(const YAML::Node& n, const std::string& text) {
  TestName name;
  name.text = text;
  name.mark = MarkOf(n);
  size_t sep = text.find("::");
  if (sep == std::string::npos || text.find("::", sep + 2) != std::string::npos || sep == 0 ||
      sep + 2 == text.size()) {
    size_t parts = 1;
    for (size_t at = text.find("::"); at != std::string::npos; at = text.find("::", at + 2))
      ++parts;
    Error(n, "test name `" + text + "` has " + std::to_string(parts) +
                 (parts == 1 ? " part" : " parts") +
                 ": expected `Class::method` (the generic test, without device or dtype)");
    name.method.clear();
    return name;
  }
  name.cls = text.substr(0, sep);
  name.method = text.substr(sep + 2);
  for (char c : name.method) name.pattern = name.pattern || !IsWordChar(c);
  return name;
}

void Reader::TestOf(const YAML::Node& n, TestEntry& entry) {
  entry.mark = MarkOf(n);
  bool has_names = false;
  ForEachKey(n, "a test entry",
             {"names", "mode", "tags", "labels", "no_grad", "edits", "selectors", "description"},
             [&](const std::string& key, const YAML::Node& v, const YAML::Node& k) {
               if (key == "names") {
                 has_names = true;
                 auto add = [&](const YAML::Node& item) {
                   std::string s;
                   if (!String(item, "a test name", s)) return;
                   TestName name = NameOf(item, s);
                   if (!name.method.empty()) entry.names.push_back(std::move(name));
                 };
                 if (v.IsSequence()) {
                   for (const auto& item : v) add(item);
                 } else if (v.IsScalar()) {
                   add(v);
                 } else {
                   Error(v, "names must be a list of `Class::method` names");
                 }
               } else if (key == "mode") {
                 entry.mode = ModeValue(v, "mode");
                 entry.mode_mark = MarkOf(v);
               } else if (key == "tags") {
                 Tags(v, "tag", entry.tags);
               } else if (key == "labels") {
                 entry.labels = Strings(v, "labels");
               } else if (key == "no_grad") {
                 Bool(v, "no_grad", entry.no_grad);
               } else if (key == "edits") {
                 EditsOf(v, entry.edits);
               } else if (key == "selectors") {
                 Warn(k, "selectors are planned in the framework and not evaluated by testmap");
               }
             });
  if (!has_names && n.IsMap()) Error(n, "a test entry needs `names`");
}

void Reader::FileOf(const YAML::Node& n, FileEntry& file) {
  file.mark = file.entry_mark = MarkOf(n);
  bool has_path = false;
  ForEachKey(n, "a file entry", {"path", "unlisted_test_mode", "tests"},
             [&](const std::string& key, const YAML::Node& v, const YAML::Node&) {
               if (key == "path") {
                 has_path = String(v, "path", file.path);
                 file.mark = MarkOf(v);
               } else if (key == "unlisted_test_mode") {
                 file.unlisted_test_mode = ModeValue(v, "unlisted_test_mode");
                 file.unlisted_mark = MarkOf(v);
               } else if (v.IsNull()) {
                 file.tests_mark = MarkOf(v);
               } else if (!v.IsSequence()) {
                 Error(v, "tests must be a list of test entries");
               } else {
                 file.tests_mark = MarkOf(v);
                 for (const auto& t : v) {
                   TestEntry entry;
                   TestOf(t, entry);
                   file.tests.push_back(std::move(entry));
                 }
               }
             });
  if (!has_path && n.IsMap()) Error(n, "a file entry needs a `path`");
}

void Reader::GlobalOf(const YAML::Node& n, Global& global) {
  global.present = true;
  global.mark = MarkOf(n);
  if (n.IsNull()) return;
  ForEachKey(n, "global",
             {"supported_dtypes", "supported_ops", "supported_modules", "input_config", "devices"},
             [&](const std::string& key, const YAML::Node& v, const YAML::Node& k) {
               if (key == "supported_dtypes") {
                 global.supported_dtypes = Items(v, "global.supported_dtypes", ItemKind::kDtype);
               } else if (key == "supported_ops") {
                 global.supported_ops = Items(v, "global.supported_ops", ItemKind::kOp);
               } else if (key == "supported_modules") {
                 global.supported_modules = Items(v, "global.supported_modules", ItemKind::kModule);
               } else if (key == "input_config") {
                 ForEachKey(v, "global.input_config", {"seed"},
                            [&](const std::string&, const YAML::Node& seed, const YAML::Node&) {
                              if (auto x = Number(seed, "global.input_config.seed"))
                                global.seed = static_cast<long long>(*x);
                            });
               } else {
                 Warn(k, "global.devices is planned in the framework and not evaluated by testmap");
               }
             });
}

void Reader::Read(const YAML::Node& root, Config& config) {
  if (!root.IsMap()) {
    Error(root, "a config is a mapping with the key `test_suite_config`");
    return;
  }
  bool found = false;
  ForEachKey(root, "the document", {"test_suite_config"},
             [&](const std::string&, const YAML::Node& suite, const YAML::Node&) {
               found = true;
               bool has_files = false;
               ForEachKey(suite, "test_suite_config", {"labels", "files", "global"},
                          [&](const std::string& key, const YAML::Node& v, const YAML::Node&) {
                            if (key == "labels") {
                              config.labels = Strings(v, "labels");
                            } else if (key == "files") {
                              has_files = true;
                              config.files_mark = MarkOf(v);
                              if (v.IsNull()) return;
                              if (!v.IsSequence()) {
                                Error(v, "files must be a list of file entries");
                                return;
                              }
                              for (const auto& f : v) {
                                FileEntry file;
                                FileOf(f, file);
                                config.files.push_back(std::move(file));
                              }
                            } else {
                              GlobalOf(v, config.global);
                            }
                          });
               if (!has_files && suite.IsMap()) Error(suite, "test_suite_config needs `files`");
             });
  if (!found) Error(root, "no `test_suite_config` key: not a test_suite_config file");
}

}  // namespace

const char* ModeName(Mode m) {
  switch (m) {
    case Mode::kMandatorySuccess:
      return "mandatory_success";
    case Mode::kXfail:
      return "xfail";
    case Mode::kXfailStrict:
      return "xfail_strict";
    case Mode::kSkip:
      return "skip";
  }
  return "?";
}

std::optional<Mode> ParseMode(std::string_view text) {
  for (Mode m : {Mode::kMandatorySuccess, Mode::kXfail, Mode::kXfailStrict, Mode::kSkip})
    if (text == ModeName(m)) return m;
  return std::nullopt;
}

std::string Diagnostic::ToString() const {
  std::string where = path;
  if (mark.line > 0) where += ":" + std::to_string(mark.line) + ":" + std::to_string(mark.column);
  return where + ": " + (severity == Severity::kError ? "error: " : "warning: ") + message;
}

bool ReadResult::HasErrors() const {
  for (const auto& d : diagnostics)
    if (d.severity == Diagnostic::Severity::kError) return true;
  return false;
}

ReadResult ParseConfig(const std::string& text, const std::string& path,
                       const ReadOptions& options) {
  ReadResult result;
  result.config.path = path;
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    Mark m;
    if (!e.mark.is_null())
      m = {e.mark.line + 1, e.mark.column + 1, static_cast<size_t>(e.mark.pos)};
    result.diagnostics.push_back(
        {Diagnostic::Severity::kError, path, m, "malformed YAML: " + e.msg});
    return result;
  }
  Reader reader(path, options);
  reader.Read(root, result.config);
  result.diagnostics = std::move(reader.diagnostics);
  return result;
}

ReadResult ReadConfig(const std::string& path, const ReadOptions& options) {
  return ParseConfig(core::ReadInputFile(path), path, options);
}

Config LoadConfig(const std::string& path, std::vector<Diagnostic>* warnings,
                  const ReadOptions& options) {
  return ConfigOrThrow(ReadConfig(path, options), warnings);
}

Config ConfigOrThrow(ReadResult r, std::vector<Diagnostic>* warnings) {
  for (const auto& d : r.diagnostics) {
    if (d.severity == Diagnostic::Severity::kError) throw ConfigError(d);
    if (warnings) warnings->push_back(d);
  }
  return std::move(r.config);
}

}  // namespace testmap::config
