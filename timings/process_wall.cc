#include "timings/process_wall.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/node_id.h"
#include "timings/timing_record.h"

namespace testmap::timings {

namespace {

// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
// days_from_civil). Not timegm(): glibc's reads /etc/localtime on the way,
// and the MCP server promises to open nothing but its index and allowed files.
long DaysFromCivil(long y, long m, long d) {
  y -= m <= 2;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const long yoe = y - era * 400;
  const long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

}  // namespace

double EpochOfIso(const std::string& iso) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, consumed = 0;
  double seconds = 0;
  if (std::sscanf(iso.c_str(), "%4d-%2d-%2dT%2d:%2d:%lf%n", &year, &month, &day, &hour, &minute,
                  &seconds, &consumed) != 6) {
    return -1;
  }
  const std::string zone = iso.substr(consumed);
  double offset = 0;  // seconds east of UTC
  if (!zone.empty() && zone != "Z") {
    int zh = 0, zm = 0, used = 0;
    if ((zone[0] != '+' && zone[0] != '-') ||
        std::sscanf(zone.c_str() + 1, "%2d:%2d%n", &zh, &zm, &used) != 2 ||
        static_cast<size_t>(used) + 1 != zone.size() || zone.size() != 6 || zh > 23 || zm > 59) {
      return -1;
    }
    offset = (zone[0] == '-' ? -1 : 1) * (zh * 3600.0 + zm * 60.0);
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || seconds < 0 ||
      seconds >= 61) {
    return -1;
  }
  return static_cast<double>(DaysFromCivil(year, month, day)) * 86400 + hour * 3600 + minute * 60 +
         seconds - offset;
}

bool TraceRunWall::Start(std::string_view run_record, const std::string& source, int line,
                         size_t first_record) {
  open_ = false;
  auto record = nlohmann::json::parse(run_record, nullptr, /*allow_exceptions=*/false);
  if (!record.is_object() || !record.contains("metadata") || !record["metadata"].is_object())
    return false;
  const auto& start = record["metadata"].value("start_time", nlohmann::json());
  if (!start.is_string()) return false;
  start_ = EpochOfIso(start.get<std::string>());
  if (start_ < 0) return false;
  wall_ = ProcessWall{};
  wall_.start = start_;
  const auto& host = record["metadata"].value("hostname", nlohmann::json());
  if (host.is_string()) wall_.host = host.get<std::string>();
  wall_.source = source;
  wall_.line = line;
  wall_.first_record = first_record;
  end_ = start_;
  files_.clear();
  open_ = true;
  // Where the index keeps the run's collection record (indexer/trace_input.cc).
  const nlohmann::json collection = record.value("collection", nlohmann::json());
  if (collection.is_object() && collection.value("end", nlohmann::json()).is_number() &&
      collection.value("files", nlohmann::json()).is_object()) {
    std::vector<std::pair<std::string, int64_t>> files;
    for (const auto& [file, count] : collection["files"].items())
      if (count.is_number_integer()) files.emplace_back(file, count.get<int64_t>());
    AddCollection(collection["end"].get<double>(), files);
  }
  return true;
}

void TraceRunWall::AddCollection(double end,
                                 const std::vector<std::pair<std::string, int64_t>>& files) {
  if (!open_) return;
  for (const auto& [path, tests] : files) {
    const std::string key = core::FileKey(path);
    files_.insert(key);
    // Counts as read (the index's JSON may hold any integer), kept in an int.
    constexpr int64_t kMost = std::numeric_limits<int>::max();
    int& n = wall_.collection[key];
    n = static_cast<int>(std::min(n + std::clamp<int64_t>(tests, 0, kMost), kMost));
  }
  end_ = std::max(end_, end);
}

void TraceRunWall::AddTest(const std::string& file, double seconds, std::optional<double> start) {
  if (!open_) return;
  wall_.test_seconds += seconds;
  ++wall_.tests;
  files_.insert(file);
  if (start) end_ = std::max(end_, *start + seconds);
}

std::optional<ProcessWall> TraceRunWall::Finish(size_t end_record) {
  if (!open_) return std::nullopt;
  open_ = false;
  wall_.files = static_cast<int>(files_.size());
  wall_.end_record = end_record;
  wall_.wall_seconds = end_ - start_;
  if ((wall_.tests == 0 && wall_.collection.empty()) || wall_.wall_seconds > kMaxDurationSeconds)
    return std::nullopt;
  return wall_;
}

}  // namespace testmap::timings
