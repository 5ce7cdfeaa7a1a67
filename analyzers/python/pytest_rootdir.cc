#include "analyzers/python/pytest_rootdir.h"

#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "core/errors.h"

namespace fs = std::filesystem;

namespace testmap::python {
namespace {

// pytest's absolutepath(): absolute and normalized, symlinks kept.
fs::path Absolute(const fs::path& p, const fs::path& cwd) {
  fs::path abs = p.is_absolute() ? p : cwd / p;
  abs = abs.lexically_normal();
  std::string s = abs.string();
  if (s.size() > 1 && s.back() == '/') abs = fs::path(s.substr(0, s.size() - 1));
  return abs;
}

bool IsFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}
bool IsDir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}
bool Exists(const fs::path& p) {
  std::error_code ec;
  return fs::exists(p, ec);
}
bool IsFsRoot(const fs::path& p) { return p == p.root_path(); }

// Whether `parent` is `p` or one of its ancestors (lexically).
bool Contains(const fs::path& parent, const fs::path& p) {
  auto pi = p.begin();
  for (auto it = parent.begin(); it != parent.end(); ++it, ++pi)
    if (pi == p.end() || *it != *pi) return false;
  return true;
}

std::string Trim(std::string s) {
  size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The pytest configuration of one file: whether it has one, and its keys
// with their values split as pytest's `args`/`linelist` options are.
struct Config {
  bool present = false;
  std::map<std::string, std::vector<std::string>> values;
};

enum class Format { kIni, kToml };

std::vector<std::string> Words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The strings of a TOML value: a list of strings, or one string (split
// into words, as ini-mode options are).
std::vector<std::string> TomlStrings(const std::string& value) {
  std::vector<std::string> out;
  for (size_t i = 0; i < value.size(); ++i) {
    char q = value[i];
    if (q != '"' && q != '\'') continue;
    std::string s;
    for (++i; i < value.size() && value[i] != q; ++i) {
      if (value[i] == '\\' && q == '"' && i + 1 < value.size()) ++i;
      s += value[i];
    }
    out.push_back(s);
  }
  if (out.size() == 1 && value.find('[') == std::string::npos) return Words(out[0]);
  return out;
}

// Reads `sections` of an INI or TOML file: enough of both formats for
// what rootdir discovery and testpaths need. `always`: the file counts as
// pytest's config even without the section (pytest.ini, pytest.toml).
Config Load(const fs::path& path, Format format, const std::vector<std::string>& sections,
            bool always) {
  Config c;
  c.present = always;
  std::ifstream in(path);
  if (!in) return c;
  bool inside = false;
  std::string key, value;
  int depth = 0;  // open TOML brackets of a multi-line value
  auto flush = [&] {
    if (key.empty()) return;
    c.values[key] = format == Format::kToml ? TomlStrings(value) : Words(value);
    key.clear();
    value.clear();
  };
  for (std::string line; std::getline(in, line);) {
    std::string t = Trim(line);
    if (depth > 0) {
      value += " " + t;
      depth += std::count(t.begin(), t.end(), '[') - std::count(t.begin(), t.end(), ']');
      if (depth <= 0) flush();
      continue;
    }
    if (t.empty() || t[0] == '#' || t[0] == ';') continue;
    if (t[0] == '[') {
      flush();
      std::string name =
          Trim(t.substr(1, t.find(']') == std::string::npos ? std::string::npos : t.find(']') - 1));
      inside = std::find(sections.begin(), sections.end(), name) != sections.end();
      if (inside) c.present = true;
      continue;
    }
    if (!inside) continue;
    bool continuation = format == Format::kIni && (line[0] == ' ' || line[0] == '\t');
    if (continuation && !key.empty()) {
      value += " " + t;
      continue;
    }
    flush();
    size_t eq = t.find_first_of(format == Format::kIni ? "=:" : "=");
    if (eq == std::string::npos) continue;
    key = Trim(t.substr(0, eq));
    value = Trim(t.substr(eq + 1));
    if (format == Format::kToml) {
      depth =
          std::count(value.begin(), value.end(), '[') - std::count(value.begin(), value.end(), ']');
      if (depth > 0) continue;
    }
    if (format == Format::kToml) flush();
  }
  flush();
  return c;
}

// CONFIG_LOADERS_BY_NAME, in precedence order.
std::optional<Config> LoadByName(const fs::path& p) {
  std::string name = p.filename().string();
  if (name == "pytest.toml" || name == ".pytest.toml")
    return Load(p, Format::kToml, {"pytest"}, true);
  if (name == "pytest.ini" || name == ".pytest.ini") return Load(p, Format::kIni, {"pytest"}, true);
  if (name == "pyproject.toml")
    return Load(p, Format::kToml, {"tool.pytest", "tool.pytest.ini_options"}, false);
  if (name == "tox.ini") return Load(p, Format::kIni, {"pytest"}, false);
  if (name == "setup.cfg") return Load(p, Format::kIni, {"tool:pytest"}, false);
  return std::nullopt;
}

const char* const kConfigNames[] = {"pytest.toml",    ".pytest.toml", "pytest.ini", ".pytest.ini",
                                    "pyproject.toml", "tox.ini",      "setup.cfg"};

struct Located {
  std::optional<fs::path> rootdir, config;
  Config cfg;
};

// locate_config(): the first config walking up from each argument.
Located Locate(const std::vector<fs::path>& args) {
  std::optional<fs::path> pyproject;
  for (const fs::path& arg : args) {
    for (fs::path base = arg;; base = base.parent_path()) {
      for (const char* name : kConfigNames) {
        fs::path p = base / name;
        if (!IsFile(p)) continue;
        if (std::string(name) == "pyproject.toml" && !pyproject) pyproject = p;
        Config c = *LoadByName(p);
        if (c.present) return {base, p, std::move(c)};
      }
      if (base == base.parent_path()) break;
    }
  }
  if (pyproject) return {pyproject->parent_path(), pyproject, {}};
  return {};
}

// get_common_ancestor(): over the paths that exist; a file counts as its
// directory; none: the invocation directory.
fs::path CommonAncestor(const fs::path& cwd, const std::vector<fs::path>& paths) {
  std::optional<fs::path> common;
  for (const fs::path& p : paths) {
    if (!Exists(p)) continue;
    if (!common) {
      common = p;
      continue;
    }
    if (Contains(*common, p)) continue;
    if (Contains(p, *common)) {
      common = p;
      continue;
    }
    fs::path shared;
    auto a = common->begin(), b = p.begin();
    for (; a != common->end() && b != p.end() && *a == *b; ++a, ++b) shared /= *a;
    if (!shared.empty()) common = shared;
  }
  if (!common) return cwd;
  if (IsFile(*common)) return common->parent_path();
  return *common;
}

}  // namespace

PytestSetup DeterminePytestSetup(const PytestInvocation& inv) {
  fs::path cwd = Absolute(inv.cwd.empty() ? fs::current_path() : fs::path(inv.cwd), "/");
  std::vector<fs::path> args, dirs;
  for (const auto& a : inv.args) {
    fs::path p = Absolute(a, cwd);
    args.push_back(p);
    if (Exists(p)) dirs.push_back(IsDir(p) ? p : p.parent_path());
  }
  PytestSetup setup;
  Config cfg;
  std::optional<fs::path> rootdir;
  if (!inv.config_file.empty()) {
    fs::path ini = Absolute(inv.config_file, cwd);
    if (!Exists(ini))
      throw core::UsageError("config file '" + ini.string() +
                             "' not found (pytest refuses it too); check -c");
    if (IsDir(ini))
      throw core::UsageError("config file '" + ini.string() + "' is a directory; check -c");
    setup.config_file = ini.string();
    if (IsFile(ini)) {
      std::optional<Config> c = LoadByName(ini);
      std::string ext = ini.extension().string();
      if (!c && ext == ".ini") c = Load(ini, Format::kIni, {"pytest"}, false);
      if (!c && ext == ".cfg") c = Load(ini, Format::kIni, {"tool:pytest"}, false);
      if (!c && ext == ".toml")
        c = Load(ini, Format::kToml, {"pytest", "tool.pytest", "tool.pytest.ini_options"}, false);
      if (!c)
        throw core::UsageError("config file '" + ini.string() +
                               "' has an unsupported format (pytest reads .ini, .cfg, .toml)");
      cfg = *c;
      if (inv.rootdir.empty()) rootdir = ini.parent_path();
    } else if (inv.rootdir.empty()) {
      // /dev/null and the like: no configuration, and no project location.
      rootdir = CommonAncestor(cwd, dirs);
      if (IsFsRoot(*rootdir)) rootdir = cwd;
    }
  } else {
    fs::path ancestor = CommonAncestor(cwd, dirs);
    Located found = Locate({ancestor});
    rootdir = found.rootdir;
    if (found.config) setup.config_file = found.config->string();
    cfg = found.cfg;
    if (!rootdir && inv.rootdir.empty()) {
      for (fs::path p = ancestor;; p = p.parent_path()) {
        if (IsFile(p / "setup.py")) {
          rootdir = p;
          break;
        }
        if (p == p.parent_path()) break;
      }
      if (!rootdir) {
        if (dirs.size() != 1 || dirs[0] != ancestor) {
          Located each = Locate(dirs.empty() ? std::vector<fs::path>{cwd} : dirs);
          rootdir = each.rootdir;
          if (each.config) setup.config_file = each.config->string();
          cfg = each.cfg;
        }
        if (!rootdir) {
          rootdir = CommonAncestor(cwd, {cwd, ancestor});
          if (IsFsRoot(*rootdir)) rootdir = ancestor;
        }
      }
    }
  }
  if (!inv.rootdir.empty()) {
    rootdir = Absolute(inv.rootdir, cwd);
    if (!IsDir(*rootdir))
      throw core::UsageError("directory '" + rootdir->string() + "' not found; check --rootdir");
  }
  setup.rootdir = rootdir->string();

  for (const char* key : {"python_files", "python_classes", "python_functions", "norecursedirs"})
    if (cfg.values.count(key)) setup.unhonoured_keys.push_back(key);

  // Config._decide_args().
  for (const fs::path& a : args) setup.paths.push_back(a.string());
  if (setup.paths.empty() && cwd == *rootdir) {
    auto tp = cfg.values.find("testpaths");
    if (tp != cfg.values.end())
      for (const std::string& pattern : tp->second) {
        glob_t g{};
        std::string abs = Absolute(pattern, cwd).string();
        if (glob(abs.c_str(), 0, nullptr, &g) == 0) {
          std::vector<std::string> found(g.gl_pathv, g.gl_pathv + g.gl_pathc);
          std::sort(found.begin(), found.end());
          setup.paths.insert(setup.paths.end(), found.begin(), found.end());
        }
        globfree(&g);
      }
    setup.from_testpaths = !setup.paths.empty();
  }
  if (setup.paths.empty()) setup.paths.push_back(cwd.string());
  return setup;
}

std::string NodeIdPath(const std::string& file, const PytestSetup& setup, const std::string& cwd) {
  fs::path p = Absolute(file, cwd.empty() ? fs::current_path() : fs::path(cwd));
  fs::path root(setup.rootdir);
  if (Contains(root, p)) return p.lexically_relative(root).generic_string();
  // _check_initialpaths_for_relpath: relative to the argument holding it
  // ("" for the argument itself: pytest then prints `::test_x`).
  for (const std::string& a : setup.paths) {
    fs::path arg(a);
    if (p == arg) return "";
    if (Contains(arg, p)) return p.lexically_relative(arg).generic_string();
  }
  return p.generic_string();
}

}  // namespace testmap::python
