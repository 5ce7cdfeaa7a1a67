// RocksDB's info log, written nowhere: every RocksDB store of testmap (the
// index, the analyzers' caches) opens with it. They report failures through
// RocksDB's statuses; the LOG file RocksDB would write beside the data
// helps no user, piles up, fails on a read-only mount, and on a full disk
// aborts the process: RocksDB's log writer asserts on its next append
// after a failed one (`sync_without_flush_called_`, as Debian builds it,
// with assertions on). Header-only, for the stages that link RocksDB.
#pragma once

#include <rocksdb/env.h>

#include <cstdarg>
#include <memory>

namespace testmap::core {

class NoRocksDbLog : public rocksdb::Logger {
 public:
  using rocksdb::Logger::Logv;
  void Logv(const char*, va_list) override {}
};

inline std::shared_ptr<rocksdb::Logger> RocksDbNoLog() { return std::make_shared<NoRocksDbLog>(); }

}  // namespace testmap::core
