#include "cli/run_command.h"

#include <CLI/CLI.hpp>
#include <iostream>

#include "core/errors.h"

namespace testmap::cli {
namespace {

int Report(const std::string& name, const std::string& message) {
  std::cerr << "testmap " << name << ": error: " << message << "\n";
  return kExitBadInput;
}

int RunCaught(const std::string& name, const std::function<int()>& body) {
  try {
    return body();
  } catch (const CLI::Error&) {
    throw;  // CLI11's own (usage errors, an exit code already chosen)
  } catch (const core::UnknownNameError& e) {
    std::cerr << "testmap " << name << ": error: " << e.what() << "\n";
    if (!e.suggestions().empty()) {
      std::cerr << "did you mean:";
      for (const auto& s : e.suggestions()) std::cerr << " " << s;
      std::cerr << "\n";
    }
    return kExitUnknownName;
  } catch (const core::UsageError& e) {
    std::cerr << "testmap " << name << ": error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::bad_alloc&) {
    return Report(name, "out of memory");
  } catch (const std::exception& e) {
    return Report(name, e.what());
  }
}

}  // namespace

void RunCommand(const std::string& name, const std::function<int()>& body) {
  int rc = CheckOutputWritten(name, RunCaught(name, body));
  if (rc != 0) throw CLI::RuntimeError(rc);
}

int CheckOutputWritten(const std::string& name, int rc) {
  std::cout.flush();
  if (std::cout) return rc;
  std::cerr << "testmap" << (name.empty() ? "" : " " + name)
            << ": error: cannot write the output\n";
  return kExitBadInput;
}

}  // namespace testmap::cli
