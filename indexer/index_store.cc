#include "indexer/index_store.h"

#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/table.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <thread>
#include <utility>

#include "core/errors.h"
#include "core/rocksdb_no_log.h"

namespace testmap::indexer {
namespace {

namespace fs = std::filesystem;

std::string UpperBound(std::string prefix) {
  while (!prefix.empty() && static_cast<unsigned char>(prefix.back()) == 0xff) prefix.pop_back();
  if (!prefix.empty())
    prefix.back() = static_cast<char>(static_cast<unsigned char>(prefix.back()) + 1);
  return prefix;
}

class RocksCursor : public IndexCursor {
 public:
  explicit RocksCursor(rocksdb::Iterator* it) : it_(it) {}
  void Seek(std::string_view target) override {
    it_->Seek(rocksdb::Slice(target.data(), target.size()));
  }
  bool Valid() const override { return it_->Valid(); }
  void Next() override { it_->Next(); }
  std::string_view key() const override { return it_->key().ToStringView(); }
  std::string_view value() const override { return it_->value().ToStringView(); }

 private:
  std::unique_ptr<rocksdb::Iterator> it_;
};

// A cursor over a column family an older index does not have.
class EmptyCursor : public IndexCursor {
 public:
  void Seek(std::string_view) override {}
  bool Valid() const override { return false; }
  void Next() override {}
  std::string_view key() const override { return {}; }
  std::string_view value() const override { return {}; }
};

// A reader never flushes or compacts, so it needs none of the background
// threads RocksDB starts for a database (two per open, which a query that
// lives a few milliseconds would pay for).
class ReaderEnv : public rocksdb::EnvWrapper {
 public:
  ReaderEnv() : rocksdb::EnvWrapper(rocksdb::Env::Default()) {}
  const char* Name() const override { return "TestmapReaderEnv"; }
  void SetBackgroundThreads(int, Priority) override {}
  void IncBackgroundThreadsIfNeeded(int, Priority) override {}
};

rocksdb::Options BaseOptions(OpenMode mode) {
  rocksdb::Options options;
  // All table files are opened at open: a reader then keeps working even
  // when a concurrent writer's compaction deletes files it still reads.
  options.max_open_files = -1;
  options.skip_stats_update_on_db_open = true;
  // Opening a handful of files needs no thread pool; RocksDB would start 16
  // threads per column family, which costs a short query more than its reads.
  options.max_file_opening_threads = 1;
  // Readers must not write into the index directory (a LOG per query would
  // pile up, and a read-only mount would fail), and a writer's LOG on a full
  // disk aborted `ingest` (core/rocksdb_no_log.h): none logs.
  options.info_log = core::RocksDbNoLog();
  if (mode == OpenMode::kRead) {
    static ReaderEnv* reader_env = new ReaderEnv();  // process-wide, as Env::Default() is
    options.env = reader_env;
    options.stats_dump_period_sec = 0;
    options.stats_persist_period_sec = 0;
  }
  rocksdb::BlockBasedTableOptions table;
  // 16 KiB blocks: a quarter of the index entries of the 4 KiB default, and
  // an answer of a few thousand edges still reads only a few blocks.
  table.block_size = 16 * 1024;
  // Index blocks load on first use, not at open: a query touches one or two
  // column families and should not pay for the others' indexes.
  table.cache_index_and_filter_blocks = true;
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return options;
}

class RocksIndexStore : public IndexStore {
 public:
  RocksIndexStore(std::string dir, OpenMode mode, CfSet cfs)
      : dir_(std::move(dir)),
        mode_(mode),
        cfs_(mode == OpenMode::kWrite ? kAllCfs : cfs | CfBit(Cf::kDefault)) {}
  ~RocksIndexStore() override {
    for (auto* h : handles_) {
      if (h) db_->DestroyColumnFamilyHandle(h);
    }
    if (db_) {
      db_->Close();
      delete db_;
    }
  }

  void OpenExisting();

  const std::string& dir() const override { return dir_; }

  std::optional<std::string> Get(Cf cf, std::string_view key) const override {
    if (!Handle(cf)) return std::nullopt;  // an optional column family not there yet
    std::string value;
    auto s = db_->Get(rocksdb::ReadOptions(), Handle(cf), rocksdb::Slice(key.data(), key.size()),
                      &value);
    if (s.IsNotFound()) return std::nullopt;
    Check(s, "read");
    return value;
  }

