// Split-plan quality and speed, in one run:
//  1. On PyTorch's real test-times.json, for every job's configs with at
//     least 50 files, plan 4, 8 and 16 splits at file granularity (files
//     over 600 s cut into equal pieces as PyTorch does) with testmap,
//     PyTorch's calculate_shards and pytest-split's least_duration and
//     duration_based_chunks; report makespan / lower bound. Then again with
//     20% of each config's timings hidden: every algorithm plans with what
//     it knows, makespans are measured with the true durations.
//  2. Planning 100,000 tests into 100 splits (Google Benchmark), with LPT
//     alone as the baseline.
// Usage: mapper_plan_perftest [test-times.json] [benchmark flags]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>

#include "mapper/plan/estimator.h"
#include "mapper/plan/partition.h"
#include "mapper/plan/planner.h"
#include "peer_splitters.h"
#include "timings/pytorch_times_reader.h"
#include "timings/timing_summary.h"

namespace testmap::bench {
namespace {

constexpr double kCut = 600;  // PyTorch's THRESHOLD for splitting a file
const char* const kAlgorithms[] = {"testmap", "pytorch", "least_duration", "duration_chunks"};

struct Case {
  std::string job, config;
  std::map<std::string, double> truth;  // file -> seconds
};

// One item as the peers see it: a piece of a file they know, or a whole
// file they do not.
struct PeerItem {
  std::string file;
  double known;  // < 0: unknown
  double truth;
};

std::vector<PeerItem> PeerItems(const Case& c, const std::set<std::string>& hidden) {
  std::vector<PeerItem> items;
  for (const auto& [file, seconds] : c.truth) {
    if (hidden.count(file)) {
      items.push_back({file, -1, seconds});
      continue;
    }
    int pieces = seconds > kCut ? static_cast<int>(std::ceil(seconds / kCut)) : 1;
    for (int p = 0; p < pieces; ++p) items.push_back({file, seconds / pieces, seconds / pieces});
  }
  return items;
}

double TrueMakespan(const std::vector<PeerItem>& items, const std::vector<int>& split_of,
                    int splits) {
  std::vector<double> loads(splits, 0);
  for (size_t i = 0; i < items.size(); ++i) loads[split_of[i]] += items[i].truth;
  return *std::max_element(loads.begin(), loads.end());
}

double LowerBoundOf(const Case& c, int splits) {
  double total = 0, longest = 0;
  for (const auto& [file, s] : c.truth) {
    total += s;
    int pieces = s > kCut ? static_cast<int>(std::ceil(s / kCut)) : 1;
    longest = std::max(longest, s / pieces);
  }
  return std::max(total / splits, longest);
}

double TestmapMakespan(const Case& c, const std::vector<timings::TimingSummary>& all,
                       const std::set<std::string>& hidden, int splits) {
  plan::TimingSelection selection;
  std::vector<std::string> wanted;
  for (const auto& s : all) {
    bool target = s.job == c.job && s.config == c.config;
    if (!target) {
      selection.references.push_back(s);
    } else if (!hidden.count(s.id)) {
      selection.target.push_back(s);
    }
  }
  for (const auto& [file, seconds] : c.truth) wanted.push_back(file);
  plan::PlanOptions options;
  options.splits = splits;
  options.granularity = plan::Granularity::kFile;
  options.cut_seconds = kCut;
  plan::Plan plan = plan::MakePlan(plan::BuildPlanTests(selection, wanted), options);
  double worst = 0;
  for (const auto& split : plan.splits) {
    double load = 0;
    for (int i : split.items) {
      const auto& item = plan.items[i];
      for (int t : item.tests)
        load += c.truth.at(plan.tests[t].id) / (item.pieces ? item.pieces : 1);
    }
    worst = std::max(worst, load);
  }
  return worst;
}

double Median(std::vector<double> v) { return timings::Percentile(std::move(v), 50); }

void CompareOnRealTimings(const std::string& path) {
  std::vector<timings::TimingRecord> records;
  try {
    records = timings::ReadTestTimes(path);
  } catch (const std::exception& e) {
    std::printf("skipping the quality comparison: %s\n", e.what());
    return;
  }
  const auto summaries = timings::Summarize(records);
  std::map<std::pair<std::string, std::string>, Case> by_pair;
  for (const auto& r : records) {
    Case& c = by_pair[{r.job, r.config}];
    c.job = r.job, c.config = r.config, c.truth[r.id] = r.seconds;
  }
  std::vector<Case> cases;
  for (auto& [key, c] : by_pair) {
    if (c.truth.size() >= 50) cases.push_back(std::move(c));
  }
  std::printf("Plan quality on %s: %zu job/config cases with >= 50 files\n", path.c_str(),
              cases.size());
  std::printf(
      "makespan / lower bound, lower bound = max(total/N, longest piece), true durations\n\n");
  for (double hide : {0.0, 0.2}) {
    std::printf("%s\n",
                hide == 0 ? "== all timings known" : "== 20% of timings hidden (estimated)");
    std::printf("%-7s", "splits");
    for (const char* a : kAlgorithms) std::printf(" %16s", a);
    std::printf("  %s\n", "testmap worse than a peer / worst testmap ratio");
    for (int splits : {4, 8, 16}) {
      std::map<std::string, std::vector<double>> ratios;
      int worse = 0;
      double worst = 0;
      for (const Case& c : cases) {
        std::set<std::string> hidden;
        if (hide > 0) {
          std::mt19937 rng(static_cast<unsigned>(std::hash<std::string>{}(c.job + "/" + c.config)));
          std::vector<std::string> files;
          for (const auto& [f, s] : c.truth) files.push_back(f);
          std::shuffle(files.begin(), files.end(), rng);
          hidden.insert(files.begin(), files.begin() + static_cast<long>(files.size() * hide));
        }
        const double bound = LowerBoundOf(c, splits);
        const auto items = PeerItems(c, hidden);
        std::vector<double> known;
        for (const auto& i : items) known.push_back(i.known);
        double mine = TestmapMakespan(c, summaries, hidden, splits) / bound;
        double peers[3] = {
            TrueMakespan(items, PyTorchCalculateShards(known, splits), splits) / bound,
            TrueMakespan(items, PytestSplitLeastDuration(known, splits), splits) / bound,
            TrueMakespan(items, PytestSplitDurationBasedChunks(known, splits), splits) / bound};
        ratios["testmap"].push_back(mine);
        ratios["pytorch"].push_back(peers[0]);
        ratios["least_duration"].push_back(peers[1]);
        ratios["duration_chunks"].push_back(peers[2]);
        if (mine > *std::min_element(peers, peers + 3) * (1 + 1e-9)) ++worse;
        worst = std::max(worst, mine);
      }
      std::printf("%-7d", splits);
      for (const char* a : kAlgorithms) std::printf(" %16.4f", Median(ratios[a]));
      std::printf("  %d of %zu / %.4f\n", worse, cases.size(), worst);
    }
    std::printf("\n");
  }
}

std::vector<plan::PlanTest> SyntheticSuite(int tests, int files) {
  std::mt19937 rng(1);
  std::lognormal_distribution<double> heavy(-1, 1.5);  // seconds, heavy tail
  std::vector<plan::PlanTest> out;
  out.reserve(tests);
  for (int i = 0; i < tests; ++i) {
    plan::PlanTest t;
    t.path = "test_f" + std::to_string(i % files) + ".py";
    t.file = t.path.substr(0, t.path.size() - 3);
    t.cls = "TestC";
    t.id = t.path + "::TestC::test_" + std::to_string(i);
    t.seconds = heavy(rng);
    out.push_back(std::move(t));
  }
  return out;
}

void BM_Plan100kTests100Splits(benchmark::State& state) {
  const auto tests = SyntheticSuite(100'000, 1000);
  plan::PlanOptions options;
  options.splits = 100;
  for (auto _ : state) {
    // The CLI hands its tests over by move; copying them is not planning.
    state.PauseTiming();
    auto copy = tests;
    state.ResumeTiming();
    plan::Plan plan = plan::MakePlan(std::move(copy), options);
    benchmark::DoNotOptimize(plan.makespan);
  }
}
BENCHMARK(BM_Plan100kTests100Splits)->Unit(benchmark::kMillisecond);

// The baseline: LPT alone on the same weights (no item building, no
// improvement): what pytest-split's least_duration does.
void BM_Lpt100kTests100Splits(benchmark::State& state) {
  plan::PartitionInput input;
  for (const auto& t : SyntheticSuite(100'000, 1000)) input.weights.push_back(t.seconds);
  input.bins = 100;
  for (auto _ : state) {
    plan::Partition p = plan::LptPartition(input);
    benchmark::DoNotOptimize(p.makespan);
  }
}
BENCHMARK(BM_Lpt100kTests100Splits)->Unit(benchmark::kMillisecond);

double MillisecondsOf(const std::function<void()>& prepare, const std::function<void()>& f) {
  std::vector<double> runs;
  for (int i = 0; i < 5; ++i) {
    prepare();
    auto start = std::chrono::steady_clock::now();
    f();
    runs.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  return Median(runs);
}

void PrintSpeedRatio() {
  const auto tests = SyntheticSuite(100'000, 1000);
  plan::PlanOptions options;
  options.splits = 100;
  plan::PartitionInput input;
  for (const auto& t : tests) input.weights.push_back(t.seconds);
  input.bins = 100;
  std::vector<plan::PlanTest> copy;
  plan::Plan plan;
  double plan_ms = MillisecondsOf([&] { copy = tests; },
                                  [&] { plan = plan::MakePlan(std::move(copy), options); });
  double lpt_ms =
      MillisecondsOf([] {}, [&] { benchmark::DoNotOptimize(plan::LptPartition(input).makespan); });
  std::printf(
      "100,000 tests into 100 splits: testmap plan %.1f ms (target < 200 ms), LPT alone %.1f ms, "
      "time ratio %.1fx; makespan / lower bound %.6f (LPT alone %.6f)\n\n",
      plan_ms, lpt_ms, plan_ms / lpt_ms, plan.makespan / plan.lower_bound,
      plan::LptPartition(input).makespan / plan::LowerBound(input));
}

}  // namespace
}  // namespace testmap::bench

int main(int argc, char** argv) {
  std::string path = std::string(TESTMAP_SOURCE_DIR) + "/../shared/data/pytorch-test-times.json";
  if (argc > 1 && argv[1][0] != '-') {
    path = argv[1];
    --argc, ++argv;
    argv[0] = argv[-1];
  }
  testmap::bench::CompareOnRealTimings(path);
  testmap::bench::PrintSpeedRatio();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
