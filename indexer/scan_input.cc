#include "indexer/scan_input.h"

#include <nlohmann/json.hpp>

#include "core/dtype_names.h"
#include "core/errors.h"
#include "core/op_names.h"
#include "indexer/jsonl_lines.h"

namespace testmap::indexer {

using nlohmann::json;

bool LooksLikeScan(const std::string& text) {
  json first = FirstJsonLine(text);
  return first.is_object() && first.contains("nodeid") && first.contains("generic_id") &&
         !first.contains("type");
}

std::vector<ScannedTest> ParseScan(const std::string& text, const std::string& path,
                                   std::vector<std::string>* warnings) {
  std::vector<ScannedTest> out;
  ForEachJsonLine(
      text, path,
      [&](const json& rec, int line, std::string_view) {
        ScannedTest t;
        auto nodeid = rec.find("nodeid");
        auto generic = rec.find("generic_id");
        if (nodeid == rec.end() || !nodeid->is_string() ||
            nodeid->get_ref<const std::string&>().empty() || generic == rec.end() ||
            !generic->is_string()) {
          throw core::InputError(path, line,
                                 "scan record without string `nodeid` and `generic_id`");
        }
        t.nodeid = *nodeid;
        t.generic_id = *generic;
        t.line = line;
        json record = rec;
        record["origin"] = "scan";
        t.record_json = record.dump();
        const json& params =
            rec.contains("params") && rec["params"].is_object() ? rec["params"] : json();
        if (params.is_object() && params.contains("device") && params["device"].is_string())
          t.device = params["device"];
        std::string opinfo = params.is_object() ? params.value("op", std::string()) : std::string();
        if (!opinfo.empty() && opinfo.find('.') == std::string::npos) {
          if (auto op = core::ParseOpName(opinfo); op && op->is_packet) {
            t.static_packet = op->Packet();
            t.static_tuple.evidence = "static";
            t.static_tuple.count = 1;
            if (params.contains("device") && params["device"].is_string())
              t.static_tuple.device = params["device"];
            if (params.contains("dtypes") && params["dtypes"].is_array()) {
              for (const auto& d : params["dtypes"]) {
                if (!d.is_string()) continue;
                auto c = core::NormalizeDtype(d.get_ref<const std::string&>());
                t.static_tuple.dtypes.push_back(c ? *c : d.get<std::string>());
              }
            }
          }
        }
        out.push_back(std::move(t));
      },
      warnings);
  return out;
}

}  // namespace testmap::indexer