  void Scan(Cf cf, std::string_view prefix,
            const std::function<bool(std::string_view, std::string_view)>& fn) const override {
    if (!Handle(cf)) return;
    std::string upper = UpperBound(std::string(prefix));
    rocksdb::Slice upper_slice(upper);
    rocksdb::ReadOptions ro;
    if (!upper.empty()) ro.iterate_upper_bound = &upper_slice;
    // A prefix is read once, in order: caching its blocks would only cost
    // an allocation and a cache insert per block (and their page faults).
    ro.fill_cache = false;
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, Handle(cf)));
    for (it->Seek(rocksdb::Slice(prefix.data(), prefix.size())); it->Valid(); it->Next()) {
      if (!fn(it->key().ToStringView(), it->value().ToStringView())) break;
    }
    Check(it->status(), "read");
  }

  std::unique_ptr<IndexCursor> NewCursor(Cf cf) const override {
    // Cursors serve one pass of forward seeks over scattered keys (the
    // details of a query's tests): each block is read once, so caching it
    // only costs an allocation.
    rocksdb::ReadOptions ro;
    ro.fill_cache = false;
    if (!Handle(cf)) return std::make_unique<EmptyCursor>();
    return std::make_unique<RocksCursor>(db_->NewIterator(ro, Handle(cf)));
  }

  void Commit(const IndexBatch& batch) override;
  void Delete(const std::vector<std::pair<Cf, std::string>>& keys) override;

 private:
  rocksdb::ColumnFamilyHandle* Handle(Cf cf) const {
    if (!(cfs_ & CfBit(cf)))
      throw std::logic_error(std::string("index column family `") + CfName(cf) +
                             "` read but not opened");
    return handles_[static_cast<int>(cf)];
  }
  void Check(const rocksdb::Status& s, const std::string& what) const {
    if (!s.ok()) throw core::InputError(dir_ + ": index " + what + " failed: " + s.ToString());
  }
  // Writes the schema version into a table file, not only the WAL. A
  // read-only open reads the MANIFEST, then lists the WAL files; the next
  // writer's recovery moves a WAL into a table file and deletes it, and a
  // reader between the two saw neither, so the version was missing and a
  // complete index read as unfinished (concurrent_readers_test).
  void PutSchemaVersion(const std::string& what) {
    rocksdb::WriteOptions wo;
    wo.sync = true;
    Check(db_->Put(wo, Handle(Cf::kDefault), kSchemaVersionKey, std::to_string(kSchemaVersion)),
          what);
    Check(db_->Flush(rocksdb::FlushOptions(), Handle(Cf::kDefault)), what);
  }

  std::string dir_;
  OpenMode mode_;
  CfSet cfs_;                // opened (and, when present, readable)
  bool unfinished_ = false;  // created, first commit still to come (CreateIndex)
  rocksdb::DB* db_ = nullptr;
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
};

bool IsLockError(const rocksdb::Status& s) {
  return s.IsIOError() &&
         (s.ToString().find("lock") != std::string::npos ||
          s.ToString().find("Resource temporarily unavailable") != std::string::npos);
}

