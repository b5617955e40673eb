// EarlyStopping, LearningRateScheduler, ReduceLROnPlateau, CSVLogger, LambdaCallback and
// TerminateOnNaN: driven hook by hook with chosen logs (Keras' rules, step by step) and inside fit.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <sstream>

#include "tfcc/keras/callbacks/csv_logger.h"
#include "tfcc/keras/callbacks/early_stopping.h"
#include "tfcc/keras/callbacks/lambda_callback.h"
#include "tfcc/keras/callbacks/learning_rate.h"
#include "tfcc/keras/callbacks/python_repr.h"
#include "tfcc/platform/file.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras::callbacks {
namespace {

Sequential compiled_model(double lr = 0.1) {
  Sequential model({layers::Dense(1, {.input_shape = {2}})});
  model.compile({.optimizer = optimizers::SGD(lr), .loss = "mse"});
  return model;
}

// Runs epoch_end hooks with the given monitor values; returns the epoch training stopped at
// (or -1).
int drive(Callback& cb, Model& model, const std::vector<double>& values,
          const std::string& name = "val_loss") {
  cb.set_model(&model);
  Logs none;
  cb.on_train_begin(none);
  for (size_t e = 0; e < values.size(); ++e) {
    Logs logs{{name, values[e]}};
    cb.on_epoch_end(int(e), logs);
    if (model.stop_training) return int(e);
  }
  return -1;
}

TEST(EarlyStoppingTest, PatienceAndMinDelta) {
  auto model = compiled_model();
  EarlyStopping patient({.patience = 2});
  // Improves at 0, 1; no improvement at 2, 3 -> stops at epoch 3.
  EXPECT_EQ(drive(patient, model, {1.0, 0.9, 0.95, 0.91, 0.5}), 3);
  EXPECT_EQ(patient.best_epoch(), 1);
  EXPECT_EQ(patient.stopped_epoch(), 3);

  auto model2 = compiled_model();
  EarlyStopping delta({.min_delta = 0.1, .patience = 1});
  // 0.95 is not 0.1 better than the best (1.0): no improvement, patience 1 is used up.
  EXPECT_EQ(drive(delta, model2, {1.0, 0.95, 0.5}), 1);

  auto model3 = compiled_model();
  EarlyStopping acc({.monitor = "val_accuracy", .patience = 1});
  EXPECT_EQ(drive(acc, model3, {0.5, 0.6, 0.7, 0.65}, "val_accuracy"), 3);

  // An improvement that does not beat the baseline does not reset the wait.
  auto model4 = compiled_model();
  EarlyStopping baseline({.patience = 2, .baseline = 0.5});
  EXPECT_EQ(drive(baseline, model4, {1.0, 1.0, 1.0}), 1);
  auto model4b = compiled_model();
  EarlyStopping no_baseline({.patience = 2});
  EXPECT_EQ(drive(no_baseline, model4b, {1.0, 1.0, 1.0}), 2);

  auto model5 = compiled_model();
  EarlyStopping missing({.monitor = "val_auc"});
  EXPECT_EQ(drive(missing, model5, {1.0, 2.0}), -1);
}

TEST(EarlyStoppingTest, RestoresTheBestWeights) {
  auto model = compiled_model();
  EarlyStopping stop({.patience = 1, .verbose = 1, .restore_best_weights = true});
  stop.set_model(&model);
  Logs none;
  stop.on_train_begin(none);
  std::vector<Tensor> best;
  for (int e = 0; e < 3; ++e) {
    model.set_weights({fill({2, 1}, e, float32), fill({1}, e, float32)});
    Logs logs{{"val_loss", e == 1 ? 0.1 : 1.0}};
    testing::internal::CaptureStdout();
    stop.on_epoch_end(e, logs);
    std::string out = testing::internal::GetCapturedStdout();
    if (e == 2) {
      EXPECT_EQ(out, "Restoring model weights from the end of the best epoch: 2.\n");
    }
  }
  EXPECT_TRUE(model.stop_training);
  EXPECT_EQ(model.get_weights()[0].to_vector<float>(), (std::vector<float>{1, 1}));
  testing::internal::CaptureStdout();
  stop.on_train_end(none);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "Epoch 3: early stopping\n");
}

