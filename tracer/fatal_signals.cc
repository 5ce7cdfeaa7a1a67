// testmap_tracer_note_fatal_signals (tracer_api.h): a pytest process that
// dies of a signal leaves the signal's number in a file, so that `testmap
// trace` can name it for an xdist worker, whose death the parent never sees
// (it only sees the controller exit with status 1).
//
// The handler runs where almost nothing is safe: it only calls open, write,
// close, sigaction and raise (all async-signal-safe), on a path prepared
// beforehand, then hands the signal on to whoever handled it before
// (pytest's faulthandler dumps the traceback), so the process still dies of
// it as it would have.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstring>

#include "tracer/tracer_api.h"

namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
constexpr int kMaxSignal = 64;

char note_path[4096];
struct sigaction previous[kMaxSignal + 1];

void OnFatalSignal(int sig) {
  int fd = open(note_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    char text[8];
    int n = 0;
    char digits[4];
    int d = 0;
    for (int v = sig; v > 0 && d < 4; v /= 10) digits[d++] = static_cast<char>('0' + v % 10);
    while (d > 0) text[n++] = digits[--d];
    text[n++] = '\n';
    ssize_t ignored = write(fd, text, n);
    (void)ignored;
    close(fd);
  }
  // The signal is blocked while this runs: raised again, it is delivered to
  // the previous handler as soon as this one returns.
  sigaction(sig, &previous[sig], nullptr);
  raise(sig);
}

}  // namespace

extern "C" int testmap_tracer_note_fatal_signals(const char* path) {
  if (path == nullptr || std::strlen(path) >= sizeof note_path) return -1;
  std::strcpy(note_path, path);
  struct sigaction action {};
  action.sa_handler = OnFatalSignal;
  sigemptyset(&action.sa_mask);
  for (int sig : kSignals) {
    if (sigaction(sig, &action, &previous[sig]) != 0) return -1;
  }
  return 0;
}