void RocksIndexStore::OpenExisting() {
  if (!fs::exists(dir_ + "/CURRENT")) {
    throw core::InputError(dir_ + " is not a testmap index (no RocksDB CURRENT file in it)");
  }
  rocksdb::Options options = BaseOptions(mode_);
  // A reader of column families that every index has need not list them
  // first (one read of the MANIFEST fewer); should one be missing after
  // all, the listing below says which.
  bool listed = mode_ == OpenMode::kWrite || cfs_ == kAllCfs;
  for (int c = 0; c < kCfCount; ++c)
    listed |= (cfs_ & CfBit(static_cast<Cf>(c))) &&
              IsOptionalCf(static_cast<Cf>(c), kOldestMigratedSchema);  // schema not read yet
  std::vector<std::string> names;
  rocksdb::Status s;
  if (listed) {
    s = rocksdb::DB::ListColumnFamilies(options, dir_, &names);
    if (!s.ok()) throw core::InputError(dir_ + " is not a readable testmap index: " + s.ToString());
  } else {
    for (int c = 0; c < kCfCount; ++c)
      if (cfs_ & CfBit(static_cast<Cf>(c))) names.push_back(CfName(static_cast<Cf>(c)));
  }
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  auto describe = [&] {
    descriptors.clear();
    for (const auto& n : names) {
      bool wanted = mode_ == OpenMode::kWrite;  // a writer opens every one there is
      for (int c = 0; c < kCfCount; ++c)
        wanted |= n == CfName(static_cast<Cf>(c)) && (cfs_ & CfBit(static_cast<Cf>(c)));
      if (wanted) descriptors.emplace_back(n, rocksdb::ColumnFamilyOptions(options));
    }
  };
  describe();
  std::vector<rocksdb::ColumnFamilyHandle*> opened;
  auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(mode_ == OpenMode::kWrite ? 60 : 5);
  bool told = false;
  while (true) {
    s = mode_ == OpenMode::kRead
            ? rocksdb::DB::OpenForReadOnly(options, dir_, descriptors, &opened, &db_)
            : rocksdb::DB::Open(options, dir_, descriptors, &opened, &db_);
    if (!s.ok() && !listed) {
      // A column family assumed present is not (or this is no index at
      // all): list them, which says what is wrong, here or below.
      listed = true;
      s = rocksdb::DB::ListColumnFamilies(options, dir_, &names);
      if (!s.ok())
        throw core::InputError(dir_ + " is not a readable testmap index: " + s.ToString());
      describe();
      continue;
    }
    if (s.ok() || std::chrono::steady_clock::now() > deadline) break;
    if (mode_ == OpenMode::kWrite && !IsLockError(s)) break;
    // A writer holds the lock (kWrite), or a concurrent commit replaced the
    // MANIFEST between listing and reading it (kRead): try again shortly.
    if (mode_ == OpenMode::kWrite && !told && isatty(2)) {
      fprintf(stderr, "testmap: waiting for another ingest into %s to finish...\n", dir_.c_str());
      told = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(mode_ == OpenMode::kWrite ? 100 : 5));
  }
  if (!s.ok()) {
    if (IsLockError(s))
      throw core::InputError(dir_ + ": another testmap ingest is writing this index (" +
                             s.ToString() + ")");
    throw core::InputError(dir_ + ": cannot open the index: " + s.ToString());
  }
  handles_.assign(kCfCount, nullptr);
  for (size_t i = 0; i < descriptors.size(); ++i) {
    bool known = false;
    for (int c = 0; c < kCfCount; ++c) {
      if (descriptors[i].name == CfName(static_cast<Cf>(c))) {
        handles_[c] = opened[i];
        known = true;
      }
    }
    if (!known) db_->DestroyColumnFamilyHandle(opened[i]);
  }
  // The schema first: a newer index may have other column families, and
  // its message must say "newer", not "damaged".
  auto version = Get(Cf::kDefault, kSchemaVersionKey);
  if (!version && Get(Cf::kDefault, kCreatedByKey)) {
    // Created, but its first commit never happened (the ingest creating it
    // was killed): no answer may come from it; the next writer completes it.
    if (mode_ == OpenMode::kRead)
      throw core::InputError(dir_ +
                             ": an unfinished index: the `testmap ingest` that created it "
                             "stopped before its first commit; run that ingest again");
    unfinished_ = true;
    version = std::to_string(kSchemaVersion);
  }
  if (!version)
    throw core::InputError(
        dir_ + " is a RocksDB database but not a testmap index (no schema version key)");
  int v = std::atoi(version->c_str());
  if (v > kSchemaVersion) {
    throw core::InputError(dir_ + ": index schema version " + *version +
                           " is newer than this testmap (schema " + std::to_string(kSchemaVersion) +
                           "): upgrade testmap or rebuild the index");
  }
  if (v < kOldestMigratedSchema)
    throw core::InputError(dir_ + ": invalid index schema version '" + *version + "'");
  // Migration in place (index_layout.h), each step idempotent so that a
  // kill between them leaves an index the next writer migrates again: the
  // column families the old schema lacks first, the new version last.
  for (int c = 0; c < kCfCount; ++c) {
    if (!(cfs_ & CfBit(static_cast<Cf>(c)))) continue;  // not wanted by this reader
    if (!handles_[c] && IsOptionalCf(static_cast<Cf>(c), v)) {
      // Added after the index was made: read as empty, the writer adds it.
      if (mode_ == OpenMode::kWrite)
        Check(db_->CreateColumnFamily(rocksdb::ColumnFamilyOptions(options),
                                      CfName(static_cast<Cf>(c)), &handles_[c]),
              "create column family");
      continue;
    }
    if (!handles_[c]) {
      throw core::InputError(dir_ + ": damaged index: column family `" +
                             CfName(static_cast<Cf>(c)) + "` is missing");
    }
  }
  if (v < kSchemaVersion && mode_ == OpenMode::kWrite) {
    // Older values stay readable as they are.
    PutSchemaVersion("schema migration");
  }
  if (mode_ == OpenMode::kWrite) {
    // Leftovers of an ingest that was killed before its commit; we hold the
    // lock, so no live writer owns them.
    for (const auto& entry : fs::directory_iterator(dir_)) {
      if (entry.path().filename().string().starts_with(".ingest-")) fs::remove_all(entry.path());
    }
  }
}

