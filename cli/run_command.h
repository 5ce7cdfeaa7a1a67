// The one place where a subcommand's errors become exit codes: every
// command's callback is `RunCommand("name", [&] { ...; return code; })`.
#pragma once

#include <functional>
#include <string>

#include "cli/exit_codes.h"

namespace testmap::cli {

// Runs `body` and ends the command with its exit code (through CLI11, so
// main returns it). core::InputError -> 1, core::UsageError -> 2,
// core::UnknownNameError -> 3 with its suggestions, any other exception
// -> 1; each printed as "testmap NAME: error: ...". Output that could not
// be written (a full disk, a closed pipe) is an error too: exit 1.
void RunCommand(const std::string& name, const std::function<int()>& body);

// Flushes stdout and returns `rc`, or 1 with "testmap[ NAME]: error: cannot
// write the output" on stderr when some of it could not be written: what
// RunCommand ends with, and main after CLI11's own help and --version.
int CheckOutputWritten(const std::string& name, int rc);

}  // namespace testmap::cli
