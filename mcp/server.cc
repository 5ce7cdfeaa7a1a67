#include "mcp/server.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <iostream>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "mcp/index_session.h"
#include "mcp/json_rpc.h"
#include "mcp/limits.h"
#include "mcp/line_reader.h"
#include "mcp/path_policy.h"
#include "mcp/protocol.h"
#include "mcp/resources.h"
#include "mcp/tool_registry.h"
#include "mcp/torch_source.h"
#include "mcp/work_queue.h"

namespace testmap::mcp {
namespace {

// Writes whole lines; one at a time, so responses never interleave.
class Output {
 public:
  explicit Output(int fd) : fd_(fd) {}
  void Write(const std::string& line) {
    std::lock_guard<std::mutex> lock(mu_);
    if (failed_) return;
    size_t done = 0;
    while (done < line.size()) {
      ssize_t n = write(fd_, line.data() + done, line.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        failed_ = true;
        return;
      }
      done += static_cast<size_t>(n);
    }
  }
  bool failed() {
    std::lock_guard<std::mutex> lock(mu_);
    return failed_;
  }

 private:
  int fd_;
  std::mutex mu_;
  bool failed_ = false;
};

// Requests in flight by id, so notifications/cancelled can drop an answer
// nobody waits for.
class InFlight {
 public:
  void Begin(const std::string& id) {
    std::lock_guard<std::mutex> lock(mu_);
    ++state_[id].count;
  }
  void Cancel(const std::string& id) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = state_.find(id);
    if (it != state_.end()) it->second.cancelled = true;
  }
  // Ends the request; whether it was cancelled.
  bool End(const std::string& id) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = state_.find(id);
    bool cancelled = it->second.cancelled;
    if (--it->second.count == 0) state_.erase(it);
    return cancelled;
  }
  bool Cancelled(const std::string& id) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = state_.find(id);
    return it != state_.end() && it->second.cancelled;
  }

 private:
  struct State {
    int count = 0;
    bool cancelled = false;
  };
  std::mutex mu_;
  std::unordered_map<std::string, State> state_;
};

class Session {
 public:
  Session(const ServerOptions& options, int out_fd)
      : identity_{options.version, true},
        index_(options.index_dir),
        paths_(options.allow),
        torch_(options.torch_python, options.snapshot),
        out_(out_fd),
        queue_(Workers(options.workers), kMaxInFlight) {
    RegisterTools(tools_);
  }

  int Run(int in_fd) {
    std::cerr << "testmap mcp: serving " << index_.dir() << " on stdio, " << tools_.size()
              << " tools; files readable under:";
    for (const auto& r : paths_.roots()) std::cerr << " " << r;
    if (paths_.roots().empty()) std::cerr << " (none: no --allow)";
    std::cerr << "\n";
    LineReader reader(in_fd, kMaxRequestBytes);
    std::string line;
    size_t skipped = 0;
    while (!out_.failed()) {
      LineReader::Status status = reader.Next(line, skipped);
      if (status == LineReader::Status::kEof) break;
      if (status == LineReader::Status::kOversized) {
        out_.Write(ErrorLine(nullptr, RpcError(kInvalidRequest,
                                               "request of " + std::to_string(skipped) +
                                                   " bytes exceeds the limit of " +
                                                   std::to_string(kMaxRequestBytes) + " bytes",
                                               {{"limit", kMaxRequestBytes}, {"bytes", skipped}})));
        continue;
      }
      Dispatch(line);
    }
    queue_.Drain();
    return out_.failed() ? 1 : 0;
  }

 private:
  static size_t Workers(size_t asked) {
    if (asked) return asked;
    size_t cores = std::thread::hardware_concurrency();
    return std::clamp<size_t>(cores, 2, 8);
  }