// Whether `dir` (which has no CURRENT file) may become an index: it holds
// nothing, or only what testmap itself puts there (`testmap trace` writes
// .testmap/traces/ by default), or what an interrupted creation left.
bool IsCreatable(const fs::path& dir) {
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    bool own = name == "traces" || name == "IDENTITY" || name == "LOCK" ||
               name.starts_with("LOG") || name.starts_with("MANIFEST-") ||
               name.starts_with("OPTIONS-") || name.ends_with(".log") || name.ends_with(".sst") ||
               name.ends_with(".dbtmp");
    if (!own) return false;
  }
  return true;
}

// An empty index is built beside `dir` and moved in, CURRENT last: RocksDB
// (and IndexStore::Open) take a directory for a database only once CURRENT
// exists, so a crash while creating never leaves something that looks like
// a broken index. It has no schema version until its first Commit: a kill
// before that leaves an index that readers refuse as unfinished (never an
// empty answer) and the next writer completes.

// Whether Open(dir, kWrite) must create the index first.
bool NeedsCreating(const std::string& dir) {
  std::error_code ec;
  return !fs::exists(dir, ec) ||
         (fs::is_directory(dir, ec) && !fs::exists(dir + "/CURRENT") && IsCreatable(dir));
}

// Builds the empty index in `target.creating-PID` and returns that path.
std::string BuildEmptyIndex(const fs::path& target) {
  if (target.has_parent_path()) fs::create_directories(target.parent_path());
  std::string tmp = target.string() + ".creating-" + std::to_string(getpid());
  // Leftovers of creations killed midway (their process is gone).
  std::error_code ec;
  std::string stem = target.filename().string() + ".creating-";
  for (const auto& entry : fs::directory_iterator(target.parent_path(), ec)) {
    std::string name = entry.path().filename().string();
    if (!name.starts_with(stem)) continue;
    pid_t pid = std::atoi(name.c_str() + stem.size());
    if (pid > 0 && kill(pid, 0) != 0 && errno == ESRCH) fs::remove_all(entry.path(), ec);
  }
  fs::remove_all(tmp);
  rocksdb::Options options = BaseOptions(OpenMode::kWrite);
  options.create_if_missing = true;
  rocksdb::DB* db = nullptr;
  auto s = rocksdb::DB::Open(options, tmp, &db);
  // All column families in one call: RocksDB then writes its OPTIONS file
  // (three synced writes) once, not once per column family.
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (int c = 0; c < kCfCount; ++c) {
    if (static_cast<Cf>(c) == Cf::kDefault) continue;
    descriptors.emplace_back(CfName(static_cast<Cf>(c)), rocksdb::ColumnFamilyOptions(options));
  }
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  if (s.ok()) s = db->CreateColumnFamilies(descriptors, &handles);
  // No schema version yet: the first Commit writes it, and until then the
  // index reads as unfinished, never as a valid index that holds nothing.
  rocksdb::WriteOptions wo;
  wo.sync = true;
  if (s.ok()) s = db->Put(wo, kCreatedByKey, "testmap");
  for (auto* h : handles) db->DestroyColumnFamilyHandle(h);
  if (db) {
    rocksdb::Status closed = db->Close();
    if (s.ok()) s = closed;
    delete db;
  }
  if (!s.ok()) throw core::InputError(tmp + ": cannot create the index: " + s.ToString());
  return tmp;
}

