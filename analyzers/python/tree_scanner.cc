#include "analyzers/python/tree_scanner.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "analyzers/python/file_scanner.h"
#include "analyzers/python/pytest_rootdir.h"
#include "analyzers/python/python_parser.h"
#include "analyzers/python/scan_cache.h"
#include "analyzers/python/scan_output.h"
#include "analyzers/python/tree_output_cache.h"
#include "core/content_hash.h"
#include "core/errors.h"

namespace fs = std::filesystem;

namespace testmap::python {
namespace {

// Bump when a change to the analysis changes any result: it invalidates
// every cached entry.
constexpr const char* kScannerVersion = "scan-18";

bool IsTestFileName(const std::string& name) {
  auto ends = [&](const char* s) {
    size_t n = std::strlen(s);
    return name.size() >= n && name.compare(name.size() - n, n, s) == 0;
  };
  return (name.rfind("test_", 0) == 0 && ends(".py")) || (ends("_test.py") && name.size() > 8);
}

// pytest's default norecursedirs, plus virtualenvs and caches it skips.
bool SkipDirectory(const fs::path& dir) {
  std::string name = dir.filename().string();
  static const std::set<std::string> names = {"_darcs",       "build", "CVS",    "dist",
                                              "node_modules", "venv",  "{arch}", "__pycache__"};
  if (name.empty() || name[0] == '.' || names.count(name)) return true;
  if (name.size() > 4 && name.compare(name.size() - 4, 4, ".egg") == 0) return true;
  std::error_code ec;
  return fs::exists(dir / "pyvenv.cfg", ec);
}

void Walk(const fs::path& dir, std::set<std::string>& active, std::vector<std::string>& out,
          std::vector<std::string>* warnings, std::vector<std::string>* errors) {
  std::error_code ec;
  fs::path canonical = fs::canonical(dir, ec);
  if (ec) {
    errors->push_back(dir.string() + ": cannot resolve: " + ec.message());
    return;
  }
  // A directory already on the current path means a symlink loop.
  if (!active.insert(canonical.string()).second) {
    warnings->push_back(dir.string() + ": symlink loop (back to " + canonical.string() +
                        "), not followed");
    return;
  }
  std::vector<fs::directory_entry> entries;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    entries.push_back(*it);
  if (ec) errors->push_back(dir.string() + ": cannot list: " + ec.message());
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.path().filename() < b.path().filename(); });
  for (const auto& e : entries) {
    std::error_code e2;
    if (e.is_directory(e2)) {
      if (!SkipDirectory(e.path())) Walk(e.path(), active, out, warnings, errors);
    } else if (e.is_regular_file(e2) && IsTestFileName(e.path().filename().string())) {
      out.push_back(e.path().string());
    } else if (e2) {
      errors->push_back(e.path().string() + ": " + e2.message());
    }
  }
  active.erase(canonical.string());
}

// One read into a buffer of the file's size: no stream copies. The size
// is checked before anything is allocated.
enum class ReadResult { kOk, kUnreadable, kTooLarge };
ReadResult ReadFile(const std::string& path, uint64_t max_bytes, std::string* out, uint64_t* size) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ReadResult::kUnreadable;
  struct stat st;
  bool ok = fstat(fd, &st) == 0;
  *size = ok ? static_cast<uint64_t>(st.st_size) : 0;
  if (ok && *size > max_bytes) {
    close(fd);
    return ReadResult::kTooLarge;
  }
  out->resize(ok ? static_cast<size_t>(st.st_size) : 0);
  size_t got = 0;
  while (ok && got < out->size()) {
    ssize_t n = read(fd, out->data() + got, out->size() - got);
    if (n <= 0) ok = n == 0;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  out->resize(got);
  close(fd);
  return ok ? ReadResult::kOk : ReadResult::kUnreadable;
}

