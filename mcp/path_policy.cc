#include "mcp/path_policy.h"

#include <sys/stat.h>

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
  }
}

bool PathPolicy::Under(const std::string& path) const {
  for (const auto& root : roots_) {
    if (path == root) return true;
    std::string prefix = root.back() == '/' ? root : root + "/";
    if (path.compare(0, prefix.size(), prefix) == 0) return true;
  }
  return false;
}

std::string PathPolicy::Resolve(const std::string& path) const {
  auto refuse = [&](const std::string& why) {
    std::string list;
    for (const auto& r : roots_) list += (list.empty() ? "" : ", ") + r;
    return core::InputError(
        path + ": " + why + " (this server reads files only under " +
        (list.empty() ? std::string("no path: start it with --allow DIR") : list) + ")");
  };
  if (path.empty() || path.find('\0') != std::string::npos) throw refuse("not a path");
  std::error_code ec;
  fs::path lexical = fs::absolute(path, ec).lexically_normal();
  if (ec || !Under(lexical.string())) throw refuse("outside the allowed paths");
  fs::path real = fs::canonical(lexical, ec);
  if (ec) throw core::InputError(path + ": " + ec.message());
  if (!Under(real.string())) throw refuse("leads outside the allowed paths");
  if (!fs::is_regular_file(real, ec)) throw core::InputError(path + ": not a regular file");
  return real.string();
}

std::string FileStamp(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return path + " -";
  return path + " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec);
}

}  // namespace testmap::mcp