// Moves the index BuildEmptyIndex built at `tmp` into `target`.
void MoveIndexIn(const std::string& tmp, const fs::path& target, const std::string& dir) {
  std::error_code ec;
  fs::create_directories(target, ec);
  for (const auto& entry : fs::directory_iterator(tmp)) {
    if (entry.path().filename() != "CURRENT")
      fs::rename(entry.path(), target / entry.path().filename(), ec);
    if (ec) break;
  }
  if (!ec) fs::rename(fs::path(tmp) / "CURRENT", target / "CURRENT", ec);
  fs::remove_all(tmp);
  if (ec) throw core::InputError(dir + ": cannot create the index: " + ec.message());
}

// Writes one column family's puts as an SST file at `path`. SST files need
// strictly increasing keys: unless the batch says its puts are already in
// order (and they are), they are sorted on (key, insertion order) and only
// the last put of a key is written (a later record of the same test wins).
rocksdb::Status WriteSortedSst(const std::vector<IndexBatch::Entry>& entries, bool presorted,
                               const std::function<void(const IndexBatch::Sink&)>& producer,
                               const std::string& path, const rocksdb::Options& options,
                               rocksdb::ColumnFamilyHandle* cf) {
  std::vector<std::pair<std::string_view, uint32_t>> order;
  bool in_order = presorted;
  for (size_t i = 1; in_order && i < entries.size(); ++i)
    in_order = entries[i - 1].key < entries[i].key;
  if (!in_order) {
    order.reserve(entries.size());
    for (uint32_t i = 0; i < entries.size(); ++i) order.emplace_back(entries[i].key, i);
    std::sort(order.begin(), order.end());
  }
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options, cf);
  auto s = writer.Open(path);
  if (producer) {
    // SstFileWriter refuses keys out of strictly increasing order itself
    // ("Keys must be added in strict ascending order"): no second check.
    producer([&](std::string_view key, std::string_view value) {
      if (!s.ok()) return;
      s = writer.Put(rocksdb::Slice(key.data(), key.size()),
                     rocksdb::Slice(value.data(), value.size()));
    });
    if (s.ok()) s = writer.Finish();
    return s;
  }
  for (size_t i = 0; s.ok() && i < entries.size(); ++i) {
    if (in_order) {
      s = writer.Put(entries[i].key, entries[i].value);
      continue;
    }
    if (i + 1 < order.size() && order[i + 1].first == order[i].first) continue;
    const auto& e = entries[order[i].second];
    s = writer.Put(e.key, e.value);
  }
  if (s.ok()) s = writer.Finish();
  return s;
}

void RocksIndexStore::Commit(const IndexBatch& batch) {
  if (mode_ != OpenMode::kWrite) throw core::InputError(dir_ + ": index opened read-only");
  std::string tmp = dir_ + "/.ingest-" + std::to_string(getpid());
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  // The staging files go whichever way the commit ends: a commit that fails
  // on a full disk gives their space back at once.
  struct Staging {
    std::string dir;
    ~Staging() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } staging{tmp};
  rocksdb::Options options = BaseOptions(mode_);
  // A batch that does not keep the counters blanks them (index_store.h).
  constexpr int kDefaultCf = static_cast<int>(Cf::kDefault);
  std::vector<IndexBatch::Entry> defaults = batch.entries(kDefaultCf);
  bool keeps_counters = static_cast<bool>(batch.producer(kDefaultCf));
  for (const auto& e : defaults) keeps_counters |= e.key == kCountersKey;
  if (!keeps_counters) defaults.push_back({kCountersKey, ""});
  std::vector<rocksdb::IngestExternalFileArg> args;
  std::vector<rocksdb::Status> status(kCfCount);
  // A producer that throws stops the commit before anything is ingested.
  std::vector<std::exception_ptr> errors(kCfCount);
  // One thread per column family: the two edge directions are the bulk and
  // sort independently. Producers that count what the others wrote go last.
  for (bool late : {false, true}) {
    std::vector<std::thread> writers;
    for (int c = 0; c < kCfCount; ++c) {
      const auto& entries = c == kDefaultCf ? defaults : batch.entries(c);
      if ((entries.empty() && !batch.producer(c)) || batch.after_others(c) != late) continue;
      std::string path = tmp + "/" + CfName(static_cast<Cf>(c)) + ".sst";
      writers.emplace_back([&, c, path] {
        try {
          status[c] = WriteSortedSst(entries, batch.presorted(c), batch.producer(c), path, options,
                                     handles_[c]);
        } catch (...) {
          errors[c] = std::current_exception();
        }
      });
      rocksdb::IngestExternalFileArg arg;
      arg.column_family = handles_[c];
      arg.external_files = {path};
      arg.options.move_files = true;
      arg.options.allow_blocking_flush = true;
      args.push_back(std::move(arg));
    }
    for (auto& t : writers) t.join();
  }
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  for (const auto& s : status) Check(s, "write");
  // The commit point: one MANIFEST write covering every column family.
  if (!args.empty()) Check(db_->IngestExternalFiles(args), "ingest");
  if (unfinished_ && !Get(Cf::kDefault, kSchemaVersionKey)) {
    // The new index's completion mark, after its first data (unless the
    // batch wrote a version of its own, as tests of old schemas do).
    PutSchemaVersion("write");
  }
  unfinished_ = false;
}

