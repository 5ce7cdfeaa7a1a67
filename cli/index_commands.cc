// Registers the index commands in the order `testmap --help` lists them.
#include "cli/commands.h"

namespace testmap::cli {

void RegisterIndexCommands(CLI::App& app) {
  RegisterIngestCommand(app);
  RegisterQueryCommand(app);
  RegisterShowCommand(app);
  RegisterOpsCommand(app);
  RegisterStatsCommand(app);
  RegisterIndexCommand(app);
}

}  // namespace testmap::cli
