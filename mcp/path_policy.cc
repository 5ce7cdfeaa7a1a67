#include "mcp/path_policy.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "core/errors.h"

namespace testmap::mcp {
namespace {

namespace fs = std::filesystem;

}  // namespace

PathPolicy::PathPolicy(const std::vector<std::string>& roots) {
  for (const auto& r : roots) {
    std::error_code ec;
    fs::path canonical = fs::canonical(r, ec);
    if (ec) throw core::UsageError("--allow " + r + ": " + ec.message());
    roots_.push_back(canonical.string());
    written_.push_back(fs::absolute(r).lexically_normal().string());
  }
}

bool PathPolicy::Under(const std::string& path) const { return Within(path, roots_); }

bool PathPolicy::Within(const std::string& path, const std::vector<std::string>& roots) {
  for (const auto& root : roots) {
    if (path == root) return true;
    std::string prefix = root.back() == '/' ? root : root + "/";
    if (path.compare(0, prefix.size(), prefix) == 0) return true;
  }
  return false;
}

core::InputError PathPolicy::Refusal(const std::string& path, const std::string& why) const {
  std::string list;
  for (const auto& r : roots_) list += (list.empty() ? "" : ", ") + r;
  return core::InputError(
      path + ": " + why + " (this server reads files only under " +
      (list.empty() ? std::string("no path: start it with --allow DIR") : list) + ")");
}

std::string PathPolicy::Lexical(const std::string& path) const {
  if (path.empty() || path.find('\0') != std::string::npos) throw Refusal(path, "not a path");
  std::error_code ec;
  fs::path lexical = fs::absolute(path, ec).lexically_normal();
  // Under a root as resolved, or as written (a root reached through a
  // link: a virtualenv's bin/ under a linked .venv).
  if (ec || !(Under(lexical.string()) || Within(lexical.string(), written_)))
    throw Refusal(path, "outside the allowed paths");
  return lexical.string();
}

std::string PathPolicy::Resolve(const std::string& path, Kind kind) const {
  std::string lexical = Lexical(path);
  std::error_code ec;
  fs::path real = fs::canonical(lexical, ec);
  if (ec) throw core::InputError(path + ": " + ec.message());
  if (!Under(real.string())) throw Refusal(path, "leads outside the allowed paths");
  if (fs::is_regular_file(real, ec)) return real.string();
  if (kind == Kind::kFileOrDirectory && fs::is_directory(real, ec)) return real.string();
  throw core::InputError(path + (kind == Kind::kFile ? ": not a regular file"
                                                     : ": neither a regular file nor a directory"));
}

std::string PathPolicy::ResolveProgram(const std::string& path) const {
  std::string lexical = Lexical(path);
  std::error_code ec;
  fs::path real = fs::canonical(lexical, ec);
  if (ec) throw core::InputError(path + ": " + ec.message());
  if (!fs::is_regular_file(real, ec) || access(real.c_str(), X_OK) != 0)
    throw core::InputError(path + ": not an executable file");
  return lexical;
}

std::string FileStamp(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return path + " -";
  return path + " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec);
}

}  // namespace testmap::mcp
