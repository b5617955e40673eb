#include "tfcc/io/checkpoint/checkpoint.h"

#include <filesystem>

#include "tfcc/io/checkpoint/checkpoint_state.h"
#include "tfcc/io/checkpoint/restore_state.h"
#include "tfcc/io/checkpoint/saver.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"

namespace tfcc::train {
namespace {

constexpr const char* kSaveCounter = "save_counter";

std::string join_list(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size() && i < 20; ++i) {
    if (i) out.append(", ");
    out.append(items[i]);
  }
  if (items.size() > 20) out.append(internal::str_cat(", ... (", items.size(), " in all)"));
  return out;
}

}  // namespace

// ---- CheckpointLoadStatus ------------------------------------------------------------------

const CheckpointLoadStatus& CheckpointLoadStatus::run_restore_ops() const {
  state_->restore_root(*root_);
  return *this;
}

const CheckpointLoadStatus& CheckpointLoadStatus::assert_existing_objects_matched() const {
  run_restore_ops();
  std::vector<std::string> unbound;
  SavePlan plan = plan_save(*root_);
  for (const auto& [key, variable] : plan.values) {
    if (!state_->restored(variable.id())) unbound.push_back(key);
  }
  for (const PlannedAttribute& a : plan.attributes) {
    if (!state_->attribute_restored(a.owner, a.attribute.name)) unbound.push_back(a.key);
  }
  if (!unbound.empty()) {
    throw FailedPreconditionError(internal::str_cat(
        "Some objects were not bound to checkpointed values in ", state_->prefix(),
        ", likely due to changes in the program: [", join_list(unbound), "]"));
  }
  return *this;
}

const CheckpointLoadStatus& CheckpointLoadStatus::assert_consumed() const {
  assert_existing_objects_matched();
  std::vector<std::string> unresolved = state_->unmatched_values();
  if (!unresolved.empty()) {
    throw FailedPreconditionError(internal::str_cat(
        "Unresolved object in checkpoint ", state_->prefix(), ": [", join_list(unresolved), "]"));
  }
  return *this;
}

const CheckpointLoadStatus& CheckpointLoadStatus::assert_nontrivial_match() const {
  run_restore_ops();
  if (state_->matched_count() <= 1) {
    throw FailedPreconditionError(internal::str_cat(
        "Nothing except the root object matched a checkpointed value in ", state_->prefix(),
        ". Typically this means that the checkpoint does not match the objects given."));
  }
  return *this;
}

const CheckpointLoadStatus& CheckpointLoadStatus::expect_partial() const {
  state_->expect_partial();
  return *this;
}

// ---- Checkpoint ----------------------------------------------------------------------------

Checkpoint::Checkpoint(std::initializer_list<std::pair<std::string, Dependency>> objects) {
  for (const auto& [name, object] : objects) {
    TFCC_CHECK_ARG(name != kSaveCounter,
                   "Checkpoint: 'save_counter' is reserved for the checkpoint's own counter");
    root_.track(name, object);
  }
}

Checkpoint& Checkpoint::track(const std::string& name, Dependency object) {
  TFCC_CHECK_ARG(name != kSaveCounter,
                 "Checkpoint: 'save_counter' is reserved for the checkpoint's own counter");
  root_.track(name, std::move(object));
  return *this;
}

Variable Checkpoint::save_counter() const {
  Dependency d = root_.get(kSaveCounter);
  if (d.is_variable()) return d.variable();
  Variable counter(Tensor::scalar<int64_t>(0), {.name = kSaveCounter, .trainable = false});
  // Tracking it restores it at once when a restore is pending (deferred restoration).
  Trackable root = root_;  // a handle: tracking through the copy changes this checkpoint
  root.track(kSaveCounter, counter);
  return counter;
}

std::string Checkpoint::write(const std::string& file_prefix) const {
  TFCC_CHECK_ARG(!file_prefix.empty(), "Checkpoint.write: the file prefix is empty");
  std::filesystem::path parent = std::filesystem::path(file_prefix).parent_path();
  if (!parent.empty()) make_dirs(parent.string());
  write_checkpoint(*root_.node(), file_prefix);
  return file_prefix;
}

std::string Checkpoint::save(const std::string& file_prefix) const {
  Variable counter = save_counter();
  counter.assign_add(Tensor::scalar<int64_t>(1));
  int64_t n = counter.read_value().item<int64_t>();
  std::string path = internal::str_cat(file_prefix, "-", n);
  write(path);
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  CheckpointState state;
  state.model_checkpoint_path = path;
  state.all_model_checkpoint_paths = {path};
  update_checkpoint_state(dir.empty() ? "." : dir.string(), state);
  return path;
}

CheckpointLoadStatus Checkpoint::read(const std::string& save_path) const {
  auto state = std::make_shared<RestoreState>(save_path);
  try {
    state->restore_root(*root_.node());
  } catch (...) {
    state->expect_partial();  // the error says what went wrong; no second warning
    throw;
  }
  return CheckpointLoadStatus(std::move(state), root_.node());
}

CheckpointLoadStatus Checkpoint::restore(const std::string& save_path) const {
  CheckpointLoadStatus status = read(save_path);
  save_counter();  // created now if new, and restored through the pending restore
  return status;
}

}  // namespace tfcc::train
