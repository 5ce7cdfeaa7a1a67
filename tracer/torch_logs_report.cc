#include "tracer/torch_logs_report.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/read_file.h"

namespace testmap::tracer {
namespace {

using nlohmann::json;

json Nullable(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

// The tracer's compile-path record (docs/trace-format.md, `ops`).
json OpRecord(const CompileOp& op) {
  return {{"op", op.op},
          {"dtypes", op.dtypes},
          {"device", op.device ? json(*op.device) : json(nullptr)},
          {"count", op.count},
          {"evidence", "compile"},
          {"graphs", op.graphs}};
}

json GraphFields(const std::string& path, const CompileGraph& g) {
  return {{"graph", g.kind},
          {"artifact", Nullable(g.artifact)},
          {"compile_id", Nullable(g.compile_id)},
          {"rank", Nullable(g.rank)},
          {"pid", Nullable(g.pid)},
          {"file", path},
          {"line", g.line},
          {"complete", g.complete}};
}

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ",") + p;
  return out.empty() ? "-" : out;
}

}  // namespace

std::vector<LogFile> ParseLogFiles(const std::vector<std::string>& paths) {
  std::vector<LogFile> files;
  for (const auto& path : paths) files.push_back({path, ParseTorchLogs(core::ReadInputFile(path))});
  return files;
}

std::vector<std::string> LogDiagnostics(const std::vector<LogFile>& files) {
  std::vector<std::string> out;
  for (const auto& f : files) {
    for (const auto& d : f.result.diagnostics)
      out.push_back(f.path + ":" + std::to_string(d.line) + ": " + d.message);
  }
  return out;
}

void RenderLogFiles(const std::vector<LogFile>& files, const std::string& format,
                    std::ostream& out) {
  if (format == "jsonl") {
    for (const auto& f : files) {
      for (const auto& g : f.result.graph_list) {
        for (const auto& op : g.ops) {
          json rec = OpRecord(op);
          rec.update(GraphFields(f.path, g));
          out << rec.dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
        }
      }
    }
    return;
  }
  if (format == "json") {
    json doc_files = json::array();
    size_t graphs = 0, records = 0;
    for (const auto& f : files) {
      json gs = json::array();
      for (const auto& g : f.result.graph_list) {
        json g_json = GraphFields(f.path, g);
        json ops = json::array();
        for (const auto& op : g.ops) ops.push_back(OpRecord(op));
        g_json["ops"] = ops;
        gs.push_back(g_json);
        ++graphs;
        records += g.ops.size();
      }
      json diags = json::array();
      for (const auto& d : f.result.diagnostics)
        diags.push_back({{"line", d.line}, {"message", d.message}});
      doc_files.push_back({{"file", f.path}, {"graphs", gs}, {"diagnostics", diags}});
    }
    json doc = {{"files", doc_files}, {"graphs", graphs}, {"op_records", records}};
    out << doc.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
    return;
  }
  std::vector<std::vector<std::string>> rows = {
      {"GRAPH AT", "GRAPH", "COMPILE", "RANK", "OP", "DTYPES", "DEVICE", "NODES"}};
  size_t graphs = 0, diagnostics = 0;
  for (const auto& f : files) {
    diagnostics += f.result.diagnostics.size();
    for (const auto& g : f.result.graph_list) {
      ++graphs;
      std::string at = f.path + ":" + std::to_string(g.line) + (g.complete ? "" : " (cut)");
      for (const auto& op : g.ops) {
        rows.push_back({at, g.kind, g.compile_id.empty() ? "-" : g.compile_id,
                        g.rank.empty() ? "-" : g.rank, op.op, Join(op.dtypes),
                        op.device.value_or("-"), std::to_string(op.count)});
      }
    }
  }
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto& r : rows) {
    for (size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  }
  if (rows.size() > 1) {
    for (const auto& r : rows) {
      std::string line;
      for (size_t c = 0; c < r.size(); ++c) {
        line += r[c];
        if (c + 1 < r.size()) line += std::string(width[c] - r[c].size() + 2, ' ');
      }
      out << line << "\n";
    }
  }
  out << graphs << " graph(s), " << rows.size() - 1 << " op record(s) in " << files.size()
      << " file(s)";
  if (diagnostics) out << "; " << diagnostics << " line(s) not read (on stderr)";
  out << "\n";
}

}  // namespace testmap::tracer
