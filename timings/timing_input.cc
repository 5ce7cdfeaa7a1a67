#include "timings/timing_input.h"

#include "timings/timing_file_reader.h"

namespace testmap::timings {

void TimingInput::Append(TimingInput more) {
  for (ProcessWall& w : more.walls) {
    w.first_record += records.size();
    w.end_record += records.size();
    walls.push_back(std::move(w));
  }
  records.insert(records.end(), std::make_move_iterator(more.records.begin()),
                 std::make_move_iterator(more.records.end()));
}

TimingInput ReadTimingFiles(const std::vector<std::string>& paths) {
  TimingInput input;
  for (const std::string& path : paths) {
    TimingInput one;
    one.records = ReadTimingFile(path, &one.walls);
    input.Append(std::move(one));
  }
  return input;
}

}  // namespace testmap::timings
