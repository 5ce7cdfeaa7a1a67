#include "analyzers/backend/compile_commands.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

namespace testmap::backend {
namespace {

namespace fs = std::filesystem;

std::string Normalized(const std::string& path, const std::string& dir) {
  fs::path p(path);
  if (p.is_relative()) p = fs::path(dir) / p;
  return p.lexically_normal().string();
}

}  // namespace

std::vector<std::string> SplitCommandLine(const std::string& command) {
  std::vector<std::string> out;
  std::string cur;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < command.size(); ++i) {
    char c = command[i];
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < command.size()) {
        cur += command[++i];
      } else {
        cur += c;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < command.size()) {
      cur += command[++i];
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) out.push_back(cur);
      cur.clear();
      in_word = false;
    } else {
      cur += c;
      in_word = true;
    }
  }
  if (in_word) out.push_back(cur);
  return out;
}

CompileCommands CompileCommands::FromBuildDir(const std::string& build_dir) {
  std::string path = (fs::path(build_dir) / "compile_commands.json").string();
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error(path +
                             ": cannot read (configure the build with "
                             "CMAKE_EXPORT_COMPILE_COMMANDS=ON)");
  nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!j.is_array()) throw std::runtime_error(path + ": not a compilation database (a JSON list)");
  CompileCommands db;
  for (size_t i = 0; i < j.size(); ++i) {
    const auto& e = j[i];
    try {
      CompileUnit u;
      u.directory = e.at("directory");
      u.file = Normalized(e.at("file"), u.directory);
      if (e.contains("arguments"))
        u.arguments = e.at("arguments").get<std::vector<std::string>>();
      else
        u.arguments = SplitCommandLine(e.at("command"));
      db.units_.emplace(u.file, std::move(u));
    } catch (const nlohmann::json::exception& ex) {
      throw std::runtime_error(path + ": entry " + std::to_string(i + 1) + ": " + ex.what());
    }
  }
  return db;
}

const CompileUnit* CompileCommands::Find(const std::string& file) const {
  auto it = units_.find(file);
  return it == units_.end() ? nullptr : &it->second;
}

CompileUnit DefaultCompileUnit(const std::string& file, const TorchProbe& torch,
                               const std::vector<std::string>& include_dirs) {
  CompileUnit u;
  u.file = file;
  u.directory = fs::path(file).parent_path().string();
  u.arguments = {"clang++", "-std=" + torch.cxx_standard};
  for (const auto& d : include_dirs) u.arguments.push_back("-I" + d);
  for (const auto& d : torch.include_paths) {
    u.arguments.push_back("-isystem");
    u.arguments.push_back(d);
  }
  if (!torch.python_include.empty()) {
    u.arguments.push_back("-isystem");
    u.arguments.push_back(torch.python_include);
  }
  u.arguments.push_back(file);
  return u;
}

std::vector<std::string> IncludedNames(std::string_view text) {
  std::vector<std::string> names;
  size_t pos = 0;
  while ((pos = text.find("#include", pos)) != std::string_view::npos) {
    pos += 8;
    size_t open = text.find_first_not_of(" \t", pos);
    if (open == std::string_view::npos) break;
    char close = text[open] == '"' ? '"' : text[open] == '<' ? '>' : 0;
    if (!close) continue;
    size_t end = text.find(close, open + 1);
    if (end == std::string_view::npos ||
        text.substr(open, end - open).find('\n') != std::string_view::npos)
      continue;
    names.emplace_back(text.substr(open + 1, end - open - 1));
  }
  return names;
}

std::vector<std::string> BackendIncludeDirs(const std::vector<std::string>& roots,
                                            const std::vector<std::string>& headers,
                                            const std::vector<std::string_view>& texts) {
  std::set<std::string> named;
  for (auto text : texts)
    for (auto& n : IncludedNames(text)) named.insert(std::move(n));
  std::set<std::string> dirs(roots.begin(), roots.end());
  for (const auto& h : headers)
    for (const auto& n : named) {
      if (n.find("..") != std::string::npos || h.size() <= n.size() + 1) continue;
      if (h.compare(h.size() - n.size(), n.size(), n) == 0 && h[h.size() - n.size() - 1] == '/')
        dirs.insert(h.substr(0, h.size() - n.size() - 1));
    }
  return {dirs.begin(), dirs.end()};
}

}  // namespace testmap::backend
