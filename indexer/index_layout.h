// The on-disk layout of a testmap index: column families, key encodings and
// the schema version. docs/index.md describes the same layout for people.
//
// Every key is a sequence of fields joined by '\0' (no field can contain a
// NUL: node ids, op names and run ids are printable text), so that every
// question the mapper asks is one prefix seek:
//
//   tests     NODEID                                  -> test record (JSON)
//   generic   GENERIC_ID \0 NODEID                    -> ""
//   op_tests  PACKET \0 OVERLOAD \0 NODEID \0 RUN     -> edge value (edge_value.h)
//   test_ops  NODEID \0 PACKET \0 OVERLOAD \0 RUN     -> the same edge value
//   outcomes  NODEID \0 RUN                           -> outcome record (JSON)
//   runs      RUN                                     -> run record (JSON)
//   timings   ID \0 JOB \0 CONFIG \0 SOURCE \0 SEQ       -> timing record (JSON)
//   backends  NAME                                    -> a backend's capabilities (JSON)
//   default   "schema_version", "created_by"          -> index metadata
//             "counters"                              -> what `stats` counts (index_counters.h)
//
// PACKET is `aten::add`, OVERLOAD the overload name (`Tensor`; "" for the
// default overload; "*" for static evidence that names a packet only, as
// an @ops OpInfo name does). Packet first, so that `add` (all overloads) is
// the prefix "aten::add\0" and never also matches "aten::addmm".
//
// `timings` holds what timing files say (JUnit XML, .test_durations,
// test-times.json): ID as the file spells it (node id, file or file::Class),
// SOURCE a hash of the file's content and SEQ the record's position in it,
// so ingesting the same file twice rewrites the same keys.
//
// `backends` holds what a backend registers (index_backends.h), all its
// records under its name, so that ingesting a new scan of it replaces the
// old one whole. It came after schema 2 without changing any encoding: an
// index without it reads as having no backends, and its first writer
// creates it, so it needs no schema change.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace testmap::indexer {

// Bumped whenever a key or value encoding changes incompatibly. An index
// written with a newer schema is refused at open, never misread.
//   1: tests, generic, op_tests, test_ops, outcomes, runs.
//   2: timings column family.
//   3: edge tuples carry the observation's role (edge_value.h).
//   4: the `counters` key, which every writer must keep (or blank) in each
//      commit: a testmap of schema 3 would ingest without updating it, so
//      it must refuse such an index rather than leave the counts stale.
// An index of schema kOldestMigratedSchema .. kSchemaVersion - 1 is read
// as it is and migrated in place by the first writer (IndexStore::Open with
// OpenMode::kWrite), never refused: schema 1 -> 2 adds the timings column
// family (an index without it reads as holding no timing files), schema
// 2 -> 3 needs no rewrite, since a schema 2 tuple (no role) decodes as role
// `test`; 3 -> 4: an index without counters is counted by walking it
// (readers) and counted once by the first ingest, which stores them. The
// writer creates the missing column families first and writes the new
// version last, so a kill midway leaves an index that reads as before and
// that the next writer migrates again.
inline constexpr int kSchemaVersion = 4;
inline constexpr int kOldestMigratedSchema = 1;
inline constexpr char kSchemaVersionKey[] = "schema_version";
inline constexpr char kCreatedByKey[] = "created_by";
inline constexpr char kCountersKey[] = "counters";

// The overload of static evidence (a packet, no overload known).
inline constexpr char kStaticOverload[] = "*";

// Column families in a fixed order; IndexStore opens all of them.
enum class Cf {
  kDefault,
  kTests,
  kGeneric,
  kOpTests,
  kTestOps,
  kOutcomes,
  kRuns,
  kTimings,
  kBackends,
};
inline constexpr int kCfCount = 9;
// Column families an index of `schema` may lack (read as empty, created by
// the first writer): backends came without a schema change, timings with 2.
inline bool IsOptionalCf(Cf cf, int schema) {
  return cf == Cf::kBackends || (cf == Cf::kTimings && schema < 2);
}
const char* CfName(Cf cf);

// Joins fields with '\0'.
std::string JoinKey(std::initializer_list<std::string_view> fields);
// Splits a key into its fields.
std::vector<std::string_view> SplitKey(std::string_view key);
// `fields` joined, with a trailing '\0': the prefix of every longer key.
std::string KeyPrefix(std::initializer_list<std::string_view> fields);

}  // namespace testmap::indexer
