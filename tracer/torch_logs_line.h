// One line of a TORCH_LOGS log, with torch's logging prefix taken apart.
//
// The prefixes torch 2.x prints (NOTES.md, "TORCH_LOGS"):
//   2.4+:    [rank0]:I1129 23:14:50.165000 10862 torch/_functorch/x.py:1833] [0/0] [__aot_graphs]
//   msg
//            (`[rankN]:` only under torch.distributed; `[0/0]` is frame/compile,
//            also `[0/1_1]` or absent; the artifact tag is absent for plain logs)
//   2.2/2.3: [2024-01-10 12:00:00,123] [0/0] torch._functorch.aot_autograd.__aot_graphs: [INFO] msg
//   2.0/2.1: the 2.2 form on a message's first line only.
// With TORCH_LOGS_FORMAT the prefix is whatever the user asked for and
// only a message's first line carries it. Lines whose prefix is not
// recognized are returned whole: the graph parser does not anchor on the
// line start, so an unknown prefix costs nothing but the scope.
#pragma once

#include <string_view>

namespace testmap::tracer {

struct LogLine {
  // The text after the prefix; the whole line when no prefix was found.
  std::string_view message;
  // What makes concurrent log streams distinguishable: "pid [frame/compile]"
  // for 2.4+, "[frame/compile]" for 2.2/2.3, empty when unknown.
  std::string_view pid;
  std::string_view compile_id;
  // The artifact, without underscores: "aot_graphs", "post_grad_graphs";
  // empty when the prefix names none.
  std::string_view artifact;
  // The digits of `[rankN]:` (torch.distributed); empty without one.
  std::string_view rank;
  bool has_prefix = false;
};

// Never fails: any input, including binary garbage, gives a LogLine.
LogLine SplitLogLine(std::string_view line);

}  // namespace testmap::tracer