TEST(EarlyStoppingTest, StopsFit) {
  random::set_seed(3);
  Tensor x = random::normal({64, 2});
  Tensor y = random::normal({64, 1});  // noise: the validation loss soon stops improving
  auto model = compiled_model(0.5);
  auto history = model.fit(
      x, y,
      {.epochs = 50,
       .verbose = 0,
       .callbacks = {EarlyStopping({.monitor = "loss", .min_delta = 10.0, .patience = 2})},
       .validation_split = 0.25});
  EXPECT_EQ(history.epoch().size(), 3u);
}

TEST(LearningRateSchedulerTest, SetsTheRateEachEpochAndLogsIt) {
  random::set_seed(4);
  Tensor x = random::normal({8, 2}), y = random::normal({8, 1});
  auto model = compiled_model(0.1);
  LearningRateScheduler halve([](int epoch, double lr) { return epoch == 0 ? lr : lr / 2; });
  auto history = model.fit(
      x, y, {.batch_size = 8, .epochs = 3, .verbose = 0, .callbacks = {std::move(halve)}});
  ASSERT_EQ(history["lr"].size(), 3u);
  EXPECT_NEAR(history["lr"][0], 0.1, 1e-7);
  EXPECT_NEAR(history["lr"][1], 0.05, 1e-7);
  EXPECT_NEAR(history["lr"][2], 0.025, 1e-7);
  EXPECT_NEAR(model.optimizer()->learning_rate().item<double>(), 0.025, 1e-7);

  auto model2 = compiled_model();
  LearningRateScheduler by_epoch([](int epoch) { return 0.01 * (epoch + 1); }, 1);
  by_epoch.set_model(&model2);
  Logs logs;
  testing::internal::CaptureStdout();
  by_epoch.on_epoch_begin(1, logs);
  EXPECT_EQ(testing::internal::GetCapturedStdout(),
            "\nEpoch 2: LearningRateScheduler setting learning rate to 0.02.\n");
  EXPECT_NEAR(model2.optimizer()->learning_rate().item<double>(), 0.02, 1e-8);
}

TEST(ReduceLROnPlateauTest, ReducesAfterPatienceWithCooldownAndFloor) {
  auto model = compiled_model(1.0);
  ReduceLROnPlateau plateau({.factor = 0.5, .patience = 2, .cooldown = 1, .min_lr = 0.2});
  plateau.set_model(&model);
  Logs none;
  plateau.on_train_begin(none);
  auto lr = [&] { return model.optimizer()->learning_rate().item<double>(); };
  std::vector<double> losses = {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0};
  // Reductions at epochs 2, 4 and 6 (one cooldown epoch each time), the last one floored at 0.2.
  std::vector<double> expected_lr = {1.0, 1.0, 0.5, 0.5, 0.25, 0.25, 0.2, 0.2};
  std::vector<double> logged;
  for (size_t e = 0; e < losses.size(); ++e) {
    Logs logs{{"val_loss", losses[e]}};
    plateau.on_epoch_end(int(e), logs);
    logged.push_back(*logs.get("lr"));
    EXPECT_NEAR(lr(), expected_lr[e], 1e-7) << "epoch " << e;
  }
  // The logged rate is the one in force during the epoch (before a reduction at its end).
  EXPECT_NEAR(logged[2], 1.0, 1e-7);
  // Further plateaus reach the floor 0.2 and stop there.
  for (int e = 8; e < 14; ++e) {
    Logs logs{{"val_loss", 1.0}};
    plateau.on_epoch_end(e, logs);
  }
  EXPECT_NEAR(lr(), 0.2, 1e-7);
  EXPECT_THROW(ReduceLROnPlateau({.factor = 1.0}), InvalidArgumentError);
}

