// The one exit-code table of every testmap command (docs/exit-codes.md and
// `testmap --help` print it from kExitCodeTable below).
#pragma once

namespace testmap::cli {

enum ExitCode : int {
  kExitAnswer = 0,       // the answer, complete
  kExitBadInput = 1,     // bad input, or a partial answer (a scan that skipped files)
  kExitUsage = 2,        // bad options
  kExitUnknownName = 3,  // an unknown operator, dtype, device, role or test (suggestions on stderr)
  kExitNoTests = 4,      // --format nodeids found no test: `pytest $(...)` would run everything
};

inline constexpr const char* kExitCodeTable =
    "Exit status (every command):\n"
    "  0  the answer, complete\n"
    "  1  bad input or a partial answer (named on stderr with file and line)\n"
    "  2  usage error\n"
    "  3  unknown name: operator, dtype, device, role, test (suggestions on stderr)\n"
    "  4  --format nodeids found no test (so `ids=$(testmap ...) && pytest $ids` never\n"
    "     runs the whole suite)\n"
    "  `testmap trace` exits with pytest's own status.";

}  // namespace testmap::cli