// The tree output cache's slot (where the tree is, how it is shown), state
// (that plus every file's stat and the scan's context) and context (what a
// file's part of the answer depends on beyond its own bytes). A file
// modified in the last seconds is racy (a second write within the same
// timestamp tick would not show in its stat): `stable` is then false and
// no entry is written for this state.
struct TreeState {
  core::Hash128 slot, state, context;
  std::vector<FileStat> stats;  // the files', in order
  bool stable = true;
};
std::optional<TreeState> ComputeTreeState(const std::vector<std::string>& files,
                                          const PytestSetup& setup, const TreeScanOptions& options,
                                          const core::Hash128& context) {
  std::string text = "tree-1\n";
  std::error_code ec;
  text += fs::current_path(ec).string() + "\n" + setup.rootdir + "\n";
  for (const auto& p : setup.paths) text += p + "\n";
  text += std::to_string(static_cast<int>(*options.output)) + "\n";
  TreeState t;
  t.slot = core::ContentHash(text);
  text += std::to_string(options.max_file_bytes) + "\n" + core::HexDigest(context) + "\n";
  t.context = core::ContentHash(text);
  text.reserve(text.size() + files.size() * 100);
  t.stats.reserve(files.size());
  int64_t racy_after = static_cast<int64_t>(std::time(nullptr)) - 2;
  for (const auto& f : files) {
    struct stat st;
    if (stat(f.c_str(), &st) != 0) return std::nullopt;
    if (st.st_mtim.tv_sec >= racy_after) t.stable = false;
    const FileStat& fields = t.stats.emplace_back(FileStat{
        static_cast<uint64_t>(st.st_size), static_cast<uint64_t>(st.st_mtim.tv_sec),
        static_cast<uint64_t>(st.st_mtim.tv_nsec), static_cast<uint64_t>(st.st_ctim.tv_sec),
        static_cast<uint64_t>(st.st_ctim.tv_nsec), static_cast<uint64_t>(st.st_ino),
        static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_mode)});
    text += f;
    text += '\0';
    text.append(reinterpret_cast<const char*>(fields.data()), sizeof(uint64_t) * fields.size());
  }
  t.state = core::ContentHash(text);
  return t;
}

// Runs fn(k) for k in [0, count) on `jobs` threads, the calling one among
// them (`fn(k, true)` there, for its progress reports).
template <typename Fn>
void ForEachOnThreads(size_t count, int jobs, const Fn& fn) {
  std::atomic<size_t> next{0};
  auto work = [&](bool main) {
    for (size_t k; (k = next.fetch_add(1)) < count;) fn(k, main);
  };
  std::vector<std::jthread> threads;
  for (int t = 1; t < jobs && static_cast<size_t>(t) < count; ++t)
    threads.emplace_back(work, false);
  work(true);
}

// A file holding this many tests has its cache entry put, and its
// segment rendered, on more than one thread.
constexpr size_t kManyTests = 8192;

// The per-file cache, opened on a thread of its own when there is none on
// disk yet: creating a RocksDB (its files and syncs) took ~5 ms before the
// first file could start, and a new cache holds nothing but what this scan
// puts, so files are not kept waiting for it. One that exists is opened at
// once, for its gets.
class OpeningCache {
 public:
  explicit OpeningCache(const std::string& dir) : fresh_(IsFresh(dir)) {
    if (fresh_) {
      opening_ = std::jthread([this, dir] {
        cache_ = ScanCache::Open(dir, &error_);
        opened_.store(true, std::memory_order_release);
      });
    } else {
      cache_ = ScanCache::Open(dir, &error_);
    }
  }
  // The cache to get from, without waiting: a new one once it is open (it
  // then holds what this scan put: files with the same bytes share an
  // entry), else null.
  ScanCache* for_gets() {
    if (!fresh_) return get();
    return opened_.load(std::memory_order_acquire) ? cache_.get() : nullptr;
  }
  // The cache once open; null if it could not be, error() says why.
  ScanCache* get() {
    std::call_once(joined_, [this] {
      if (opening_.joinable()) opening_.join();
    });
    return cache_.get();
  }
  const std::string& error() {
    get();
    return error_;
  }

