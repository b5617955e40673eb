// The `checkpoint` file in a checkpoint directory: TensorFlow's CheckpointState, in protobuf text
// format (tfcc/io/proto/checkpoint_state.proto, printed and parsed by protobuf's TextFormat),
// naming the latest checkpoint and the ones still kept.
//
//   model_checkpoint_path: "ckpt-3"
//   all_model_checkpoint_paths: "ckpt-2"
//   all_model_checkpoint_paths: "ckpt-3"
//   all_model_checkpoint_timestamps: 1700000000.5
//   all_model_checkpoint_timestamps: 1700000100.25
//   last_preserved_timestamp: 1699999990
//
//   auto latest = tfcc::train::latest_checkpoint("/tmp/run");   // "/tmp/run/ckpt-3" or nullopt
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tfcc::train {

/// CheckpointState. Paths are as stored (relative to the directory when written by tfcc).
struct CheckpointState {
  std::string model_checkpoint_path;
  std::vector<std::string> all_model_checkpoint_paths;
  std::vector<double> all_model_checkpoint_timestamps;
  double last_preserved_timestamp = 0;
};

/// The state file's name inside a checkpoint directory.
inline constexpr const char* kCheckpointStateFile = "checkpoint";

/// Text form of a state.
std::string format_checkpoint_state(const CheckpointState& state);
/// Parses the text form; DataLossError naming `filename` and the line on malformed input.
CheckpointState parse_checkpoint_state(const std::string& text, const std::string& filename);

/// Reads `<directory>/checkpoint`; nullopt if it does not exist. Relative paths are returned
/// joined with `directory` (tf.train.get_checkpoint_state).
std::optional<CheckpointState> get_checkpoint_state(const std::string& directory);
/// Writes `<directory>/checkpoint` atomically, storing paths inside `directory` relative to it.
void update_checkpoint_state(const std::string& directory, CheckpointState state);

/// The latest checkpoint prefix recorded in `directory`, if its index file exists
/// (tf.train.latest_checkpoint).
std::optional<std::string> latest_checkpoint(const std::string& directory);

}  // namespace tfcc::train
