// Whole-process benchmark of `testmap backend scan` against the baseline a
// user would otherwise reach for: a ClangTool over every C++ file with
// torch's full headers (backend_naive_clang_tool). Two backends, in the
// same run: examples/backend, and a generated one of 30 files of which 3
// register (the rest are kernels including <ATen/ATen.h>). For each: the
// naive tool, a cold scan (empty unit cache; torch's snapshot and probe
// already taken, as after any first scan with that torch) and a warm
// re-scan. Prints wall and CPU seconds and the ratios.
//
// Run by hand (not by CI):  build/bin/backend_perftest [WORK_DIR]
#include <sys/resource.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "analyzers/backend/subprocess.h"
#include "analyzers/backend/torch_probe.h"

namespace fs = std::filesystem;
namespace tb = testmap::backend;

namespace {

const std::string kBin = std::string(TESTMAP_BINARY_DIR) + "/bin/";

struct Timing {
  double wall = 0, cpu = 0;
};

double ChildrenCpu() {
  rusage u{};
  getrusage(RUSAGE_CHILDREN, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

Timing Time(const std::vector<std::string>& argv) {
  double cpu = ChildrenCpu();
  auto start = std::chrono::steady_clock::now();
  tb::ProcessResult r = tb::RunProcess(argv, "");
  Timing t{std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
           ChildrenCpu() - cpu};
  if (r.status != 0 && r.status != 1) {
    std::fprintf(stderr, "%s failed (%d):\n%s\n", argv[0].c_str(), r.status, r.err.c_str());
    std::exit(1);
  }
  return t;
}

void Write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

// 30 files: 3 TORCH_LIBRARY_IMPL blocks of 10 kernels each, 27 files of
// kernels (bodies over at:: operators) that register nothing.
fs::path Generate(const fs::path& dir) {
  const char* ops[] = {"abs", "neg", "exp", "log", "sin", "cos", "tanh", "sqrt", "rsqrt", "ceil"};
  fs::path root = dir / "generated";
  fs::remove_all(root);
  std::string header = "#pragma once\n#include <ATen/ATen.h>\nnamespace gen {\n";
  for (int f = 0; f < 27; ++f) {
    std::string src = "#include <ATen/ATen.h>\n#include \"gen/kernels.h\"\nnamespace gen {\n";
    for (int k = 0; k < 10; ++k) {
      std::string name = "k" + std::to_string(f) + "_" + std::to_string(k);
      header += "at::Tensor " + name + "(const at::Tensor& x);\n";
      src += "at::Tensor " + name + "(const at::Tensor& x) {\n  auto y = at::" + ops[k] +
             "(x) + x * 2;\n  return at::where(y > 0, y, at::zeros_like(y)).sum(0);\n}\n";
    }
    Write(root / "csrc" / ("kernels_" + std::to_string(f) + ".cpp"), src + "}  // namespace gen\n");
  }
  Write(root / "include" / "gen" / "kernels.h", header + "}  // namespace gen\n");
  for (int f = 0; f < 3; ++f) {
    std::string src =
        "#include <torch/library.h>\n#include \"gen/kernels.h\"\n"
        "TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {\n";
    for (int k = 0; k < 10; ++k)
      src += "  m.impl(\"" + std::string(ops[k]) + "\", gen::k" + std::to_string(f) + "_" +
             std::to_string(k) + ");\n";
    Write(root / "csrc" / ("register_" + std::to_string(f) + ".cpp"), src + "}\n");
  }
  return root;
}

std::vector<std::string> CppFiles(const fs::path& root) {
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.path().extension() == ".cpp") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

void Bench(const std::string& name, const fs::path& root, const fs::path& work,
           const tb::TorchProbe& torch) {
  std::vector<std::string> naive{kBin + "backend_naive_clang_tool"};
  std::vector<std::string> files = CppFiles(root);
  naive.insert(naive.end(), files.begin(), files.end());
  naive.insert(naive.end(),
               {"--", "-std=" + torch.cxx_standard, "-I" + (root / "include").string()});
  for (const auto& d : torch.include_paths) naive.insert(naive.end(), {"-isystem", d});
  naive.insert(naive.end(), {"-isystem", torch.python_include});

  // A cache that holds torch's snapshot and probe and no unit yet.
  std::string slug;
  for (char c : name) slug += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  fs::path cache = work / ("cache-" + slug);
  fs::remove_all(cache);
  fs::path empty = work / "empty";
  fs::create_directories(empty);
  std::vector<std::string> prime{kBin + "testmap", "backend",      "scan",        empty.string(),
                                 "--torch-python", TESTMAP_PYTHON, "--cache-dir", cache.string()};
  Time(prime);
  std::vector<std::string> scan{kBin + "testmap", "backend",      "scan",        root.string(),
                                "--torch-python", TESTMAP_PYTHON, "--cache-dir", cache.string(),
                                "--format",       "jsonl"};
  Timing n = Time(naive);
  Timing cold = Time(scan);
  Timing warm = Time(scan);
  std::printf(
      "%-18s %3zu files  naive %6.2f s (cpu %6.2f)  cold %6.2f s (cpu %6.2f)  "
      "warm %5.3f s  naive/cold %5.1fx (cpu %5.1fx)\n",
      name.c_str(), files.size(), n.wall, n.cpu, cold.wall, cold.cpu, warm.wall, n.wall / cold.wall,
      n.cpu / cold.cpu);
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each line as it is measured
  fs::path work =
      argc > 1 ? fs::path(argv[1]) : fs::temp_directory_path() / "testmap-backend-bench";
  fs::create_directories(work);
  tb::TorchProbe torch = tb::ProbeTorch(TESTMAP_PYTHON, nullptr);
  std::printf("torch %s, %s; the naive tool runs one file at a time, the scan on all cores\n",
              torch.torch_version.c_str(), torch.cxx_standard.c_str());
  Bench("examples/backend", fs::path(TESTMAP_SOURCE_DIR) / "examples/backend", work, torch);
  Bench("generated (3/30)", Generate(work), work, torch);
  return 0;
}
