#include "timings/pytorch_times_reader.h"

#include "core/errors.h"
#include "core/read_file.h"
#include "timings/json_document.h"

namespace testmap::timings {
namespace {

double Duration(const JsonValue& value, const std::string& source,
                std::initializer_list<std::string> path) {
  std::string what;
  for (const std::string& key : path) what += (what.empty() ? "" : " / ") + ("\"" + key + "\"");
  if (!value.is_number()) {
    throw core::InputError(source, value.line,
                           "duration of " + what + " is not a number: " + value.Describe());
  }
  CheckDuration(value.number, source, value.line, what);
  return value.number;
}

}  // namespace

std::vector<TimingRecord> ParseTestTimes(const std::string& text, const std::string& source) {
  JsonValue doc = ParseJsonDocument(text, source);
  if (!doc.is_object())
    throw core::InputError(source, doc.line, "expected {job: {config: {file: seconds}}}");
  std::vector<TimingRecord> out;
  for (const auto& [job, configs] : doc.members) {
    if (!configs.is_object()) {
      throw core::InputError(source, configs.line,
                             "job \"" + job + "\" should map configs to files");
    }
    for (const auto& [config, files] : configs.members) {
      if (!files.is_object()) {
        throw core::InputError(
            source, files.line,
            "config \"" + config + "\" of job \"" + job + "\" should map files to seconds");
      }
      for (const auto& [file, value] : files.members) {
        TimingRecord r;
        r.file = file;
        r.job = job;
        r.config = config;
        r.source = source;
        r.line = value.line;
        if (value.is_object()) {  // class-level variant
          for (const auto& [cls, seconds] : value.members) {
            TimingRecord c = r;
            c.id = file + "::" + cls;
            c.cls = cls;
            c.level = TimingLevel::kClass;
            c.line = seconds.line;
            c.seconds = Duration(seconds, source, {job, config, file, cls});
            out.push_back(std::move(c));
          }
          continue;
        }
        r.id = file;
        r.level = TimingLevel::kFile;
        r.seconds = Duration(value, source, {job, config, file});
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
