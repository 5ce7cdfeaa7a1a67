# Executables link third-party libraries from their static archives, where
# Debian's -dev package ships one; shared libraries (the tracer, the pytest
# plugin's C API) keep the shared ones: the archives hold PIE objects, which
# a shared object cannot take.
#
# Why: `testmap query` is a whole process of about ten milliseconds, and
# the dynamic loader binding ten shared libraries at every start was a
# tenth of it (LD_DEBUG=statistics: 90% of the loader's time relocation).
# Linked from archives, `testmap --version` takes 1.6 ms of CPU instead of
# 2.2 ms (perf stat -r 200; docs/index.md, process start). simdjson is built
# from source (the top-level CMakeLists.txt): Debian ships no archive of it.
#
# Included by the top-level CMakeLists.txt after its find_package calls, so
# that this one place decides how every target links them.

# True where the target being linked is an executable.
set(_testmap_exe "$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>")

# Executables link lib<name>.a for each name; other targets `elsewhere`.
function(_testmap_archives_or out elsewhere)
  set(items "")
  foreach(name IN LISTS ARGN)
    unset(_archive)  # find_library keeps a result already set
    find_library(_archive NAMES lib${name}.a NO_CACHE REQUIRED)
    list(APPEND items "$<${_testmap_exe}:${_archive}>")
  endforeach()
  foreach(item IN LISTS elsewhere)
    list(APPEND items "$<$<NOT:${_testmap_exe}>:${item}>")
  endforeach()
  set(${out} "${items}" PARENT_SCOPE)
endfunction()

# RocksDB's archive names its compression libraries (and gflags, which only
# its tools use) as shared ones.
get_target_property(_rocksdb_deps RocksDB::rocksdb INTERFACE_LINK_LIBRARIES)
_testmap_archives_or(_rocksdb_deps "${_rocksdb_deps}" snappy z bz2 lz4 zstd)
set_target_properties(RocksDB::rocksdb PROPERTIES INTERFACE_LINK_LIBRARIES "${_rocksdb_deps}")

# The others are linked by these names throughout the build.
foreach(spec "tree_sitter;tree-sitter;PkgConfig::TREE_SITTER" "xxhash;xxhash;PkgConfig::XXHASH"
             "yaml_cpp;yaml-cpp;yaml-cpp"
             "pugixml;pugixml;pugixml::pugixml")
  list(GET spec 0 target)
  list(GET spec 1 archive)
  list(GET spec 2 shared)
  _testmap_archives_or(links "${shared}" ${archive})
  add_library(testmap::${target} INTERFACE IMPORTED GLOBAL)
  set_target_properties(testmap::${target} PROPERTIES INTERFACE_LINK_LIBRARIES "${links}")
endforeach()
