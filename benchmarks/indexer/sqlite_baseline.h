// The baseline a team would otherwise build: the same trace records in
// SQLite, with indexed tables, loaded the fast way (one transaction,
// prepared statements, secondary indexes built after the load).
#pragma once

#include <string>
#include <vector>

namespace testmap::bench {

// Loads the shards into a new database at `db_path`, parsing each line with
// the same JSON library testmap uses. Returns the edges inserted.
// `fast_parser`: parse with simdjson (as testmap ingest does) instead of
// nlohmann-json, so that only the stores differ.
size_t SqliteIngest(const std::vector<std::string>& shards, const std::string& db_path,
                    bool fast_parser = false);

// The query `testmap query --op X --format nodeids` answers, as SQL for the
// sqlite3 shell.
std::string SqliteQuerySql(const std::string& op);

}  // namespace testmap::bench
