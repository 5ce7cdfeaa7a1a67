#include "analyzers/backend/clang_protocol.h"

#include <nlohmann/json.hpp>

#include "analyzers/backend/registration_json.h"

namespace testmap::backend {

using nlohmann::json;

std::string EncodeRequest(const ClangRequest& r) {
  json j;
  j["roots"] = r.roots;
  j["body_triggers"] = r.body_triggers;
  j["jobs"] = r.jobs;
  j["pch_prelude"] = r.pch_prelude;
  j["units"] = json::array();
  for (const auto& u : r.units)
    j["units"].push_back(
        {{"file", u.file}, {"directory", u.directory}, {"arguments", u.arguments}});
  return j.dump();
}

ClangRequest DecodeRequest(const std::string& text) {
  ClangRequest r;
  try {
    json j = json::parse(text);
    r.roots = j.at("roots").get<std::vector<std::string>>();
    r.body_triggers = j.value("body_triggers", std::vector<std::string>{});
    r.jobs = j.value("jobs", 1);
    r.pch_prelude = j.value("pch_prelude", std::vector<std::string>{});
    for (const auto& u : j.at("units"))
      r.units.push_back({u.at("file"), u.at("directory"), u.at("arguments")});
  } catch (const json::exception& e) {
    throw std::invalid_argument(std::string("bad request: ") + e.what());
  }
  return r;
}

std::string EncodeResult(const UnitResult& r) {
  nlohmann::ordered_json j;
  j["file"] = r.file;
  j["parsed"] = r.parsed;
  j["seconds"] = r.seconds;
  j["records"] = nlohmann::ordered_json::array();
  for (const auto& rec : r.records) j["records"].push_back(ToJson(rec));
  j["diagnostics"] = nlohmann::ordered_json::array();
  for (const auto& d : r.diagnostics) j["diagnostics"].push_back(ToJson(d));
  j["deps"] = r.deps;
  return j.dump();
}

UnitResult DecodeResult(const std::string& line) {
  UnitResult r;
  try {
    json j = json::parse(line);
    r.file = j.at("file");
    r.parsed = j.value("parsed", true);
    r.seconds = j.value("seconds", 0.0);
    for (const auto& rec : j.at("records")) r.records.push_back(FromJson(rec));
    for (const auto& d : j.at("diagnostics")) r.diagnostics.push_back(DiagnosticFromJson(d));
    r.deps = j.at("deps").get<std::vector<std::string>>();
  } catch (const json::exception& e) {
    throw std::invalid_argument(std::string("bad reader output: ") + e.what());
  }
  return r;
}

}  // namespace testmap::backend