TEST(CSVLoggerTest, WritesSortedColumnsAndAppends) {
  std::string dir = ::testing::TempDir() + "/csv_logger_test";
  make_dirs(dir);
  std::string path = dir + "/log.csv";
  CSVLogger csv(path);
  auto model = compiled_model();
  csv.set_model(&model);
  Logs none;
  csv.on_train_begin(none);
  Logs e0{{"loss", 0.5}, {"accuracy", static_cast<double>(0.25f)}, {"val_loss", 1e-05}};
  csv.on_epoch_end(0, e0);
  Logs e1{{"loss", 0.25}, {"accuracy", 1.0}};
  csv.on_epoch_end(1, e1);
  csv.on_train_end(none);
  EXPECT_EQ(read_file(path),
            "epoch,accuracy,loss,val_loss\r\n0,0.25,0.5,1e-05\r\n1,1.0,0.25,NA\r\n");
  CSVLogger more(path, {.separator = ";", .append = true});
  more.set_model(&model);
  more.on_train_begin(none);
  Logs e2{{"loss", 0.125}};
  more.on_epoch_end(2, e2);
  EXPECT_EQ(read_file(path),
            "epoch,accuracy,loss,val_loss\r\n0,0.25,0.5,1e-05\r\n1,1.0,0.25,NA\r\n2;0.125\r\n");
}

TEST(PythonReprTest, MatchesPythonFloatFormatting) {
  EXPECT_EQ(python_float_repr(0.001), "0.001");
  EXPECT_EQ(python_float_repr(0.0001), "0.0001");
  EXPECT_EQ(python_float_repr(1e-05), "1e-05");
  EXPECT_EQ(python_float_repr(2.0), "2.0");
  EXPECT_EQ(python_float_repr(1e16), "1e+16");
  EXPECT_EQ(python_float_repr(123456.5), "123456.5");
  EXPECT_EQ(python_float_repr(static_cast<double>(0.1f)), "0.10000000149011612");
  EXPECT_EQ(python_float32_repr(0.1f), "0.1");
  EXPECT_EQ(python_float_repr(-0.5), "-0.5");
  EXPECT_EQ(python_float_repr(std::nan("")), "nan");
}

TEST(LambdaCallbackTest, CallsTheGivenFunctionsInFit) {
  random::set_seed(5);
  Tensor x = random::normal({16, 2}), y = random::normal({16, 1});
  auto model = compiled_model();
  int train_begin = 0, train_end = 0, epochs_begun = 0, batches = 0;
  std::vector<double> losses;
  LambdaCallback cb({.on_epoch_begin = [&](int, Logs&) { ++epochs_begun; },
                     .on_epoch_end = [&](int, Logs& logs) { losses.push_back(*logs.get("loss")); },
                     .on_batch_end = [&](int, Logs&) { ++batches; },
                     .on_train_begin = [&](Logs&) { ++train_begin; },
                     .on_train_end = [&](Logs&) { ++train_end; }});
  auto history =
      model.fit(x, y, {.batch_size = 4, .epochs = 2, .verbose = 0, .callbacks = {std::move(cb)}});
  EXPECT_EQ(train_begin, 1);
  EXPECT_EQ(train_end, 1);
  EXPECT_EQ(epochs_begun, 2);
  EXPECT_EQ(batches, 8);
  EXPECT_EQ(losses, history["loss"]);
}

TEST(TerminateOnNaNTest, StopsOnAnInvalidLoss) {
  auto model = compiled_model();
  TerminateOnNaN cb;
  cb.set_model(&model);
  Logs fine{{"loss", 1.0}};
  cb.on_train_batch_end(0, fine);
  EXPECT_FALSE(model.stop_training);
  Logs bad{{"loss", std::numeric_limits<double>::infinity()}};
  testing::internal::CaptureStdout();
  cb.on_train_batch_end(7, bad);
  EXPECT_EQ(testing::internal::GetCapturedStdout(),
            "Batch 7: Invalid loss, terminating training\n");
  EXPECT_TRUE(model.stop_training);
}

}  // namespace
}  // namespace tfcc::keras::callbacks
