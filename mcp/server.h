// `testmap mcp`: a Model Context Protocol server on stdin/stdout.
//
// One JSON-RPC message a line in each direction; logs go to stderr. The
// reader (the calling thread) parses each line and answers the lifecycle
// (initialize, ping, server/discover) and malformed messages itself, in
// order; tools and resources go to worker threads, so several requests
// are answered at once and their responses come back by id, in whatever
// order they finish. One index stays open for the session and is reopened
// when an ingest changes it (index_session.h); files are read only under
// --allow (path_policy.h). Limits: limits.h.
#pragma once

#include <string>
#include <vector>

namespace testmap::mcp {

struct ServerOptions {
  std::string index_dir;
  std::vector<std::string> allow;  // roots for files tools read
  // The torch admission rests on (mcp/torch_source.h): a snapshot file, or
  // the Python whose torch is snapshotted ("" for both: as the CLI).
  std::string torch_python, snapshot;
  std::string version;  // testmap's, for serverInfo
  size_t workers = 0;   // 0: from the machine's cores (2..8)
};

// Serves until `in_fd` ends (the client closed stdin), every answer
// written. Returns 0, or 1 when `out_fd` could not be written (the client
// went away). Throws core::UsageError for bad options (an --allow that
// does not exist).
int Serve(const ServerOptions& options, int in_fd, int out_fd);

}  // namespace testmap::mcp
