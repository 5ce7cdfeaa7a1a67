// The allocator's one setting that depends on the command
// (cmake/allocator.cmake links mimalloc into testmap and defines
// TESTMAP_MIMALLOC; the sanitizer build has neither).
#pragma once

#ifdef TESTMAP_MIMALLOC
#include <mimalloc.h>
#endif

namespace testmap::cli {

// For a process that lives on between requests (`testmap mcp`): memory a
// request frees goes back to the OS at once instead of after mimalloc's
// decommit delay, which calls arriving back to back kept from ever
// passing. The MCP benchmark's server held 347 MB after 1,000 calls with
// the delay and 109 MB without (glibc's malloc: 129 MB; docs/mcp.md). A
// short command keeps the delay: its memory goes back when it exits, and
// decommitting sooner would only make it fault the pages in again.
inline void ReturnFreedMemoryAtOnce() {
#ifdef TESTMAP_MIMALLOC
  mi_option_set(mi_option_decommit_delay, 0);
#endif
}

}  // namespace testmap::cli
