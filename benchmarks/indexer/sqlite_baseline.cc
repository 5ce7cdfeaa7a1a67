#include "benchmarks/indexer/sqlite_baseline.h"

#include <simdjson.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unordered_map>

namespace testmap::bench {
namespace {

void Exec(sqlite3* db, const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string message = err ? err : "?";
    sqlite3_free(err);
    throw std::runtime_error(std::string("sqlite: ") + message + " in " + sql);
  }
}

sqlite3_stmt* Prepare(sqlite3* db, const char* sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK)
    throw std::runtime_error(sqlite3_errmsg(db));
  return stmt;
}

void Step(sqlite3_stmt* stmt) {
  if (sqlite3_step(stmt) != SQLITE_DONE) throw std::runtime_error("sqlite insert failed");
  sqlite3_reset(stmt);
}

}  // namespace

size_t SqliteIngest(const std::vector<std::string>& shards, const std::string& db_path,
                    bool fast_parser) {
  std::filesystem::remove(db_path);
  sqlite3* db = nullptr;
  if (sqlite3_open(db_path.c_str(), &db) != SQLITE_OK)
    throw std::runtime_error("cannot open " + db_path);
  // SQLite's default rollback journal, not WAL: loading a fresh database in
  // one transaction, it has almost no old pages to save, where WAL writes
  // every page twice (WAL made this loader about 10% slower here).
  Exec(db, "PRAGMA synchronous=NORMAL;");
  Exec(db,
       "CREATE TABLE runs(id INTEGER PRIMARY KEY, record TEXT);"
       "CREATE TABLE tests(id INTEGER PRIMARY KEY, nodeid TEXT UNIQUE);"
       "CREATE TABLE ops(id INTEGER PRIMARY KEY, name TEXT UNIQUE);"
       "CREATE TABLE outcomes(test_id INTEGER, run_id INTEGER, outcome TEXT, duration REAL);"
       "CREATE TABLE edges(op_id INTEGER, test_id INTEGER, run_id INTEGER, evidence TEXT, device "
       "TEXT,"
       " dtypes TEXT, count INTEGER);");
  Exec(db, "BEGIN");
  sqlite3_stmt* run = Prepare(db, "INSERT INTO runs(record) VALUES(?)");
  sqlite3_stmt* test = Prepare(db, "INSERT INTO tests(nodeid) VALUES(?)");
  sqlite3_stmt* op = Prepare(db, "INSERT INTO ops(name) VALUES(?)");
  sqlite3_stmt* outcome = Prepare(db, "INSERT INTO outcomes VALUES(?,?,?,?)");
  sqlite3_stmt* edge = Prepare(db, "INSERT INTO edges VALUES(?,?,?,?,?,?,?)");
  std::unordered_map<std::string, int64_t> test_ids, op_ids;
  size_t edges = 0;
  struct OpRecord {
    std::string name, evidence, device, dtypes;
    int64_t count;
  };
  auto insert_test = [&](int64_t run_id, const std::string& nodeid, const std::string& outcome_text,
                         double duration, const std::vector<OpRecord>& ops) {
    auto [t, fresh] = test_ids.emplace(nodeid, 0);
    if (fresh) {
      sqlite3_bind_text(test, 1, nodeid.c_str(), -1, SQLITE_TRANSIENT);
      Step(test);
      t->second = sqlite3_last_insert_rowid(db);
    }
    sqlite3_bind_int64(outcome, 1, t->second);
    sqlite3_bind_int64(outcome, 2, run_id);
    sqlite3_bind_text(outcome, 3, outcome_text.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(outcome, 4, duration);
    Step(outcome);
    for (const auto& o : ops) {
      auto [it, new_op] = op_ids.emplace(o.name, 0);
      if (new_op) {
        sqlite3_bind_text(op, 1, o.name.c_str(), -1, SQLITE_TRANSIENT);
        Step(op);
        it->second = sqlite3_last_insert_rowid(db);
      }
      sqlite3_bind_int64(edge, 1, it->second);
      sqlite3_bind_int64(edge, 2, t->second);
      sqlite3_bind_int64(edge, 3, run_id);
      sqlite3_bind_text(edge, 4, o.evidence.c_str(), -1, SQLITE_TRANSIENT);
      sqlite3_bind_text(edge, 5, o.device.c_str(), -1, SQLITE_TRANSIENT);
      sqlite3_bind_text(edge, 6, o.dtypes.c_str(), -1, SQLITE_TRANSIENT);
      sqlite3_bind_int64(edge, 7, o.count);
      Step(edge);
      ++edges;
    }
  };
  simdjson::dom::parser fast;
  std::vector<OpRecord> ops;
  for (const auto& path : shards) {
    std::ifstream in(path);
    int64_t run_id = 0;
    for (std::string line; std::getline(in, line);) {
      std::string type, nodeid, outcome_text;
      double duration = 0;
      ops.clear();
      if (fast_parser) {
        simdjson::dom::element rec = fast.parse(line);
        type = std::string(rec["type"].get_string().value());
        if (type == "test") {
          nodeid = std::string(rec["nodeid"].get_string().value());
          outcome_text = std::string(rec["outcome"].get_string().value());
          duration = rec["duration"].get_double().value();
          for (auto o : rec["ops"].get_array()) {
            std::string dtypes;
            for (auto d : o["dtypes"].get_array())
              dtypes += (dtypes.empty() ? "" : ",") + std::string(d.get_string().value());
            ops.push_back({std::string(o["op"].get_string().value()),
                           std::string(o["evidence"].get_string().value()),
                           std::string(o["device"].get_string().value()), dtypes,
                           o["count"].get_int64().value()});
          }
        }
      } else {
        auto rec = nlohmann::json::parse(line);
        type = rec["type"];
        if (type == "test") {
          nodeid = rec["nodeid"];
          outcome_text = rec["outcome"];
          duration = rec["duration"];
          for (const auto& o : rec["ops"]) {
            std::string dtypes;
            for (const auto& d : o["dtypes"])
              dtypes += (dtypes.empty() ? "" : ",") + d.get<std::string>();
            ops.push_back({o["op"], o["evidence"], o["device"], dtypes, o["count"].get<int64_t>()});
          }
        }
      }
      if (type == "run") {
        sqlite3_bind_text(run, 1, line.c_str(), -1, SQLITE_TRANSIENT);
        Step(run);
        run_id = sqlite3_last_insert_rowid(db);
      } else if (type == "test") {
        insert_test(run_id, nodeid, outcome_text, duration, ops);
      }
    }
  }
  for (auto* s : {run, test, op, outcome, edge}) sqlite3_finalize(s);
  // Both directions, like the index's op_tests and test_ops.
  Exec(db,
       "CREATE INDEX edges_by_op ON edges(op_id, test_id); CREATE INDEX edges_by_test ON "
       "edges(test_id, op_id);");
  Exec(db, "COMMIT");
  sqlite3_close(db);
  return edges;
}

std::string SqliteQuerySql(const std::string& op) {
  return "SELECT DISTINCT t.nodeid FROM edges e JOIN ops o ON o.id = e.op_id JOIN tests t ON t.id "
         "= e.test_id "
         "WHERE o.name = '" +
         op + "' ORDER BY 1;";
}

}  // namespace testmap::bench
