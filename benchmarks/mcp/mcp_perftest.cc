// The MCP server benchmark (issue 13: "a client making 1,000 tool calls on
// the 50,000-test benchmark index answers each in under 20 ms median and
// leaks no memory"). On benchmarks/indexer's synthetic suite (50,000 tests,
// 2,000,000 test-op-dtype edges, ingested by the real `testmap ingest`):
//
//   mcp   one `testmap mcp` process, one client session (this program on
//         its stdin/stdout, one request at a time), 1,000 tools/call of a
//         mix an agent makes: query_op on the long tail of operators (with
//         and without dtype filters), tests_for_ops, show_test, next pages,
//         list_ops, and the admission tools on a backend ingested with the
//         index (`ingest --backend synth`: kernels for every common operator
//         and six of every seven tail operators): admit (all tests, one
//         state, new_ops), rank_next_ops, config_explain of a small config;
//         latency per call (write to response line read), the server's RSS
//         after call 100 and after call 1,000;
//   cli   the same questions (the first 100) as one `testmap` process each
//         (`query --format json`, `show`, `ops --format json`), the way an
//         agent without MCP shells out, and `query --format nodeids`, the
//         cheapest CLI answer;
//
// prints the figures and the ratios. Every MCP answer's count is checked
// against the CLI's (every admission tool question against `testmap admit`
// or `config explain`). Usage:
//   build/bin/mcp_server_perftest [--tests N] [--calls N] [--cli N] [--dir DIR]
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "benchmarks/indexer/synthetic_traces.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t i = static_cast<size_t>(p / 100.0 * (v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

// A child with its stdin and stdout on pipes.
struct Child {
  pid_t pid = -1;
  int in = -1, out = -1;
};

Child Spawn(const std::vector<std::string>& argv, bool quiet_stderr) {
  int to[2], from[2];
  if (pipe(to) != 0 || pipe(from) != 0) std::exit(1);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(to[0], 0);
    dup2(from[1], 1);
    if (quiet_stderr) {
      int null = open("/dev/null", O_WRONLY);
      dup2(null, 2);
    }
    close(to[1]);
    close(from[0]);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(to[0]);
  close(from[1]);
  return {pid, to[1], from[0]};
}

std::string ReadAll(int fd) {
  std::string out;
  char buf[65536];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0) out.append(buf, n);
  return out;
}

// One CLI process per question, its whole answer read as a client would.
double TimeCli(const std::vector<std::string>& argv, std::string* output) {
  double t0 = Now();
  Child c = Spawn(argv, true);
  close(c.in);
  *output = ReadAll(c.out);
  close(c.out);
  int status = 0;
  waitpid(c.pid, &status, 0);
  double s = Now() - t0;
  if (!WIFEXITED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 4)) {
    std::cerr << "failed: " << argv[1] << " " << argv[2] << "\n";
    std::exit(1);
  }
  return s;
}

