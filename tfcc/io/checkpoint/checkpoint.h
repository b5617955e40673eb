// tfcc::train::Checkpoint: object-based checkpoints in TensorFlow 2's format.
//
//   tfcc::Variable step(tfcc::Tensor::scalar<int64_t>(0), {.name = "step", .trainable = false});
//   tfcc::train::Checkpoint ckpt({{"model", model}, {"step", step}});
//   std::string path = ckpt.save("/tmp/run/ckpt");     // "/tmp/run/ckpt-1"
//   ...
//   auto status = ckpt.restore(path);
//   status.assert_consumed();                           // every saved value found its object
//
// What is saved: every variable reachable from the named objects (Variables, Trackables,
// Modules, nested to any depth), under TF2 object-path keys such as
// `model/layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE`, plus the object graph under
// `_CHECKPOINTABLE_OBJECT_GRAPH`; `tf.train.load_checkpoint` and `tf.train.Checkpoint.restore`
// in TensorFlow read the result. Restoring matches objects by those names, not by variable names.
// A value whose object does not exist yet is kept and assigned when the object is tracked later
// (deferred restoration, as in TensorFlow); status.assert_*() report what matched.
//
// Files are written atomically (temporary file, fsync, rename, directory fsync); every tensor and
// the index carry masked CRC32Cs, and a damaged checkpoint raises DataLossError, never loads
// silently. Ownership: Checkpoint is a handle; copies share the same objects and save_counter.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tfcc/io/checkpoint/module_trackable.h"
#include "tfcc/io/checkpoint/trackable.h"

namespace tfcc::train {

class RestoreState;

/// What a restore matched; returned by Checkpoint::restore and Checkpoint::read.
class CheckpointLoadStatus {
 public:
  /// Every value in the checkpoint was matched to an object, and every variable reachable from
  /// the checkpoint's objects received a value. FailedPreconditionError (TensorFlow raises
  /// AssertionError) listing what is missing, otherwise.
  const CheckpointLoadStatus& assert_consumed() const;
  /// Every variable reachable now received a value (checkpoint values still waiting for objects
  /// that do not exist yet are allowed).
  const CheckpointLoadStatus& assert_existing_objects_matched() const;
  /// Some object other than the root was matched.
  const CheckpointLoadStatus& assert_nontrivial_match() const;
  /// Silences the warning about unused checkpoint values.
  const CheckpointLoadStatus& expect_partial() const;
  /// Matches the object graph again, restoring variables that objects created since restore()
  /// hold. Trackables restore new children by themselves; Modules that create variables lazily
  /// (layers built on first call) need this or any assert_*() call.
  const CheckpointLoadStatus& run_restore_ops() const;

 private:
  friend class Checkpoint;
  CheckpointLoadStatus(std::shared_ptr<RestoreState> state,
                       std::shared_ptr<const TrackableNode> root)
      : state_(std::move(state)), root_(std::move(root)) {}
  std::shared_ptr<RestoreState> state_;
  std::shared_ptr<const TrackableNode> root_;
};

/// Groups objects for saving and restoring (tf.train.Checkpoint).
class Checkpoint {
 public:
  /// A checkpoint over named objects: Variables, Trackables, shared_ptr<Module>s.
  Checkpoint(std::initializer_list<std::pair<std::string, Dependency>> objects = {});

  /// Adds (or replaces) a named object; restored at once if a restore is waiting for it.
  Checkpoint& track(const std::string& name, Dependency object);

  /// The number of save() calls so far (an int64 scalar variable, saved with the checkpoint
  /// and restored from it). Created on first use.
  Variable save_counter() const;

  /// Increments save_counter, writes `<file_prefix>-<save_counter>`, and records it as the
  /// latest checkpoint in the directory's `checkpoint` state file. Returns the path written.
  std::string save(const std::string& file_prefix) const;
  /// Writes exactly `file_prefix` (no numbering, no state file). Returns it.
  std::string write(const std::string& file_prefix) const;
  /// Restores from `save_path` (a prefix such as "/tmp/run/ckpt-3"), save_counter included.
  /// NotFoundError if it does not exist; DataLossError if it is damaged.
  CheckpointLoadStatus restore(const std::string& save_path) const;
  /// Like restore(), for checkpoints made by write(); does not create save_counter.
  CheckpointLoadStatus read(const std::string& save_path) const;

  /// The root object (for tools that walk the graph).
  std::shared_ptr<const TrackableNode> root() const { return root_.node(); }

 private:
  Trackable root_;
};

/// Every variable reachable from `root` with its checkpoint key, breadth first.
std::vector<std::pair<std::string, Variable>> checkpoint_keys(const TrackableNode& root);

}  // namespace tfcc::train
#pragma GCC visibility pop
