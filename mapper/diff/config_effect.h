// `testmap diff --config CONFIG`: what a delta does to a backend's
// test_suite_config (mapper/config: model, reader, rules). Names are
// matched the way the framework matches them (config_rules.h: the method
// alone, within the file entries whose path names the test's file).
//
//   stale       names that match no generic test of the new side but did
//               on the old one (the test was removed or renamed)
//   reevaluate  entries naming a test that changed (what changed, which
//               ids came or went): the mode the config gives may no longer
//               be what the backend sees
//   unlisted    new tests (added, or renamed away from their entry) in a
//               file the config governs that no entry names: they fall to
//               the file's unlisted_test_mode
//   patch       a unified diff of the YAML: renamed tests' names rewritten,
//               removed tests' names deleted (their entry when none is
//               left); patterns are reported, never edited
#pragma once

#include <string>
#include <vector>

#include "mapper/config/config_model.h"
#include "mapper/diff/delta.h"

namespace testmap::diff {

struct StaleName {
  std::string name;  // as written
  config::Mark mark;
  std::string file_path;                  // the file entry's path
  std::vector<std::string> old_generics;  // what it matched on the old side
  std::string renamed_to;                 // `Class::method`, when the one test it named was renamed
  bool pattern = false;
};

struct Reevaluate {
  std::string name;
  config::Mark mark;
  std::string mode;  // the entry's
  std::string generic_id;
  std::vector<std::string> changes;
  size_t ids_added = 0, ids_removed = 0, ids_changed = 0;
};

struct Unlisted {
  std::string generic_id;
  std::string mode;        // what it falls to
  std::string decided_by;  // "unlisted_test_mode at cfg.yaml:4", "default unlisted_test_mode"
};

struct ConfigEffect {
  std::string config_path;
  std::vector<StaleName> stale;
  std::vector<Reevaluate> reevaluate;
  std::vector<Unlisted> unlisted;
  std::string patch;  // "" when no edit is proposed
};

// `text` is the config's content (it was read from), for the patch.
ConfigEffect ComputeConfigEffect(const config::Config& config, const std::string& text,
                                 const Side& old_side, const Side& new_side, const Delta& delta,
                                 const std::string& root_token);

}  // namespace testmap::diff
