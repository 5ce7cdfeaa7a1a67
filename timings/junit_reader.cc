#include "timings/junit_reader.h"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>
#include <pugixml.hpp>
#include <set>

#include "core/errors.h"
#include "core/node_id.h"
#include "core/read_file.h"
#include "timings/line_counter.h"

namespace testmap::timings {
namespace {

std::vector<std::string> SplitDots(const std::string& s) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t dot = s.find('.', start);
    parts.push_back(s.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

std::string JoinParts(const std::vector<std::string>& parts, size_t begin, size_t end,
                      const std::string& sep) {
  std::string out;
  for (size_t i = begin; i < end; ++i) out += (i > begin ? sep : "") + parts[i];
  return out;
}

bool IsRetryMarker(const char* name) {
  static const char* const kMarkers[] = {"rerun", "flakyFailure", "flakyError", "rerunFailure",
                                         "rerunError"};
  for (const char* marker : kMarkers) {
    if (std::strcmp(name, marker) == 0) return true;
  }
  return false;
}

}  // namespace

std::string RebuildNodeId(const std::string& classname, const std::string& name,
                          const std::string& file) {
  if (!file.empty()) {
    std::string module = core::JUnitModule(file);
    if (classname == module) return file + "::" + name;
    if (classname.rfind(module + ".", 0) == 0) {
      std::vector<std::string> classes = SplitDots(classname.substr(module.size() + 1));
      return file + "::" + JoinParts(classes, 0, classes.size(), "::") + "::" + name;
    }
    // `file` is where the function is defined, which for inherited tests is
    // not the collected module: fall through to the classname.
  }
  std::vector<std::string> parts = SplitDots(classname);
  // The last part that does not start with an upper-case letter ends the
  // module path; CamelCase parts after it are (nested) classes.
  size_t module_end = 1;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].empty() || !std::isupper(static_cast<unsigned char>(parts[i][0])))
      module_end = i + 1;
  }
  std::string id = JoinParts(parts, 0, module_end, "/") + ".py";
  if (module_end < parts.size()) id += "::" + JoinParts(parts, module_end, parts.size(), "::");
  return id + "::" + name;
}

std::vector<TimingRecord> ParseJUnitXml(const std::string& text, const std::string& source,
                                        std::vector<ProcessWall>* walls) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw core::InputError(source, 0, "empty timing file");
  }
  LineCounter lines(text);
  pugi::xml_document doc;
  pugi::xml_parse_result parsed = doc.load_buffer(text.data(), text.size());
  if (!parsed) {
    throw core::InputError(source, lines.LineAt(static_cast<size_t>(parsed.offset)),
                           std::string("malformed XML: ") + parsed.description());
  }
  pugi::xml_node root = doc.document_element();
  if (std::strcmp(root.name(), "testsuites") != 0 && std::strcmp(root.name(), "testsuite") != 0) {
    throw core::InputError(source, lines.LineAt(static_cast<size_t>(root.offset_debug())),
                           std::string("not JUnit XML: root element is <") + root.name() + ">");
  }
  std::vector<TimingRecord> out;
  std::map<std::string, size_t> index_of;  // node id -> record, to merge attempts
  // The suite each testcase belongs to, for its ProcessWall.
  pugi::xml_node suite;
  ProcessWall* wall = nullptr;
  std::set<std::string> wall_files;
  auto close_wall = [&] {
    if (!wall) return;
    wall->files = static_cast<int>(wall_files.size());
    wall->end_record = out.size();
    wall = nullptr;
    wall_files.clear();
  };
  // Document order: each testcase's line is counted on from the previous one.
  for (pugi::xpath_node hit : doc.select_nodes("//testcase")) {
    pugi::xml_node tc = hit.node();
    if (walls && tc.parent() != suite) {
      close_wall();
      suite = tc.parent();
      pugi::xml_attribute suite_time = suite.attribute("time");
      char* end = nullptr;
      const double wall_seconds = suite_time ? std::strtod(suite_time.as_string(), &end) : -1;
      if (std::strcmp(suite.name(), "testsuite") == 0 && suite_time && *end == '\0' &&
          wall_seconds >= 0 && wall_seconds <= kMaxDurationSeconds) {
        wall = &walls->emplace_back();
        wall->source = source;
        wall->line = lines.LineAt(static_cast<size_t>(suite.offset_debug()));
        wall->wall_seconds = wall_seconds;
        wall->first_record = out.size();
        // When the session began (pytest writes the start, not the end).
        if (pugi::xml_attribute stamp = suite.attribute("timestamp"))
          wall->start = EpochOfIso(stamp.as_string());
        wall->host = suite.attribute("hostname").as_string();
      }
    }
    const int line = lines.LineAt(static_cast<size_t>(tc.offset_debug()));
    const std::string name = tc.attribute("name").as_string();
    if (name.empty()) throw core::InputError(source, line, "<testcase> without a name");
    pugi::xml_attribute time = tc.attribute("time");
    const std::string id = RebuildNodeId(tc.attribute("classname").as_string(), name,
                                         tc.attribute("file").as_string());
    if (!time) throw core::InputError(source, line, "<testcase> " + id + " has no time attribute");
    char* end = nullptr;
    const std::string time_text = time.as_string();
    double seconds = std::strtod(time_text.c_str(), &end);
    if (time_text.empty() || *end != '\0') {
      throw core::InputError(source, line,
                             "time of " + id + " is not a number: \"" + time_text + "\"");
    }
    CheckDuration(seconds, source, line, id);

    TimingRecord r;
    r.id = id;
    core::NodeId parts = core::NodeId::Parse(id);
    r.file = core::FileKey(parts.path);
    r.cls = parts.cls;
    r.seconds = seconds;
    r.source = source;
    r.line = line;
    for (pugi::xml_node child : tc.children()) {
      const char* tag = child.name();
      if (std::strcmp(tag, "skipped") == 0) {
        // pytest reports xfail as <skipped type="pytest.xfail">: it ran.
        if (std::strcmp(child.attribute("type").as_string(), "pytest.xfail") != 0) {
          r.outcome = Outcome::kSkipped;
        }
      } else if (std::strcmp(tag, "failure") == 0) {
        r.outcome = Outcome::kFailed;
      } else if (std::strcmp(tag, "error") == 0) {
        if (r.outcome != Outcome::kFailed) r.outcome = Outcome::kError;
      } else if (IsRetryMarker(tag)) {
        r.rerun = true;
      } else if (std::strcmp(tag, "properties") == 0) {
        for (pugi::xml_node p : child.children("property")) {
          if (std::strcmp(p.attribute("name").as_string(), "feature") == 0) {
            r.feature = p.attribute("value").as_string();
          }
        }
      }
    }
    if (wall) {
      wall->test_seconds += seconds;
      ++wall->tests;
      wall_files.insert(r.file);
    }
    auto [it, inserted] = index_of.emplace(id, out.size());
    if (inserted) {
      out.push_back(std::move(r));
      continue;
    }
    // The same id again in one report is another attempt of the same test:
    // the job paid for all of them; the last attempt decides the outcome.
    TimingRecord& first = out[it->second];
    first.seconds += r.seconds;
    first.outcome = r.outcome;
    first.rerun = true;
    if (first.feature.empty()) first.feature = r.feature;
  }
  close_wall();
  return out;
}

std::vector<TimingRecord> ReadJUnitXml(const std::string& path, std::vector<ProcessWall>* walls) {
  return ParseJUnitXml(core::ReadInputFile(path), path, walls);
}

}  // namespace testmap::timings