void RocksIndexStore::Delete(const std::vector<std::pair<Cf, std::string>>& keys) {
  if (mode_ != OpenMode::kWrite) throw core::InputError(dir_ + ": index opened read-only");
  rocksdb::WriteBatch batch;
  std::vector<bool> touched(kCfCount, false);
  for (const auto& [cf, key] : keys) {
    if (!Handle(cf)) continue;
    Check(batch.Delete(Handle(cf), key), "delete");
    touched[static_cast<int>(cf)] = true;
  }
  rocksdb::WriteOptions wo;
  wo.sync = true;
  Check(db_->Write(wo, &batch), "delete");
  // Tombstones alone keep the bytes until a compaction gets to them.
  for (int c = 0; c < kCfCount; ++c) {
    if (touched[c])
      Check(db_->CompactRange(rocksdb::CompactRangeOptions(), handles_[c], nullptr, nullptr),
            "compaction");
  }
}

}  // namespace

std::unique_ptr<IndexStore> IndexStore::Open(const std::string& dir, OpenMode mode, CfSet cfs,
                                             PreparedIndex* prepared) {
  std::error_code ec;
  bool exists = fs::exists(dir, ec);
  if (exists && !fs::is_directory(dir))
    throw core::InputError(dir + " is not a testmap index (not a directory)");
  if (mode == OpenMode::kRead && !exists) {
    throw core::InputError("no testmap index at " + dir +
                           " (create one with `testmap ingest`, or pass --index DIR)");
  }
  if (mode == OpenMode::kWrite && NeedsCreating(dir)) {
    fs::path target = fs::absolute(dir);
    std::string tmp = prepared ? prepared->Take() : "";
    MoveIndexIn(tmp.empty() ? BuildEmptyIndex(target) : tmp, target, dir);
  }
  auto store = std::make_unique<RocksIndexStore>(dir, mode, cfs);
  store->OpenExisting();
  return store;
}

PreparedIndex::PreparedIndex(const std::string& dir) {
  try {
    // Only beside a folder that exists: bad input must not leave new folders.
    if (!NeedsCreating(dir) || !fs::is_directory(fs::absolute(dir).parent_path())) return;
  } catch (const std::exception&) {
    return;  // Open says what is wrong with `dir`
  }
  builder_ = std::thread([this, target = fs::absolute(dir)] {
    try {
      tmp_ = BuildEmptyIndex(target);
    } catch (...) {
      error_ = std::current_exception();
    }
  });
}

std::string PreparedIndex::Take() {
  if (!builder_.joinable()) return "";
  builder_.join();
  if (error_) std::rethrow_exception(error_);
  return std::exchange(tmp_, "");
}

PreparedIndex::~PreparedIndex() {
  if (builder_.joinable()) builder_.join();
  std::error_code ec;
  if (!tmp_.empty()) fs::remove_all(tmp_, ec);  // never used: bad input, or created meanwhile
}

}  // namespace testmap::indexer
