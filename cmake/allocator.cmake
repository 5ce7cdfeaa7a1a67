# The allocator of the executables whose time is a figure: mimalloc
# (Debian's libmimalloc-dev) in place of glibc's malloc.
#
# Why: a cold scan of a large tree makes and frees millions of small
# objects (values, records, strings) on every core; malloc and free were
# 10-14% of its CPU (docs/scan.md). With mimalloc a cold scan takes 4-17%
# less time (the 2,254-file tree, the real PyTorch files), and a process
# starts no slower (`testmap --version` and `query`: the same time, though
# 50-150 more page faults), so `query` keeps its lead. jemalloc gave the
# scan as much but cost every start 0.7 ms (its initialisation), and
# glibc's tcache tunables are read from the environment only.
#
# A long-lived `testmap mcp` returns freed memory at once, not after
# mimalloc's delay (cli/allocator.h: its RSS was 2.7x glibc's).
#
# Not in the sanitizer build: ASan brings its own allocator.
if(TESTMAP_SANITIZE OR TESTMAP_FUZZ)
  function(testmap_use_fast_allocator target)
  endfunction()
  return()
endif()

find_package(mimalloc CONFIG REQUIRED)

# Links `target` with mimalloc: it comes before libc in the loader's search
# order, so every malloc and operator new of the process (RocksDB's and the
# C++ runtime's included) is mimalloc's.
function(testmap_use_fast_allocator target)
  target_link_libraries(${target} PRIVATE mimalloc)
  target_compile_definitions(${target} PRIVATE TESTMAP_MIMALLOC=1)  # cli/allocator.h
endfunction()
