// tfcc::train::CheckpointManager: numbered checkpoints in one directory, old ones deleted
// (tf.train.CheckpointManager).
//
//   tfcc::train::Checkpoint ckpt({{"model", model}, {"optimizer", optimizer_state}});
//   tfcc::train::CheckpointManager manager(ckpt, "/tmp/run", {.max_to_keep = 3});
//   if (auto latest = manager.latest_checkpoint()) ckpt.restore(*latest);
//   for (int epoch = 0; epoch < 10; ++epoch) {
//     train_one_epoch();
//     manager.save();                      // "/tmp/run/ckpt-<save_counter>", keeps the last 3
//   }
//
// The manager records its checkpoints (with their timestamps) in the directory's `checkpoint`
// state file, and picks them up again when a new manager opens the same directory.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tfcc/io/checkpoint/checkpoint.h"

namespace tfcc::train {

/// Options of CheckpointManager, with TensorFlow's defaults.
struct CheckpointManagerOptions {
  /// How many recent checkpoints to keep; nullopt keeps all. Must be positive.
  std::optional<int> max_to_keep;
  /// Also keep one checkpoint per this many hours of training, beyond max_to_keep.
  std::optional<double> keep_checkpoint_every_n_hours;
  /// File name prefix inside the directory.
  std::string checkpoint_name = "ckpt";
};

/// Saves numbered checkpoints and deletes old ones.
class CheckpointManager {
 public:
  CheckpointManager(Checkpoint checkpoint, std::string directory,
                    CheckpointManagerOptions options = {});

  /// Increments save_counter and writes `<directory>/<checkpoint_name>-<n>`, n being
  /// `checkpoint_number` if given, else the save counter; then deletes checkpoints beyond
  /// max_to_keep (sparing one per keep_checkpoint_every_n_hours). Returns the path.
  std::string save(std::optional<int64_t> checkpoint_number = std::nullopt);

  /// The newest checkpoint this manager knows, or nullopt.
  std::optional<std::string> latest_checkpoint() const { return latest_; }
  /// The checkpoints kept, oldest first.
  std::vector<std::string> checkpoints() const;
  const std::string& directory() const { return directory_; }
  /// Restores the latest checkpoint if there is one; returns its path (nullopt: nothing to do).
  std::optional<std::string> restore_or_initialize();

 private:
  void record_state() const;
  void sweep();

  Checkpoint checkpoint_;
  std::string directory_;
  CheckpointManagerOptions options_;
  std::string prefix_;
  std::vector<std::pair<std::string, double>> maybe_delete_;  // path, timestamp; oldest first
  std::optional<std::string> latest_;
  double last_preserved_timestamp_ = 0;
};

}  // namespace tfcc::train
#pragma GCC visibility pop
