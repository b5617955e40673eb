// BackupAndRestore (keras/callbacks.py and keras/distribute/worker_training_state.py).
#include "tfcc/keras/callbacks/backup_and_restore.h"

#include <filesystem>

#include "tfcc/io/checkpoint/checkpoint.h"
#include "tfcc/io/checkpoint/checkpoint_manager.h"
#include "tfcc/keras/models/model.h"
#include "tfcc/keras/saving/trackables.h"
#include "tfcc/ops/random/random.h"

namespace tfcc::keras::callbacks {

BackupAndRestore::BackupAndRestore(std::string backup_dir, BackupAndRestoreOptions options)
    : backup_dir_(std::move(backup_dir)), options_(options) {
  TFCC_CHECK_ARG(!backup_dir_.empty(), "Empty `backup_dir` argument passed");
}

BackupAndRestore::~BackupAndRestore() = default;
BackupAndRestore::BackupAndRestore(BackupAndRestore&&) noexcept = default;
BackupAndRestore& BackupAndRestore::operator=(BackupAndRestore&&) noexcept = default;

std::string BackupAndRestore::write_checkpoint_dir() const {
  return (std::filesystem::path(backup_dir_) / "chief").string();
}

void BackupAndRestore::on_train_begin(Logs&) {
  Model* m = model();
  TFCC_REQUIRE(FailedPreconditionError, m != nullptr && m->fit_progress() != nullptr,
               "BackupAndRestore works inside Model.fit");
  TFCC_REQUIRE(FailedPreconditionError, m->built(), "BackupAndRestore: model '", m->name(),
               "' must be built before fit (give its first layer an `input_shape`, or call it "
               "on a batch of data) so that a backup can be restored into it");
  restored_from_.reset();
  restored_data_.clear();
  current_epoch_ = 0;
  batches_count_ = 0;
  saved_epoch_ =
      Variable(Tensor::scalar<int64_t>(-1), {.name = "ckpt_saved_epoch", .trainable = false});
  saved_batch_ =
      Variable(Tensor::scalar<int64_t>(-1), {.name = "ckpt_saved_batch", .trainable = false});

  train::Trackable state;
  state.track("_ckpt_saved_epoch", saved_epoch_);
  state.track("_ckpt_saved_batch", saved_batch_);
  state.track("metrics", saving::metrics_trackable(m->metrics()));
  state.add_attribute({"random_state",
                       [] { return train::AttributeValue(random::get_global_state()); },
                       [](const train::AttributeValue& v) {
                         const Tensor* t = std::get_if<Tensor>(&v);
                         TFCC_REQUIRE(DataLossError, t != nullptr,
                                      "BackupAndRestore: the saved random state is not a tensor");
                         random::set_global_state(*t);
                       }});
  state.add_attribute({"data_state",
                       [m] { return train::AttributeValue(m->fit_progress()->save_data_state()); },
                       [this](const train::AttributeValue& v) {
                         const std::string* s = std::get_if<std::string>(&v);
                         TFCC_REQUIRE(DataLossError, s != nullptr,
                                      "BackupAndRestore: the saved data position is not bytes");
                         restored_data_ = *s;
                       }});
  checkpoint_ = std::make_unique<train::Checkpoint>();
  checkpoint_->track("model", saving::model_trackable(*m));
  checkpoint_->track("training_state", state);
  manager_ = std::make_unique<train::CheckpointManager>(
      *checkpoint_, write_checkpoint_dir(), train::CheckpointManagerOptions{.max_to_keep = 1});

  std::optional<std::string> latest = manager_->latest_checkpoint();
  if (!latest) return;
  saving::prepare_for_restore(*m);
  checkpoint_->restore(*latest).assert_existing_objects_matched();
  restored_from_ = latest;
  const int64_t epoch = saved_epoch_.read_value().item<int64_t>();
  const int64_t batch = saved_batch_.read_value().item<int64_t>();
  TFCC_REQUIRE(DataLossError, epoch >= 0 && batch >= -1 && epoch < (int64_t{1} << 31),
               "BackupAndRestore: the backup ", *latest, " records epoch ", epoch, ", batch ",
               batch);
  FitProgress::Resume resume;
  resume.epoch = static_cast<int>(batch < 0 ? epoch + 1 : epoch);
  resume.step = batch < 0 ? 0 : batch + 1;
  resume.data = restored_data_;
  m->fit_progress()->resume = std::move(resume);
}

void BackupAndRestore::on_epoch_begin(int epoch, Logs&) { current_epoch_ = epoch; }

void BackupAndRestore::on_train_batch_end(int batch, Logs&) {
  if (options_.save_freq.per_epoch()) return;
  if (++batches_count_ >= options_.save_freq.batches()) {
    batches_count_ = 0;
    // fit numbers a resumed epoch's batches from the epoch's start, so `batch` is its index.
    back_up(current_epoch_, batch);
  }
}

void BackupAndRestore::on_epoch_end(int epoch, Logs&) {
  if (options_.save_freq.per_epoch()) back_up(epoch, -1);
}

void BackupAndRestore::back_up(int epoch, int64_t batch) {
  if (!manager_ || !is_chief()) return;  // under a strategy every rank restores, rank 0 writes
  saved_epoch_.assign(Tensor::scalar<int64_t>(epoch));
  saved_batch_.assign(Tensor::scalar<int64_t>(batch));
  manager_->save();
}

void BackupAndRestore::on_train_end(Logs&) {
  if (options_.delete_checkpoint && manager_ && is_chief()) {
    std::error_code ec;
    // The state file goes first: a run killed while deleting then finds no backup, never a
    // backup with files missing.
    std::filesystem::remove(std::filesystem::path(write_checkpoint_dir()) / "checkpoint", ec);
    if (!ec) std::filesystem::remove_all(write_checkpoint_dir(), ec);
    if (ec) {
      throw UnknownError(internal::str_cat("BackupAndRestore: could not delete ",
                                           write_checkpoint_dir(), ": ", ec.message()));
    }
    std::filesystem::remove(backup_dir_, ec);  // only if empty; an error leaves it
  }
  manager_.reset();
  checkpoint_.reset();
}

}  // namespace tfcc::keras::callbacks
