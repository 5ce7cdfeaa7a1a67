#include "timings/pytorch_times_reader.h"

#include <cmath>

#include "core/errors.h"
#include "core/read_file.h"
#include "timings/strict_json.h"

namespace testmap::timings {
namespace {

double Duration(const nlohmann::json& value, const std::string& text, const std::string& source,
                std::initializer_list<std::string> path) {
  std::string what;
  for (const std::string& key : path) what += (what.empty() ? "" : " / ") + ("\"" + key + "\"");
  if (!value.is_number()) {
    throw core::InputError(source, LineOfKeyPath(text, path),
                           "duration of " + what + " is not a number: " + value.dump());
  }
  double seconds = value.get<double>();
  if (!std::isfinite(seconds) || seconds < 0) {
    CheckDuration(seconds, source, LineOfKeyPath(text, path), what);
  }
  return seconds;
}

}  // namespace

std::vector<TimingRecord> ParseTestTimes(const std::string& text, const std::string& source) {
  nlohmann::json doc = ParseJsonStrict(text, source);
  if (!doc.is_object())
    throw core::InputError(source, 1, "expected {job: {config: {file: seconds}}}");
  std::vector<TimingRecord> out;
  for (const auto& [job, configs] : doc.items()) {
    if (!configs.is_object()) {
      throw core::InputError(source, LineOfKeyPath(text, {job}),
                             "job \"" + job + "\" should map configs to files");
    }
    for (const auto& [config, files] : configs.items()) {
      if (!files.is_object()) {
        throw core::InputError(
            source, LineOfKeyPath(text, {job, config}),
            "config \"" + config + "\" of job \"" + job + "\" should map files to seconds");
      }
      for (const auto& [file, value] : files.items()) {
        TimingRecord r;
        r.file = file;
        r.job = job;
        r.config = config;
        r.source = source;
        if (value.is_object()) {  // class-level variant
          for (const auto& [cls, seconds] : value.items()) {
            TimingRecord c = r;
            c.id = file + "::" + cls;
            c.cls = cls;
            c.level = TimingLevel::kClass;
            c.seconds = Duration(seconds, text, source, {job, config, file, cls});
            out.push_back(std::move(c));
          }
          continue;
        }
        r.id = file;
        r.level = TimingLevel::kFile;
        r.seconds = Duration(value, text, source, {job, config, file});
        out.push_back(std::move(r));
      }
    }
  }
  return out;
}

std::vector<TimingRecord> ReadTestTimes(const std::string& path) {
  return ParseTestTimes(core::ReadInputFile(path), path);
}

}  // namespace testmap::timings
