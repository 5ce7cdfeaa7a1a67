#include "analyzers/backend/source_tree.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/errors.h"
#include "core/read_file.h"

namespace testmap::backend {
namespace {

namespace fs = std::filesystem;

const std::set<std::string> kSourceExtensions{".cpp", ".cc", ".cxx", ".c++", ".C"};
const std::set<std::string> kHeaderExtensions{".h", ".hpp", ".hh", ".hxx", ".h++", ".cuh"};
const std::set<std::string> kSkippedDirs{".git", "__pycache__", "node_modules", ".venv",
                                         "venv", "build",       "dist",         ".eggs",
                                         "test", "tests",       ".tox",         ".mypy_cache"};

bool IsTestModule(const std::string& name) {
  return name == "conftest.py" || name == "setup.py" || name.rfind("test_", 0) == 0 ||
         (name.size() > 8 && name.compare(name.size() - 8, 8, "_test.py") == 0);
}

void Classify(const fs::path& p, SourceTree& t) {
  std::string ext = p.extension().string();
  std::string path = p.string();
  if (kSourceExtensions.count(ext))
    t.cpp_sources.push_back(path);
  else if (kHeaderExtensions.count(ext))
    t.headers.push_back(path);
  else if (ext == ".py" && !IsTestModule(p.filename().string()))
    t.python_files.push_back(path);
}

void Unique(std::vector<std::string>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

}  // namespace

std::optional<std::string> ReadSourceFile(const std::string& path, Diagnostic* error) {
  try {
    return core::ReadInputFile(path, kMaxSourceBytes);
  } catch (const core::InputError& e) {
    std::string message = e.what();
    if (message.compare(0, path.size() + 2, path + ": ") == 0) message.erase(0, path.size() + 2);
    *error = {Diagnostic::Severity::kError, path, 0, message};
    return std::nullopt;
  }
}

std::string RelativeTo(const std::string& path, const std::string& base) {
  if (base.empty() || path.size() <= base.size() || path.compare(0, base.size(), base) != 0)
    return path;
  if (base.back() == '/') return path.substr(base.size());
  if (path[base.size()] != '/') return path;
  return path.substr(base.size() + 1);
}

SourceTree DiscoverSources(const std::vector<std::string>& paths) {
  SourceTree t;
  for (const auto& given : paths) {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::absolute(given, ec), ec);
    if (!fs::exists(p, ec)) {
      t.missing.push_back(given);
      continue;
    }
    if (!fs::is_directory(p, ec)) {
      t.roots.push_back(p.parent_path().string());
      Classify(p, t);
      continue;
    }
    t.roots.push_back(p.string());
    fs::recursive_directory_iterator it(p, fs::directory_options::skip_permission_denied, ec), end;
    for (; it != end; it.increment(ec)) {
      if (ec) break;
      const fs::path& entry = it->path();
      std::string name = entry.filename().string();
      if (it->is_directory(ec)) {
        if (kSkippedDirs.count(name) || name.rfind("build", 0) == 0 || name.rfind('.', 0) == 0)
          it.disable_recursion_pending();
        continue;
      }
      if (it->is_regular_file(ec)) Classify(entry, t);
    }
  }
  Unique(t.roots);
  Unique(t.cpp_sources);
  Unique(t.headers);
  Unique(t.python_files);
  // The common ancestor of the roots.
  if (!t.roots.empty()) {
    fs::path base = t.roots.front();
    for (const auto& r : t.roots) {
      // The iterators walk `root` itself: ones into temporaries (as this
      // loop once held) dangle, and the prefix then depends on the allocator.
      const fs::path root(r);
      fs::path common;
      auto a = base.begin(), b = root.begin();
      for (; a != base.end() && b != root.end() && *a == *b; ++a, ++b) common /= *a;
      base = common;
    }
    t.base = base.string();
  }
  return t;
}

}  // namespace testmap::backend
