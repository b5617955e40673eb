// Loads a TensorBoard log directory the way TensorBoard groups it: every directory under the
// log directory that holds event files is a run; within a run, values are grouped by tag, and a
// tag's plugin is the one named by its first metadata (scalars, histograms, images, text, ...).
//
//   for (const auto& run : tfcc::summary::load_logdir("/tmp/summaries")) {
//     for (const auto& [tag, data] : run.tags) {
//       if (!data.scalars.empty()) std::cout << run.name << " " << tag << " "
//                                             << data.scalars.back().value << "\n";
//     }
//   }
//
// Used by `tfcc summary LOGDIR`. Files that cannot be read completely do not stop the load: the
// problem is recorded in RunData::problems (a file cut inside its last record, as happens while it
// is being written, is only noted in RunData::notes).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tfcc::summary {

/// One scalar value of a tag.
struct ScalarPoint {
  int64_t step = 0;
  double wall_time = 0;
  double value = 0;
};

/// Everything a run holds for one tag.
struct TagData {
  /// The plugin of the tag's first metadata; "scalars" for TF1 simple values, "histograms" and
  /// "images" for TF1 histograms and images, "" when unknown.
  std::string plugin;
  /// The values, when the tag holds scalars (in file order).
  std::vector<ScalarPoint> scalars;
  /// Number of values of the tag, and the first and last step seen.
  int64_t count = 0;
  int64_t first_step = 0;
  int64_t last_step = 0;
};

/// One run: a directory holding event files.
struct RunData {
  /// The directory relative to the log directory ("." for the log directory itself).
  std::string name;
  /// Its event files, in name order (= creation order).
  std::vector<std::string> files;
  /// Number of events read (including each file's file_version record).
  int64_t num_events = 0;
  /// Number of graphs (Event.graph_def) found.
  int64_t num_graphs = 0;
  std::map<std::string, TagData> tags;
  /// Corrupt files or malformed events: the file's remaining events were skipped.
  std::vector<std::string> problems;
  /// Harmless oddities (a last record still being written).
  std::vector<std::string> notes;
};

/// Loads every run under `logdir`, sorted by name. NotFoundError if `logdir` does not exist.
std::vector<RunData> load_logdir(const std::string& logdir);

}  // namespace tfcc::summary
#pragma GCC visibility pop
