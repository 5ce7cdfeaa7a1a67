// Damages an index the way an older or broken one looks: one column family
// dropped with RocksDB itself, beside testmap's own code, so that a test
// sees what a reader makes of an index testmap did not write.
#pragma once

#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <string>
#include <vector>

namespace testmap::testing {

inline ::testing::AssertionResult DropColumnFamily(const std::string& index,
                                                   const std::string& name) {
  std::vector<std::string> names;
  rocksdb::Status s = rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), index, &names);
  if (!s.ok()) return ::testing::AssertionFailure() << index << ": " << s.ToString();
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
  for (const auto& n : names) cfs.emplace_back(n, rocksdb::ColumnFamilyOptions());
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* db = nullptr;
  s = rocksdb::DB::Open(rocksdb::DBOptions(), index, cfs, &handles, &db);
  if (!s.ok()) return ::testing::AssertionFailure() << index << ": " << s.ToString();
  bool found = false;
  for (size_t i = 0; i < names.size() && s.ok(); ++i)
    if (names[i] == name) {
      found = true;
      s = db->DropColumnFamily(handles[i]);
    }
  for (auto* h : handles) db->DestroyColumnFamilyHandle(h);
  delete db;
  if (!s.ok()) return ::testing::AssertionFailure() << name << ": " << s.ToString();
  if (!found) return ::testing::AssertionFailure() << index << " has no column family " << name;
  return ::testing::AssertionSuccess();
}

}  // namespace testmap::testing
