#include "analyzers/backend/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace testmap::backend {
namespace {

constexpr size_t kMaxStderr = 64 * 1024;

void CloseIf(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

}  // namespace

ProcessResult RunProcess(const std::vector<std::string>& argv, const std::string& input,
                         const std::function<void(const std::string&)>& on_line,
                         const std::vector<std::string>& env) {
  ProcessResult result;
  int in[2], out[2], err[2];
  if (pipe(in) || pipe(out) || pipe(err)) {
    result.err = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]})
    posix_spawn_file_actions_addclose(&actions, fd);

  std::vector<std::string> env_storage;
  for (char** e = environ; *e; ++e) env_storage.emplace_back(*e);
  for (const auto& e : env) env_storage.push_back(e);
  std::vector<char*> envp, args;
  for (auto& e : env_storage) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_copy = argv;
  for (auto& a : argv_copy) args.push_back(a.data());
  args.push_back(nullptr);

  pid_t pid;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(in[0]);
  close(out[1]);
  close(err[1]);
  if (rc != 0) {
    close(in[1]);
    close(out[0]);
    close(err[0]);
    result.err = argv[0] + ": " + std::strerror(rc);
    return result;
  }

  // Feed stdin and drain stdout/stderr together, so that neither side can
  // block the other on a full pipe.
  signal(SIGPIPE, SIG_IGN);
  int fds[3] = {in[1], out[0], err[0]};
  fcntl(fds[0], F_SETFL, O_NONBLOCK);
  size_t written = 0;
  if (input.empty()) CloseIf(fds[0]);
  std::string partial;
  char buf[65536];
  while (fds[0] >= 0 || fds[1] >= 0 || fds[2] >= 0) {
    pollfd p[3];
    int n = 0, idx[3];
    if (fds[0] >= 0) p[n] = {fds[0], POLLOUT, 0}, idx[n++] = 0;
    if (fds[1] >= 0) p[n] = {fds[1], POLLIN, 0}, idx[n++] = 1;
    if (fds[2] >= 0) p[n] = {fds[2], POLLIN, 0}, idx[n++] = 2;
    if (poll(p, n, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < n; ++i) {
      if (!p[i].revents) continue;
      int which = idx[i];
      if (which == 0) {
        ssize_t w = write(fds[0], input.data() + written, input.size() - written);
        if (w > 0) written += static_cast<size_t>(w);
        if (w < 0 && errno != EAGAIN) CloseIf(fds[0]);
        if (written == input.size()) CloseIf(fds[0]);
        continue;
      }
      ssize_t r = read(fds[which], buf, sizeof buf);
      if (r <= 0) {
        if (r < 0 && errno == EINTR) continue;
        CloseIf(fds[which]);
        continue;
      }
      if (which == 2) {
        result.err.append(buf, static_cast<size_t>(r));
        if (result.err.size() > 2 * kMaxStderr) result.err.erase(0, result.err.size() - kMaxStderr);
      } else if (!on_line) {
        result.out.append(buf, static_cast<size_t>(r));
      } else {
        partial.append(buf, static_cast<size_t>(r));
        size_t start = 0;
        for (size_t nl; (nl = partial.find('\n', start)) != std::string::npos; start = nl + 1)
          on_line(partial.substr(start, nl - start));
        partial.erase(0, start);
      }
    }
  }
  if (on_line && !partial.empty()) on_line(partial);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (result.err.size() > kMaxStderr) result.err.erase(0, result.err.size() - kMaxStderr);
  return result;
}

}  // namespace testmap::backend