  void Dispatch(const std::string& line) {
    Message m;
    try {
      m = ParseMessage(line);
    } catch (const BadMessage& bad) {
      out_.Write(ErrorLine(bad.id, bad.error));
      return;
    }
    if (m.kind == Message::Kind::kResponse) return;  // this server sends no requests
    if (m.kind == Message::Kind::kNotification) {
      Notify(m);
      return;
    }
    // The lifecycle is answered here, in order; the rest by the workers.
    if (m.method == "initialize" || m.method == "ping" || m.method == "server/discover") {
      Answer(m);
      return;
    }
    std::string key = DumpJson(m.id);
    in_flight_.Begin(key);
    queue_.Submit([this, m = std::move(m), key] {
      if (in_flight_.Cancelled(key)) {
        in_flight_.End(key);
        return;
      }
      std::string response = Respond(m);
      if (!in_flight_.End(key)) out_.Write(response);
    });
  }

  void Answer(const Message& m) { out_.Write(Respond(m)); }

  void Notify(const Message& m) {
    if (m.method == "notifications/cancelled") {
      auto id = m.params.find("requestId");
      if (id != m.params.end()) in_flight_.Cancel(DumpJson(*id));
    }
    // Others (initialized, progress, roots) change nothing here: requests
    // are served as soon as they come, in the era they are written in.
  }

  // The response line to `m`: its result or its error, never an exception.
  std::string Respond(const Message& m) {
    try {
      std::optional<std::string> modern = ModernVersionOf(m.params);
      json result = Handle(m);
      if (modern) StampModernResult(m.method, result);
      return ResultLine(m.id, result);
    } catch (const RpcError& e) {
      return ErrorLine(m.id, e);
    } catch (const std::bad_alloc&) {
      return ErrorLine(m.id, RpcError(kInternalError, "out of memory"));
    } catch (const std::exception& e) {
      std::cerr << "testmap mcp: internal error in " << m.method << ": " << e.what() << "\n";
      return ErrorLine(m.id, RpcError(kInternalError, std::string("internal error: ") + e.what()));
    }
  }

  json Handle(const Message& m) {
    const json& p = m.params;
    if (m.method == "initialize") {
      return {{"protocolVersion", NegotiateHandshake(p)},
              {"capabilities", ServerCapabilities(identity_)},
              {"serverInfo", ServerInfo(identity_)},
              {"instructions", ServerInstructions()}};
    }
    if (m.method == "ping") return json::object();
    if (m.method == "server/discover") {
      json versions = ModernVersions();
      for (const auto& v : HandshakeVersions()) versions.push_back(v);
      return {{"supportedVersions", versions},
              {"capabilities", ServerCapabilities(identity_)},
              {"instructions", ServerInstructions()},
              {"_meta", {{kServerInfoMetaKey, ServerInfo(identity_)}}}};
    }
    if (m.method == "tools/list") {
      if (p.contains("cursor")) {
        throw RpcError(kInvalidParams, "invalid cursor: tools/list has a single page");
      }
      return {{"tools", tools_.List()}};
    }
    if (m.method == "tools/call") {
      auto name = p.find("name");
      if (name == p.end() || !name->is_string()) {
        throw RpcError(kInvalidParams, "tools/call needs a \"name\" string");
      }
      auto args = p.find("arguments");
      return tools_.Call(name->get<std::string>(), args == p.end() ? json::object() : *args, index_,
                         paths_, torch_);
    }
    if (m.method == "resources/list") return ListResources(index_, p);
    if (m.method == "resources/templates/list") return ListResourceTemplates();
    if (m.method == "resources/read") return ReadResource(index_, p);
    throw RpcError(kMethodNotFound, "method not found: " + m.method);
  }

  ServerIdentity identity_;
  IndexSession index_;
  PathPolicy paths_;
  TorchSource torch_;
  ToolRegistry tools_;
  Output out_;
  InFlight in_flight_;
  WorkQueue queue_;  // last: its threads stop before the rest goes
};

}  // namespace

int Serve(const ServerOptions& options, int in_fd, int out_fd) {
  // A client that goes away closes the pipe: a failed write, not a signal.
  signal(SIGPIPE, SIG_IGN);
  Session session(options, out_fd);
  return session.Run(in_fd);
}

}  // namespace testmap::mcp