class Session {
 public:
  explicit Session(Child c) : c_(c) {}
  json Call(const json& request) {
    std::string line = request.dump() + "\n";
    size_t done = 0;
    while (done < line.size()) {
      ssize_t n = write(c_.in, line.data() + done, line.size() - done);
      if (n <= 0) std::exit(1);
      done += n;
    }
    if (!request.contains("id")) return nullptr;
    return json::parse(ReadLine());
  }
  std::string ReadLine() {
    while (true) {
      size_t nl = buf_.find('\n');
      if (nl != std::string::npos) {
        std::string line = buf_.substr(0, nl);
        buf_.erase(0, nl + 1);
        return line;
      }
      char chunk[1 << 16];
      ssize_t n = read(c_.out, chunk, sizeof chunk);
      if (n <= 0) {
        std::cerr << "the server closed stdout\n";
        std::exit(1);
      }
      buf_.append(chunk, n);
    }
  }
  int Close() {
    close(c_.in);
    ReadAll(c_.out);
    int status = 0;
    waitpid(c_.pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  }
  pid_t pid() const { return c_.pid; }

 private:
  Child c_;
  std::string buf_;
};

long RssKb(pid_t pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(f, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return -1;
}

struct Question {
  std::string tool;
  json args;
  std::vector<std::string> cli;  // empty: no CLI peer (a next page)
  bool next_page = false;
};

}  // namespace

int main(int argc, char** argv) {
  testmap::bench::SyntheticSpec spec;
  int calls = 1000, cli_questions = 100;
  std::string dir = (fs::temp_directory_path() / "testmap-mcp-perftest").string();
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--tests") spec.tests = std::atoi(argv[i + 1]);
    if (a == "--calls") calls = std::atoi(argv[i + 1]);
    if (a == "--cli") cli_questions = std::atoi(argv[i + 1]);
    if (a == "--dir") dir = argv[i + 1];
  }
  std::string testmap = std::string(TESTMAP_BINARY_DIR) + "/bin/testmap";
  std::string index = dir + "/index";
  std::string stamp =
      std::to_string(spec.tests) + " tests, seed " + std::to_string(spec.seed) + ", backend synth";
  std::string python = TESTMAP_PYTHON;
  std::string records = dir + "/backend.jsonl", config = dir + "/allowed/synth.yaml";
  testmap::bench::SyntheticTraces traces;
  {
    // The shards are rewritten (cheap, deterministic) for their op names;
    // the index only when it is not the one for this spec.
    fs::create_directories(dir + "/shards");
    double t0 = Now();
    traces = testmap::bench::WriteSyntheticTraces(dir + "/shards", spec);
    // The backend (as benchmarks/mapper/admit's): kernels for every common
    // operator and six of every seven tail operators.
    std::ofstream out(records);
    auto record = [&](const std::string& op) {
      out << R"({"op":")" << op
          << R"(","dispatch_key":"PrivateUse1","kind":"kernel","mechanism":"m.impl","file":"ops.cpp","line":1,"evidence":"static"})"
          << "\n";
    };
    for (const auto& op : traces.common_op_names) record(op);
    for (size_t i = 0; i < traces.tail_op_names.size(); ++i)
      if (i % 7 != 3) record(traces.tail_op_names[i]);
    out.close();
    // A small test_suite_config: a few files, a mode each.
    fs::create_directories(dir + "/allowed");
    std::ofstream(config) << "test_suite_config:\n  files:\n"
                             "    - path: ${TORCH_ROOT}/test_synth1.py\n"
                             "      unlisted_test_mode: skip\n"
                             "      tests:\n        - names: [TestSynth::test_case1]\n"
                             "    - path: ${TORCH_ROOT}/test_synth2*.py\n"
                             "      tests:\n        - names: [TestSynth::test_case.*]\n"
                             "          mode: xfail_strict\n";
    std::ifstream s(dir + "/stamp");
    std::string have;
    std::getline(s, have);
    if (have != stamp || !fs::exists(index + "/CURRENT")) {
      fs::remove_all(index);
      std::string ingested;
      TimeCli({testmap, "ingest", "--index", index, "--backend", "synth", records, dir + "/shards"},
              &ingested);
      std::ofstream(dir + "/stamp") << stamp << "\n";
    }
    std::printf("synthetic index: %d tests, %zu test-op-dtype edges (%.1f s to prepare)\n",
                spec.tests, traces.edges, Now() - t0);
  }

  // The questions, deterministic: mostly distinct, as an agent's are.
  std::mt19937 rng(13);
  std::vector<std::string> tail = traces.tail_op_names;
  std::shuffle(tail.begin(), tail.end(), rng);
  const char* dtypes[] = {"float32", "bfloat16", "int64", "float16"};
  auto q = [&](std::string tool, json args, std::vector<std::string> cli) {
    return Question{std::move(tool), std::move(args), std::move(cli)};
  };
  std::vector<Question> questions;
  for (int i = 0; static_cast<int>(questions.size()) < calls; ++i) {
    const std::string& op = tail[i % tail.size()];
    const std::string& other = tail[(i * 7 + 3) % tail.size()];
    int kind = i % 20;
    int t = (i * 2654435761u) % spec.tests;  // the generator's node ids, spread over the suite
    std::string test = "test_synth" + std::to_string(t % 200) + ".py::TestSynthCPU::test_case" +
                       std::to_string(t) + "_cpu_";
    static const char* kSuffix[] = {"float32", "float64", "bfloat16", "float16",
                                    "int64",   "int32",   "bool",     "complex64"};
    test += kSuffix[t % 8];
    std::vector<std::string> admit_cli = {testmap,     "admit", "--index",        index,
                                          "--backend", "synth", "--torch-python", python,
                                          "--format",  "json"};
    if (kind == 0 && i % 500 == 0) {
      questions.push_back(
          q("list_ops", json::object(), {testmap, "ops", "--index", index, "--format", "json"}));
    } else if (i % 50 == 25) {
      // The admission tools, 4% of the calls: an agent asks them once per
      // backend and then pages and narrows.
      int which = (i / 50) % 5;
      if (which == 0) {
        questions.push_back(q("admit", {{"backend", "synth"}}, admit_cli));
      } else if (which == 1) {
        auto cli = admit_cli;
        cli.insert(cli.end(), {"--state", "blocked"});
        questions.push_back(q("admit", {{"backend", "synth"}, {"state", "blocked"}}, cli));
      } else if (which == 2) {
        auto cli = admit_cli;
        cli.insert(cli.end(), {"--new-op", traces.tail_op_names[3 + 7 * (i % 5)]});
        questions.push_back(
            q("admit", {{"backend", "synth"}, {"new_ops", {traces.tail_op_names[3 + 7 * (i % 5)]}}},
              cli));
      } else if (which == 3) {
        auto cli = admit_cli;
        cli.push_back("--rank");
        questions.push_back(q("rank_next_ops", {{"backend", "synth"}}, cli));
      } else {
        questions.push_back(
            q("config_explain", {{"config", config}},
              {testmap, "config", "explain", config, "--index", index, "--format", "json"}));
      }
    } else if (kind < 11) {
      questions.push_back(q("query_op", {{"op", op}},
                            {testmap, "query", "--index", index, "--op", op, "--format", "json"}));
    } else if (kind < 14) {
      std::string d = dtypes[i % 4];
      questions.push_back(
          q("query_op", {{"op", op}, {"dtypes", {d}}},
            {testmap, "query", "--index", index, "--op", op, "--dtype", d, "--format", "json"}));
    } else if (kind < 16) {
      questions.push_back(q("tests_for_ops", {{"ops", {op, other}}, {"match", "any"}},
                            {testmap, "query", "--index", index, "--op", op, "--op", other, "--any",
                             "--format", "json"}));
    } else if (kind < 19) {
      questions.push_back(
          q("show_test", {{"test", test}}, {testmap, "show", "--index", index, test}));
    } else {
      Question next = q("query_op", json::object(), {});
      next.next_page = true;
      questions.push_back(next);
    }
  }

  Session s(Spawn(
      {testmap, "mcp", "--index", index, "--allow", dir + "/allowed", "--torch-python", python},
      true));
  s.Call({{"jsonrpc", "2.0"},
          {"id", 0},
          {"method", "initialize"},
          {"params",
           {{"protocolVersion", "2025-11-25"},
            {"capabilities", json::object()},
            {"clientInfo", {{"name", "mcp_server_perftest"}, {"version", "1"}}}}}});
  s.Call({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  s.Call({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}});

  std::vector<double> latency;
  std::map<std::string, std::vector<double>> by_tool;
  std::vector<int64_t> counts(questions.size(), -1);
  long rss100 = 0, rss_end = 0;
  std::vector<long> rss_steps;  // every 250 calls: a leak grows, a warm cache levels off
  json last_query;              // for next pages
  size_t bytes = 0;
  for (size_t i = 0; i < questions.size(); ++i) {
    Question& qu = questions[i];
    std::string tool = qu.tool;
    json args = qu.args;
    if (qu.next_page) {
      if (last_query.is_null()) {
        args = {{"op", tail[0]}};
      } else {
        args = last_query["args"];
        args["cursor"] = last_query["cursor"];
      }
      tool = last_query.is_null() ? "query_op" : last_query["tool"].get<std::string>();
    }
    json request = {{"jsonrpc", "2.0"},
                    {"id", static_cast<int>(i) + 2},
                    {"method", "tools/call"},
                    {"params", {{"name", tool}, {"arguments", args}}}};
    double t0 = Now();
    json reply = s.Call(request);
    double dt = Now() - t0;
    latency.push_back(dt);
    by_tool[qu.next_page ? "next page" : tool].push_back(dt);
    if (!reply.contains("result") || reply["result"].value("isError", false)) {
      std::cerr << "call " << i << " (" << tool << " " << args.dump()
                << ") failed: " << reply.dump().substr(0, 400) << "\n";
      return 1;
    }
    const json& sc = reply["result"]["structuredContent"];
    bytes += reply.dump().size();
    if (sc.contains("count")) counts[i] = sc["count"].get<int64_t>();
    if (tool == "admit" || tool == "rank_next_ops" || tool == "config_explain")
      counts[i] = sc["page"]["total"].get<int64_t>();
    if (!qu.next_page && (tool == "query_op" || tool == "tests_for_ops") &&
        !sc["page"]["next_cursor"].is_null()) {
      last_query = {{"tool", tool}, {"args", args}, {"cursor", sc["page"]["next_cursor"]}};
    }
    if (i + 1 == 100) rss100 = RssKb(s.pid());
    if ((i + 1) % 250 == 0) rss_steps.push_back(RssKb(s.pid()));
  }
  rss_end = RssKb(s.pid());
  int rc = s.Close();

  // Every admission tool question against the CLI's answer (its list's length).
  std::map<std::string, int64_t> admission_totals;
  for (size_t i = 0; i < questions.size(); ++i) {
    const Question& qu = questions[i];
    if (qu.tool != "admit" && qu.tool != "rank_next_ops" && qu.tool != "config_explain") continue;
    std::string line;
    for (const auto& a : qu.cli) line += a + " ";
    auto known = admission_totals.find(line);
    if (known == admission_totals.end()) {
      std::string out;
      TimeCli(qu.cli, &out);
      json doc = json::parse(out);
      int64_t total = qu.tool == "rank_next_ops" ? doc["rank"]["ops"].size()
                      : doc.contains("new_op")   ? doc["new_op"]["admits"].size()
                                                 : doc["tests"].size();
      known = admission_totals.emplace(line, total).first;
    }
    if (known->second != counts[i]) {
      std::cerr << "answers differ for " << qu.tool << " question " << i << ": mcp " << counts[i]
                << ", cli " << known->second << "\n";
      return 1;
    }
  }

  // The CLI, one process per question, for the first questions with a peer.
  std::vector<double> cli_json_s, cli_ids_s, mcp_same;
  int checked = 0;
  for (size_t i = 0; i < questions.size() && checked < cli_questions; ++i) {
    const Question& qu = questions[i];
    if (qu.cli.empty() || qu.tool == "admit" || qu.tool == "rank_next_ops" ||
        qu.tool == "config_explain")
      continue;
    std::string out;
    cli_json_s.push_back(TimeCli(qu.cli, &out));
    mcp_same.push_back(latency[i]);
    json doc = json::parse(out);
    if (counts[i] >= 0 && doc.value("count", int64_t{-1}) != counts[i]) {
      std::cerr << "answers differ for question " << i << ": mcp " << counts[i] << ", cli "
                << doc.value("count", int64_t{-1}) << "\n";
      return 1;
    }
    if (qu.cli[1] == "query") {
      std::vector<std::string> ids = qu.cli;
      ids.back() = "nodeids";
      cli_ids_s.push_back(TimeCli(ids, &out));
    }
    ++checked;
  }

  double med = Percentile(latency, 50);
  std::printf("\n%zu tools/call in one session (index: %s)\n", latency.size(), index.c_str());
  std::printf(
      "  per call   median %6.2f ms   p95 %6.2f ms   p99 %6.2f ms   max %7.1f ms   (target: median "
      "< 20 ms)\n",
      med * 1e3, Percentile(latency, 95) * 1e3, Percentile(latency, 99) * 1e3,
      Percentile(latency, 100) * 1e3);
  for (const auto& [tool, v] : by_tool) {
    std::printf("  %-14s %4zu calls  median %6.2f ms  p95 %6.2f ms\n", tool.c_str(), v.size(),
                Percentile(v, 50) * 1e3, Percentile(v, 95) * 1e3);
  }
  std::printf("  answers: %.1f KB per response on average (a page of at most 100 tests)\n",
              bytes / 1e3 / latency.size());
  std::printf(
      "  server RSS  after call 100: %.1f MB   after call %zu: %.1f MB   (growth %+.1f MB)\n",
      rss100 / 1e3, latency.size(), rss_end / 1e3, (rss_end - rss100) / 1e3);
  std::printf("  server RSS every 250 calls:");
  for (long kb : rss_steps) std::printf(" %.1f", kb / 1e3);
  std::printf(" MB\n");
  std::printf("  server exit code after stdin closed: %d\n", rc);
  std::printf("  admission tool questions checked against the CLI: %zu distinct\n",
              admission_totals.size());
  double cli = Percentile(cli_json_s, 50), mcp = Percentile(mcp_same, 50);
  std::printf("\nthe same %d questions, one CLI process each (answers checked equal)\n", checked);
  std::printf("  testmap mcp (tools/call)            median %6.2f ms\n", mcp * 1e3);
  std::printf("  testmap query/show/ops --format json median %6.2f ms   %5.1fx slower\n", cli * 1e3,
              cli / mcp);
  std::printf("  testmap query --format nodeids      median %6.2f ms   %5.1fx slower\n",
              Percentile(cli_ids_s, 50) * 1e3, Percentile(cli_ids_s, 50) / mcp);
  return rc == 0 && med < 0.020 ? 0 : 1;
}
