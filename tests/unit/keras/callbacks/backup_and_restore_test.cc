// BackupAndRestore: an interrupted fit (a callback throws mid-epoch) resumed by a new model
// object ends with exactly the weights, optimizer state and metrics of an uninterrupted fit.
#include "tfcc/keras/callbacks/backup_and_restore.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "tests/unit/keras/saving/saving_test_util.h"

namespace tfcc::keras::callbacks {
namespace {

namespace fs = std::filesystem;

struct Interrupt {};

// Throws after `n` training batches in all: a crash in the middle of fit.
class Crash : public Callback {
 public:
  explicit Crash(int n) : n_(n) {}
  void on_train_batch_end(int, Logs&) override {
    if (++seen_ == n_) throw Interrupt{};
  }

 private:
  int n_, seen_ = 0;
};

struct TrainResult {
  std::string state;
  std::vector<double> last_losses;
};

// Trains a fresh model on tensors (reshuffled every epoch) or on a shuffled dataset.
TrainResult train(bool dataset, std::vector<CallbackPtr> cbs, int epochs = 4) {
  random::set_seed(77);
  auto [x, y] = test::mlp_data();
  auto model = test::mlp();
  FitOptions options{.epochs = epochs, .verbose = 0, .callbacks = std::move(cbs)};
  callbacks::History h;
  if (dataset) {
    auto ds = data::Dataset::from_tensor_slices({x, y}).shuffle(40, {.seed = 5}).batch(16);
    h = model->fit(ds, options);
  } else {
    options.batch_size = 16;
    h = model->fit(x, y, options);
  }
  return {test::state_bytes(*model), h.history().empty() ? std::vector<double>{} : h["loss"]};
}

void check_resume(bool dataset, SaveFreq freq, std::vector<int> crashes) {
  const TrainResult reference = train(dataset, {});
  const std::string dir = test::temp_dir(dataset ? "bar_dataset" : "bar_tensors");
  auto backup = std::make_shared<BackupAndRestore>(dir, BackupAndRestoreOptions{.save_freq = freq});
  for (int n : crashes) EXPECT_THROW(train(dataset, {backup, Crash(n)}), Interrupt);
  EXPECT_TRUE(fs::exists(backup->write_checkpoint_dir() + "/checkpoint"));
  const TrainResult resumed = train(dataset, {backup});
  ASSERT_TRUE(backup->restored_from().has_value());
  EXPECT_EQ(resumed.state, reference.state);
  // The epochs trained after the resume report the same losses (metrics were restored).
  ASSERT_FALSE(resumed.last_losses.empty());
  EXPECT_EQ(resumed.last_losses.back(), reference.last_losses.back());
  EXPECT_FALSE(fs::exists(dir)) << "delete_checkpoint";
}

TEST(BackupAndRestore, ResumesMidEpochExactlyOnTensors) {
  // 96 samples, batch 16: 6 batches per epoch; backups every 4 batches land mid-epoch.
  check_resume(false, 4, {7, 5, 3});
}

TEST(BackupAndRestore, ResumesMidEpochExactlyOnADataset) { check_resume(true, 4, {9, 2, 6}); }

TEST(BackupAndRestore, ResumesAtEpochBoundaries) { check_resume(true, "epoch", {8, 7}); }

TEST(BackupAndRestore, ResumedAtAnEpochsLastBatchReportsThatEpochsMetrics) {
  const TrainResult reference = train(false, {});
  const std::string dir = test::temp_dir("bar_epoch_end");
  auto backup = std::make_shared<BackupAndRestore>(dir, BackupAndRestoreOptions{.save_freq = 3});
  EXPECT_THROW(train(false, {backup, Crash(6)}), Interrupt);  // backup after batch 5 of 0..5
  const TrainResult resumed = train(false, {backup});
  EXPECT_EQ(resumed.state, reference.state);
  EXPECT_EQ(resumed.last_losses, reference.last_losses);  // epoch 1's loss included
}

TEST(BackupAndRestore, KeepsTheBackupWhenAsked) {
  const std::string dir = test::temp_dir("bar_keep");
  BackupAndRestore keep(dir, {.delete_checkpoint = false});
  auto ptr = std::make_shared<BackupAndRestore>(std::move(keep));
  train(false, {ptr}, 1);
  EXPECT_TRUE(fs::exists(ptr->write_checkpoint_dir() + "/checkpoint"));
  // A finished backup resumes past the last epoch: nothing more to train.
  TrainResult again = train(false, {ptr}, 1);
  EXPECT_TRUE(ptr->restored_from().has_value());
  EXPECT_TRUE(again.last_losses.empty());
  EXPECT_THROW(BackupAndRestore(""), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::keras::callbacks
