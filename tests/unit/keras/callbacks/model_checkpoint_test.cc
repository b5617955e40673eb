// ModelCheckpoint: filepath formatting, save_best_only in min / max / auto modes with Keras'
// messages, save_weights_only, and saving every N batches.
#include "tfcc/keras/callbacks/model_checkpoint.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <sstream>

#include "tests/unit/keras/saving/saving_test_util.h"
#include "tfcc/keras/saving/model_saving.h"

namespace tfcc::keras::callbacks {
namespace {

namespace fs = std::filesystem;

TEST(ModelCheckpoint, FilepathFormatting) {
  Logs logs{{"loss", 0.123456}, {"val_loss", 0.5}};
  EXPECT_EQ(format_filepath("w.{epoch:02d}-{val_loss:.2f}.ckpt", {{"epoch", 3}}, logs),
            "w.03-0.50.ckpt");
  EXPECT_EQ(format_filepath("{epoch}_{batch:04d}_{loss:.3e}", {{"epoch", 12}, {"batch", 7}}, logs),
            "12_0007_1.235e-01");
  EXPECT_EQ(
      format_filepath("{loss}|{{literal}}|{val_loss:+.1f}|{epoch:5.1f}", {{"epoch", 2}}, logs),
      "0.123456|{literal}|+0.5|  2.0");
  EXPECT_EQ(format_filepath("{val_loss:.0%}", {}, logs), "50%");
  EXPECT_THROW(format_filepath("{accuracy}", {{"epoch", 1}}, logs), InvalidArgumentError);
  EXPECT_THROW(format_filepath("{loss:d}", {}, logs), InvalidArgumentError);
  EXPECT_THROW(format_filepath("{epoch:q}", {{"epoch", 1}}, logs), InvalidArgumentError);
  EXPECT_THROW(format_filepath("{epoch", {{"epoch", 1}}, logs), InvalidArgumentError);
}

// Drives on_epoch_end with chosen monitor values; returns what was printed.
std::string drive(ModelCheckpoint& cb, Model& model, const std::vector<double>& values,
                  const std::string& monitor) {
  std::ostringstream captured;
  auto* old = std::cout.rdbuf(captured.rdbuf());
  cb.set_model(&model);
  Logs none;
  cb.on_train_begin(none);
  for (size_t e = 0; e < values.size(); ++e) {
    Logs logs{{"loss", 1.0}, {monitor, values[e]}};
    cb.on_epoch_begin(int(e), none);
    cb.on_epoch_end(int(e), logs);
  }
  std::cout.rdbuf(old);
  return captured.str();
}

TEST(ModelCheckpoint, SaveBestOnlyMinModeWithMessages) {
  auto model = test::mlp();
  const std::string dir = test::temp_dir("mc_min");
  ModelCheckpoint cb(dir + "/w.{epoch:02d}-{val_loss:.2f}",
                     {.verbose = 1, .save_best_only = true, .save_weights_only = true});
  std::string out = drive(cb, *model, {0.5, 0.6, 0.4, 0.4}, "val_loss");
  EXPECT_EQ(out, "\nEpoch 1: val_loss improved from inf to 0.50000, saving model to " + dir +
                     "/w.01-0.50\n"
                     "\nEpoch 2: val_loss did not improve from 0.50000\n"
                     "\nEpoch 3: val_loss improved from 0.50000 to 0.40000, saving model to " +
                     dir +
                     "/w.03-0.40\n"
                     "\nEpoch 4: val_loss did not improve from 0.40000\n");
  EXPECT_TRUE(fs::exists(dir + "/w.01-0.50.index"));
  EXPECT_FALSE(fs::exists(dir + "/w.02-0.60.index"));
  EXPECT_TRUE(fs::exists(dir + "/w.03-0.40.index"));
  EXPECT_FALSE(fs::exists(dir + "/w.04-0.40.index"));
  EXPECT_EQ(cb.best(), 0.4);
}

TEST(ModelCheckpoint, AutoModeMaximisesAccuracyAndMissingMonitorSkips) {
  auto model = test::mlp();
  const std::string dir = test::temp_dir("mc_max");
  ModelCheckpoint cb(
      dir + "/e{epoch}",
      {.monitor = "val_accuracy", .save_best_only = true, .save_weights_only = true});
  drive(cb, *model, {0.5, 0.7, 0.6}, "val_accuracy");
  EXPECT_TRUE(fs::exists(dir + "/e1.index"));
  EXPECT_TRUE(fs::exists(dir + "/e2.index"));
  EXPECT_FALSE(fs::exists(dir + "/e3.index"));
  ModelCheckpoint missing(dir + "/m{epoch}", {.monitor = "val_auc", .save_best_only = true});
  drive(missing, *model, {0.5}, "val_accuracy");
  EXPECT_FALSE(fs::exists(dir + "/m1"));
  // "min" forced on an accuracy: only decreases save.
  ModelCheckpoint forced(dir + "/f{epoch}", {.monitor = "val_accuracy",
                                             .save_best_only = true,
                                             .save_weights_only = true,
                                             .mode = "min"});
  drive(forced, *model, {0.5, 0.7, 0.4}, "val_accuracy");
  EXPECT_TRUE(fs::exists(dir + "/f1.index"));
  EXPECT_FALSE(fs::exists(dir + "/f2.index"));
  EXPECT_TRUE(fs::exists(dir + "/f3.index"));
}

TEST(ModelCheckpoint, InsideFitSavesWholeModelsEveryNBatches) {
  auto [x, y] = test::mlp_data();  // 96 samples, batch 32: 3 batches per epoch
  auto model = test::mlp();
  const std::string dir = test::temp_dir("mc_fit");
  auto cb = std::make_shared<ModelCheckpoint>(dir + "/m-{epoch}-{batch}",
                                              ModelCheckpointOptions{.save_freq = 2});
  model->fit(x, y, {.batch_size = 32, .epochs = 2, .verbose = 0, .callbacks = {cb}});
  // Batches seen: 1,2 | 3 ... saves after the 2nd, 4th and 6th batch.
  EXPECT_TRUE(fs::exists(dir + "/m-1-2/config.json"));
  EXPECT_TRUE(fs::exists(dir + "/m-2-1/config.json"));
  EXPECT_TRUE(fs::exists(dir + "/m-2-3/config.json"));
  EXPECT_FALSE(fs::exists(dir + "/m-1-1"));
  auto last = models::load_model(dir + "/m-2-3");
  EXPECT_EQ(test::state_bytes(*last), test::state_bytes(*model));
  EXPECT_THROW(ModelCheckpoint("p", {.save_freq = "batch"}), InvalidArgumentError);
  EXPECT_THROW(ModelCheckpoint("p", {.save_freq = 0}), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::keras::callbacks
