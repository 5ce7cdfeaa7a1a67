// testmap-backend-clang: the Clang reader of `testmap backend scan`, a
// separate executable so that no other testmap command loads LLVM.
// Reads a ClangRequest (JSON, analyzers/backend/clang_protocol.h) on stdin
// and writes one UnitResult line per translation unit on stdout, as each
// finishes. Exit status: 0 when every unit was read (parse errors are
// reported in the results), 2 on a bad request.
#include <stdlib.h>

#include <atomic>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <map>
#include <mutex>
#include <thread>

#include "analyzers/backend/clang/prelude_pch.h"
#include "analyzers/backend/clang/unit_reader.h"
#include "analyzers/backend/clang_protocol.h"

int main() {
  namespace tb = testmap::backend;
  std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  tb::ClangRequest request;
  try {
    request = tb::DecodeRequest(text);
  } catch (const std::exception& e) {
    std::cerr << "testmap-backend-clang: " << e.what() << "\n";
    return 2;
  }
  // Units that share their flags share one precompiled prelude.
  std::vector<std::string> pch(request.units.size());
  std::string pch_dir;
  if (!request.pch_prelude.empty() && request.units.size() > 1) {
    std::map<std::vector<std::string>, std::vector<size_t>> groups;
    for (size_t i = 0; i < request.units.size(); ++i)
      groups[tb::clang_reader::SharedFlags(request.units[i])].push_back(i);
    char tmpl[] = "/tmp/testmap-pch-XXXXXX";
    if (mkdtemp(tmpl)) pch_dir = tmpl;
    int index = 0;
    for (const auto& [flags, members] : groups) {
      if (members.size() < 2 || pch_dir.empty()) continue;
      std::string path = tb::clang_reader::BuildPreludePch(
          flags, request.pch_prelude, request.units[members[0]].directory, pch_dir, index++);
      for (size_t i : members) pch[i] = path;
    }
  }
  std::atomic<size_t> next{0};
  std::mutex out_mu;
  auto work = [&] {
    for (size_t i; (i = next++) < request.units.size();) {
      tb::UnitResult r;
      try {
        r = tb::clang_reader::ReadUnit(request.units[i], request, pch[i]);
      } catch (const std::exception& e) {
        r.file = request.units[i].file;
        r.parsed = false;
        r.diagnostics.push_back({tb::Diagnostic::Severity::kError, r.file, 0, e.what()});
      }
      std::string line = tb::EncodeResult(r);
      std::lock_guard<std::mutex> lock(out_mu);
      std::cout << line << "\n" << std::flush;
    }
  };
  int jobs = std::max(1, std::min<int>(request.jobs, static_cast<int>(request.units.size())));
  std::vector<std::thread> threads;
  for (int t = 1; t < jobs; ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  if (!pch_dir.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(pch_dir, ec);
  }
  return 0;
}
