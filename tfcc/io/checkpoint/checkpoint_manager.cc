#include "tfcc/io/checkpoint/checkpoint_manager.h"

#include <filesystem>

#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/io/checkpoint/checkpoint_state.h"
#include "tfcc/platform/clock.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file_set.h"
#include "tfcc/platform/logging.h"

namespace tfcc::train {
namespace {

bool is_data_file_of(const std::string& name, const std::string& base) {
  // <base>.data-NNNNN-of-NNNNN
  std::string head = base;
  head.append(".data-");
  if (name.size() != head.size() + 14 || name.compare(0, head.size(), head) != 0) return false;
  std::string_view rest = std::string_view(name).substr(head.size());
  auto digits = [](std::string_view d) {
    return d.find_first_not_of("0123456789") == std::string_view::npos;
  };
  return digits(rest.substr(0, 5)) && rest.substr(5, 4) == "-of-" && digits(rest.substr(9));
}

void delete_checkpoint_files(const std::string& prefix) {
  namespace fs = std::filesystem;
  fs::path p(prefix);
  fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::string base = p.filename().string();
  std::error_code ec;
  fs::remove(checkpoint::manifest_filename(prefix), ec);  // first: no reader falls back to it
  fs::remove(checkpoint::index_filename(prefix), ec);
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (is_data_file_of(name, base)) fs::remove(entry.path(), ec);
  }
}

}  // namespace

CheckpointManager::CheckpointManager(Checkpoint checkpoint, std::string directory,
                                     CheckpointManagerOptions options)
    : checkpoint_(std::move(checkpoint)),
      directory_(std::move(directory)),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(!options_.max_to_keep || *options_.max_to_keep > 0,
                 "Expected a positive integer or `None` for `max_to_keep`, got ",
                 options_.max_to_keep.value_or(0), ".");
  TFCC_CHECK_ARG(!directory_.empty(), "CheckpointManager: the directory is empty");
  prefix_ = (std::filesystem::path(directory_) / options_.checkpoint_name).string();
  double now = wall_time_seconds();
  last_preserved_timestamp_ = now;
  if (auto state = get_checkpoint_state(directory_)) {
    const auto& paths = state->all_model_checkpoint_paths;
    const auto& stamps = state->all_model_checkpoint_timestamps;
    if (state->last_preserved_timestamp != 0) {
      last_preserved_timestamp_ = state->last_preserved_timestamp;
    }
    for (size_t i = 0; i < paths.size(); ++i) {
      double t = stamps.size() == paths.size() ? stamps[i] : last_preserved_timestamp_;
      maybe_delete_.emplace_back(paths[i], t);
    }
    if (!state->model_checkpoint_path.empty()) latest_ = state->model_checkpoint_path;
  }
}

std::vector<std::string> CheckpointManager::checkpoints() const {
  std::vector<std::string> out;
  for (const auto& [path, t] : maybe_delete_) out.push_back(path);
  return out;
}

std::string CheckpointManager::save(std::optional<int64_t> checkpoint_number) {
  Variable counter = checkpoint_.save_counter();
  counter.assign_add(Tensor::scalar<int64_t>(1));
  int64_t n = checkpoint_number ? *checkpoint_number : counter.read_value().item<int64_t>();
  std::string path = internal::str_cat(prefix_, "-", n);
  checkpoint_.write(path);
  double now = wall_time_seconds();
  std::erase_if(maybe_delete_, [&](const auto& e) { return e.first == path; });
  maybe_delete_.emplace_back(path, now);
  latest_ = path;
  // Record the new checkpoint before deleting anything, then again without the deleted ones.
  record_state();
  sweep();
  record_state();
  // Writers killed inside a save of another checkpoint number leave temporaries that no later
  // save of that number may come to remove.
  remove_orphaned_temporaries_in(directory_, options_.checkpoint_name + "-");
  return path;
}

void CheckpointManager::sweep() {
  if (!options_.max_to_keep) return;
  while (maybe_delete_.size() > static_cast<size_t>(*options_.max_to_keep)) {
    auto [path, timestamp] = maybe_delete_.front();
    maybe_delete_.erase(maybe_delete_.begin());
    if (options_.keep_checkpoint_every_n_hours &&
        timestamp - *options_.keep_checkpoint_every_n_hours * 3600.0 >= last_preserved_timestamp_) {
      // Kept on disk, but no longer listed (the state file must not grow forever).
      last_preserved_timestamp_ = timestamp;
      continue;
    }
    delete_checkpoint_files(path);
  }
}

void CheckpointManager::record_state() const {
  CheckpointState state;
  state.model_checkpoint_path = latest_.value_or("");
  for (const auto& [path, t] : maybe_delete_) {
    state.all_model_checkpoint_paths.push_back(path);
    state.all_model_checkpoint_timestamps.push_back(t);
  }
  state.last_preserved_timestamp = last_preserved_timestamp_;
  update_checkpoint_state(directory_, state);
}

std::optional<std::string> CheckpointManager::restore_or_initialize() {
  auto latest = latest_checkpoint();
  if (!latest) return std::nullopt;
  checkpoint_.restore(*latest);
  return latest;
}

}  // namespace tfcc::train