 private:
  // No CURRENT file: no database yet. One that cannot be looked at is
  // opened first, for RocksDB to say what is wrong.
  static bool IsFresh(const std::string& dir) {
    std::error_code ec;
    return !fs::exists(dir + "/CURRENT", ec) && !ec;
  }

  const bool fresh_;
  std::atomic<bool> opened_{false};  // a fresh cache's, set by opening_
  std::unique_ptr<ScanCache> cache_;
  std::string error_;
  std::once_flag joined_;
  std::jthread opening_;  // declared last: joined before the rest goes
};

size_t LongestId(const std::vector<TestRecord>& tests) {
  size_t n = 0;
  for (const auto& t : tests) n = std::max(n, t.nodeid.size());
  return n;
}

}  // namespace

std::vector<std::string> DiscoverTestFiles(const std::vector<std::string>& paths,
                                           std::vector<std::string>* warnings,
                                           std::vector<std::string>* errors) {
  std::vector<std::string> out;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::set<std::string> active;
      Walk(p, active, out, warnings, errors);
    } else if (fs::exists(p, ec)) {
      out.push_back(p);  // an explicit file is collected whatever its name
    } else {
      errors->push_back(p + ": no such file or directory");
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

TreeScanResult ScanTree(const TreeScanOptions& options) {
  TreeScanResult result;
  std::vector<std::string> files =
      DiscoverTestFiles(options.paths, &result.warnings, &result.errors);
  PytestSetup setup;
  auto absolute = [](const std::string& p) {
    std::string abs = fs::absolute(p).lexically_normal().string();
    if (abs.size() > 1 && abs.back() == '/') abs.pop_back();
    return abs;
  };
  setup.rootdir = absolute(options.rootdir.empty() ? "." : options.rootdir);
  for (const auto& p : options.paths) setup.paths.push_back(absolute(p));

  // The torch snapshot: its identity keys the cache; its content is loaded
  // only when some file needs it.
  std::string snapshot_path = options.snapshot_file;
  std::string snapshot_error;
  if (snapshot_path.empty() && !options.torch_python.empty()) {
    try {
      snapshot_path = torch_snapshot::EnsureTorchSnapshot(
          options.torch_python,
          options.snapshot_dir.empty() ? torch_snapshot::DefaultCacheDir() : options.snapshot_dir);
    } catch (const std::exception& e) {
      snapshot_error = e.what();
      result.snapshot_setup_error = snapshot_error;
    }
  }
  std::once_flag snapshot_once;
  std::unique_ptr<torch_snapshot::TorchSnapshot> snapshot;
  std::string snapshot_load_error;
  // A snapshot file named by the user is checked now, cheaply (its bytes
  // key the cache anyway): one that is not a snapshot of this format is bad
  // input whether or not a file needs it. Parsing it waits for a file that
  // does, so that a warm scan never pays for it.
  std::string snapshot_identity;
  std::string bytes;  // the snapshot's, parsed when a file first needs it
  if (!options.snapshot_file.empty()) {
    uint64_t size = 0;
    if (ReadFile(options.snapshot_file, uint64_t{1} << 30, &bytes, &size) != ReadResult::kOk)
      throw core::InputError(options.snapshot_file, 0, "cannot read the torch snapshot");
    if (!torch_snapshot::LooksLikeTorchSnapshot(bytes))
      throw core::InputError(options.snapshot_file, 0,
                             "not a torch snapshot of this testmap's format (" +
                                 std::string(torch_snapshot::kSnapshotFormat) + ")");
    snapshot_identity = core::HexDigest(core::ContentHash(bytes));
    result.torch_version = torch_snapshot::SnapshotTorchVersion(bytes);
  } else if (!snapshot_path.empty()) {
    // The version reported must not depend on whether some file needed
    // the snapshot's content (a warm scan needs none).
    uint64_t size = 0;
    if (ReadFile(snapshot_path, uint64_t{1} << 30, &bytes, &size) == ReadResult::kOk)
      result.torch_version = torch_snapshot::SnapshotTorchVersion(bytes);
    else
      bytes.clear();
  }
  SnapshotSource source = [&]() -> const torch_snapshot::TorchSnapshot* {
    std::call_once(snapshot_once, [&] {
      if (snapshot_path.empty()) return;
      try {
        snapshot = std::make_unique<torch_snapshot::TorchSnapshot>(
            bytes.empty() ? torch_snapshot::LoadTorchSnapshot(snapshot_path)
                          : torch_snapshot::ParseTorchSnapshot(snapshot_path, bytes));
      } catch (const std::exception& e) {
        snapshot_load_error = e.what();
      }
    });
    return snapshot.get();
  };

  std::string context_text = std::string(kScannerVersion) + "\n" + snapshot_path + "\n";
  context_text += snapshot_identity;
  for (const auto& d : options.collect.devices) context_text += d.type + "=" + d.method_name + ";";
  core::Hash128 context = core::ContentHash(context_text);

  // Why torch metadata was unavailable, when some file needed it.
  auto set_snapshot_error = [&] {
    bool needed = false;
    for (const auto& f : result.files)
      for (const auto& d : f.diagnostics)
        if (d.message.find("metadata, which is unavailable") != std::string::npos) needed = true;
    if (needed)
      result.snapshot_error = !snapshot_load_error.empty() ? snapshot_load_error
                              : !snapshot_error.empty()    ? snapshot_error
                                                        : "no --torch-python or --snapshot given";
  };
  std::optional<TreeState> tree;
  std::string tree_dir = options.cache_dir + "/scan-output";
  if (options.output && !options.cache_dir.empty() && result.errors.empty() &&
      result.warnings.empty())
    tree = ComputeTreeState(files, setup, options, context);
  // The tree's last answer: whole if nothing changed since, else the
  // segments of the files that did not change.
  std::optional<TreeOutput> prior;
  if (tree) prior = ReadTreeOutput(tree_dir, tree->slot);
  if (prior && prior->state == tree->state) {
    std::vector<OutputBytes> segments;
    for (auto& f : prior->files) {
      result.files.push_back(std::move(f.summary));
      result.tests += f.tests;
      segments.push_back(std::move(f.segment));
    }
    result.output = ComposeScan(prior->layout, prior->head, segments, prior->tail);
    result.cache_hits = result.files.size();
    result.output_from_cache = true;
    set_snapshot_error();
    return result;
  }
  if (prior && !(prior->context == tree->context)) prior.reset();
  // A file's part of the answer is the prior answer's when its path and
  // stat are the same (the stat says its bytes are: ComputeTreeState).
  std::vector<const TreeOutputFile*> reused(files.size(), nullptr);
  if (prior) {
    std::unordered_map<std::string_view, const TreeOutputFile*> by_path;
    for (const auto& f : prior->files) by_path.emplace(f.path, &f);
    for (size_t i = 0; i < files.size(); ++i)
      if (auto it = by_path.find(files[i]);
          it != by_path.end() && it->second->stat == tree->stats[i])
        reused[i] = it->second;
  }

  std::optional<OpeningCache> cache;
  if (!options.cache_dir.empty()) cache.emplace(options.cache_dir + "/scan");

  // What each file adds to the answer: its segment, rendered by the thread
  // that scanned it as soon as the layout is known (every format's but the
  // table's, whose width depends on every file's ids), its records then
  // dropped.
  struct FilePart {
    OutputBytes segment;
    uint64_t tests = 0, longest_id = 0;
    std::optional<uint64_t> seg_offset;  // where the prior entry's .seg file holds it
  };
  std::vector<FilePart> parts(files.size());
  ScanLayout layout{options.output.value_or(ScanFormat::kJsonl), 0};
  int jobs = options.jobs > 0 ? options.jobs
                              : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  CollectOptions collect = options.collect;
  collect.threads = jobs;
  auto render = [&](size_t i) {
    parts[i].segment = RenderFileSegment(result.files[i].tests, result.files[i].path, layout, jobs);
  };
  // A file of many tests frees its records on a thread of its own, beside
  // what comes next: freeing test_unary_ufuncs.py's 23,514 took ~5 ms of
  // the real files' critical path.
  std::mutex droppers_mu;
  std::vector<std::jthread> droppers;
  auto drop_records = [&](size_t i) {
    std::vector<TestRecord> dropped;
    dropped.swap(result.files[i].tests);
    if (dropped.size() < kManyTests) return;
    std::lock_guard lock(droppers_mu);
    droppers.emplace_back([records = std::move(dropped)] {});
  };
  const bool render_as_scanned = options.output && layout.format != ScanFormat::kTable;

  // A tree with no entry to take segments from writes its new one as
  // files are scanned (tree_output_cache.h, SegmentWriter).
  std::unique_ptr<SegmentWriter> seg_writer;
  if (tree && tree->stable && !prior && render_as_scanned)
    seg_writer = SegmentWriter::Begin(tree_dir, tree->slot, tree->state, files.size());

  result.files.resize(files.size());
  std::atomic<size_t> done{0}, hits{0};
  std::error_code cwd_error;
  const std::string cwd = fs::current_path(cwd_error).string();  // empty: NodeIdPath asks
  auto scan_files = [&](const std::vector<size_t>& todo) {
    ForEachOnThreads(todo.size(), jobs, [&](size_t k, bool main) {
      static thread_local std::unique_ptr<TSParser, ParserDeleter> parser = NewPythonParser();
      size_t i = todo[k];
      std::jthread put;
      std::string rel = NodeIdPath(files[i], setup, cwd);
      std::string bytes;
      uint64_t size = 0;
      ReadResult read = ReadFile(files[i], options.max_file_bytes, &bytes, &size);
      if (read != ReadResult::kOk) {
        FileScan s;
        s.path = rel;
        s.skipped = true;
        s.diagnostics.push_back({Diagnostic::Severity::kError, 0,
                                 read == ReadResult::kTooLarge
                                     ? std::to_string(size) + " bytes, over the " +
                                           std::to_string(options.max_file_bytes) +
                                           "-byte limit on a test file (--max-file-size); not read"
                                     : std::string("cannot read file")});
        result.files[i] = std::move(s);
      } else {
        core::Hash128 content = core::ContentHash(bytes);
        std::optional<FileScan> cached;
        if (ScanCache* from = cache ? cache->for_gets() : nullptr)
          cached = from->Get(content, context, rel);
        if (cached) {
          result.files[i] = std::move(*cached);
          hits.fetch_add(1);
        } else {
          result.files[i] = ScanPythonSource(parser.get(), rel, std::move(bytes), source, collect);
          // A file of many tests is put on a thread of its own, beside its
          // rendering (a thread per small file would cost more than it saves).
          ScanCache* to = cache ? cache->get() : nullptr;
          if (to && result.files[i].tests.size() >= kManyTests && render_as_scanned)
            put = std::jthread([&, i, to, content] { to->Put(content, context, result.files[i]); });
          else if (to)
            to->Put(content, context, result.files[i]);
        }
      }
      parts[i].tests = result.files[i].tests.size();
      parts[i].longest_id = LongestId(result.files[i].tests);
      if (render_as_scanned) {
        render(i);
        if (seg_writer) seg_writer->Add(i, parts[i].segment);
        if (put.joinable()) put.join();
        drop_records(i);
      }
      size_t d = done.fetch_add(1) + 1;
      if (main && options.progress) options.progress(d, todo.size());
    });
  };
  std::vector<size_t> todo;
  for (size_t i = 0; i < files.size(); ++i) {
    if (!reused[i]) {
      todo.push_back(i);
      continue;
    }
    result.files[i] = reused[i]->summary;
    parts[i] = {reused[i]->segment, reused[i]->tests, reused[i]->longest_id, reused[i]->seg_offset};
  }
  // Largest files first: a real tree's largest file holds most of its
  // tests (test_unary_ufuncs.py: 23,514 of the nine real files' 31,886),
  // and taken in path order it ran alone at the end while the other cores
  // idled. Size is the one measure of a file's work known before it is
  // read; the answer is in file order whatever order files are scanned in.
  std::vector<uint64_t> sizes(files.size());
  for (size_t i : todo) {
    struct stat st;
    sizes[i] = tree ? tree->stats[i][0] : stat(files[i].c_str(), &st) == 0 ? st.st_size : 0;
  }
  std::stable_sort(todo.begin(), todo.end(),
                   [&](size_t a, size_t b) { return sizes[a] > sizes[b]; });
  scan_files(todo);
  if (options.output && layout.format == ScanFormat::kTable) {
    size_t longest = 0;
    for (const auto& p : parts) longest = std::max<size_t>(longest, p.longest_id);
    layout.table_width = TableWidth(longest);
    if (prior && prior->layout.table_width != layout.table_width) {
      // Every row is as wide as the longest id: no row of before fits.
      std::vector<size_t> rest;
      for (size_t i = 0; i < files.size(); ++i)
        if (reused[i]) {
          rest.push_back(i);
          parts[i].seg_offset.reset();
        }
      scan_files(rest);
      todo.insert(todo.end(), rest.begin(), rest.end());
    }
    ForEachOnThreads(todo.size(), jobs, [&](size_t k, bool) {
      render(todo[k]);
      drop_records(todo[k]);
    });
  }
  // The cache's table file is written beside the rendering (joined on
  // return, whichever way).
  std::jthread flusher;
  if (ScanCache* c = cache ? cache->get() : nullptr) flusher = std::jthread([c] { c->Flush(); });
  if (cache && !cache->get())
    result.warnings.push_back("scan cache unavailable, scanning without it: " + cache->error());
  size_t reused_count = files.size() - todo.size();
  result.cache_hits = hits.load() + reused_count;
  result.segments_reused = reused_count;
  for (const auto& p : parts) result.tests += p.tests;
  set_snapshot_error();
  if (!options.output) return result;

  ScanSummary summary{result.files, result.tests, result.torch_version};
  TreeOutput entry;
  entry.layout = layout;
  entry.head = OutputBytes(RenderHead(summary, layout));
  entry.tail = OutputBytes(RenderTail(summary, layout));
  std::vector<OutputBytes> segments;
  segments.reserve(parts.size());
  for (const auto& p : parts) segments.push_back(p.segment);
  result.output = ComposeScan(layout, entry.head, segments, entry.tail);
  // A skipped file may be readable next time with the same stat.
  bool none_skipped = std::none_of(result.files.begin(), result.files.end(),
                                   [](const FileScan& f) { return f.skipped; });
  const bool writes_entry = tree && tree->stable && none_skipped;
  // Segments a SegmentWriter wrote leave only the index to write; one that
  // could not write them (a full disk) leaves nothing to try again.
  const bool segments_written = writes_entry && seg_writer && seg_writer->Finish();
  if (writes_entry && (!seg_writer || segments_written)) {
    entry.state = tree->state;
    entry.context = tree->context;
    if (prior) entry.seg_id = prior->seg_id;
    if (segments_written) {
      entry.seg_id = tree->state;
      for (size_t i = 0; i < files.size(); ++i) parts[i].seg_offset = seg_writer->Offset(i);
    }
    entry.files.reserve(files.size());
    for (size_t i = 0; i < files.size(); ++i)
      entry.files.push_back({files[i], tree->stats[i], result.files[i], parts[i].tests,
                             parts[i].longest_id, parts[i].segment, parts[i].seg_offset});
    WriteTreeOutput(tree_dir, tree->slot, entry);
  }
  return result;
}

bool IsPartial(const TreeScanResult& result) {
  if (!result.errors.empty()) return true;
  for (const auto& f : result.files)
    if (f.skipped || f.incomplete) return true;
  return false;
}

}  // namespace testmap::python
