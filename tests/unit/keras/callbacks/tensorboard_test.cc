// The TensorBoard callback inside fit: the logs read back with the event file reader.
#include "tfcc/keras/callbacks/tensorboard.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "tfcc/io/summary/event_file_reader.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras::callbacks {
namespace {

namespace fs = std::filesystem;

class TensorBoardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static int counter = 0;
    dir_ = fs::temp_directory_path() / ("tfcc_tensorboard_test_" + std::to_string(::getpid()) +
                                        "_" + std::to_string(counter++));
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // tag -> (step, value) of every scalar in run `run`; graph events counted apart.
  std::map<std::string, std::vector<std::pair<int64_t, double>>> scalars(const std::string& run) {
    std::map<std::string, std::vector<std::pair<int64_t, double>>> out;
    for (const summary::Event& e : events(run)) {
      for (const auto& v : e.summary) {
        if (v.metadata && v.metadata->plugin_name == "scalars") {
          out[v.tag].emplace_back(e.step, v.tensor->to_doubles().at(0));
        }
      }
    }
    return out;
  }
  std::vector<summary::Event> events(const std::string& run) {
    std::vector<summary::Event> all;
    if (!fs::exists(dir_ / run)) return all;
    for (const auto& f : fs::directory_iterator(dir_ / run)) {
      for (auto& e : summary::read_events(f.path().string())) all.push_back(std::move(e));
    }
    return all;
  }

  static Sequential model(optimizers::LearningRate lr = 0.05) {
    tfcc::random::set_seed(3);
    Sequential m({layers::Dense(1, {.input_shape = {2}})});
    m.compile({.optimizer = optimizers::SGD(lr), .loss = "mse", .metrics = {"mae"}});
    return m;
  }
  static std::pair<Tensor, Tensor> data(int n) {
    std::vector<float> xs, ys;
    for (int i = 0; i < n; ++i) {
      float a = static_cast<float>(i % 5) * 0.25f, b = static_cast<float>(i % 3) * 0.5f;
      xs.insert(xs.end(), {a, b});
      ys.push_back(a - 2 * b + 1);
    }
    return {Tensor::from_vector(xs, {n, 2}), Tensor::from_vector(ys, {n, 1})};
  }

  fs::path dir_;
};

TEST_F(TensorBoardTest, FitWritesEpochScalarsToTrainAndValidationRuns) {
  auto m = model();
  auto [x, y] = data(32);
  auto tb = std::make_shared<TensorBoard>(dir_.string());
  auto history = m.fit(x, y,
                       {.batch_size = 8,
                        .epochs = 3,
                        .verbose = 0,
                        .callbacks = {tb},
                        .validation_data = ValidationData{x, y}});
  auto train = scalars("train");
  auto val = scalars("validation");
  ASSERT_EQ(train["epoch_loss"].size(), 3u);
  ASSERT_EQ(train["epoch_mae"].size(), 3u);
  ASSERT_EQ(val["epoch_loss"].size(), 3u);
  for (int e = 0; e < 3; ++e) {
    EXPECT_EQ(train["epoch_loss"][e].first, e);
    EXPECT_FLOAT_EQ(train["epoch_loss"][e].second, history["loss"][e]);
    EXPECT_FLOAT_EQ(train["epoch_mae"][e].second, history["mae"][e]);
    EXPECT_FLOAT_EQ(val["epoch_loss"][e].second, history["val_loss"][e]);
    EXPECT_FLOAT_EQ(val["epoch_mae"][e].second, history["val_mae"][e]);
  }
  EXPECT_EQ(train.count("epoch_val_loss"), 0u);
  EXPECT_EQ(train.count("epoch_learning_rate"), 0u);  // a constant rate is not logged
  EXPECT_EQ(train.count("batch_loss"), 0u);           // update_freq "epoch"
  // Validation after each epoch, at the optimizer's iterations (4 batches an epoch).
  auto& eval = val["evaluation_loss_vs_iterations"];
  ASSERT_EQ(eval.size(), 3u);
  EXPECT_EQ(eval[0].first, 4);
  EXPECT_EQ(eval[2].first, 12);
  EXPECT_FLOAT_EQ(eval[2].second, history["val_loss"][2]);
  // The traced train step's graph, once.
  int graphs = 0;
  for (const auto& e : events("train")) graphs += !e.graph_def.empty();
  EXPECT_EQ(graphs, 1);
}

TEST_F(TensorBoardTest, UpdateFreqWritesBatchScalarsEveryNSteps) {
  auto m = model();
  auto [x, y] = data(32);
  auto tb = std::make_shared<TensorBoard>(
      dir_.string(), TensorBoardOptions{.write_graph = false, .update_freq = 3});
  m.fit(x, y, {.batch_size = 8, .epochs = 2, .verbose = 0, .callbacks = {tb}});
  auto train = scalars("train");
  std::vector<int64_t> steps;
  for (auto& [s, v] : train["batch_loss"]) steps.push_back(s);
  EXPECT_EQ(steps, (std::vector<int64_t>{3, 6}));  // 8 batches in all
  EXPECT_EQ(train["batch_mae"].size(), 2u);
  EXPECT_EQ(train["epoch_loss"].size(), 2u);
  EXPECT_FALSE(summary::should_record_summaries());  // the pushed writer was popped

  fs::remove_all(dir_);
  auto m2 = model();
  auto every =
      std::make_shared<TensorBoard>(dir_.string(), TensorBoardOptions{.update_freq = "batch"});
  m2.fit(x, y, {.batch_size = 8, .epochs = 1, .verbose = 0, .callbacks = {every}});
  EXPECT_EQ(scalars("train")["batch_loss"].size(), 4u);
}

TEST_F(TensorBoardTest, HistogramsOfEveryWeightEveryHistogramFreqEpochs) {
  auto m = model();
  auto [x, y] = data(16);
  auto tb = std::make_shared<TensorBoard>(dir_.string(), TensorBoardOptions{.histogram_freq = 2});
  m.fit(x, y, {.batch_size = 8, .epochs = 3, .verbose = 0, .callbacks = {tb}});
  std::map<std::string, std::vector<int64_t>> steps;
  for (const auto& e : events("train")) {
    for (const auto& v : e.summary) {
      if (v.metadata && v.metadata->plugin_name == "histograms") {
        steps[v.tag].push_back(e.step);
        std::vector<double> rows = v.tensor->to_doubles();
        double count = 0;
        for (size_t i = 2; i < rows.size(); i += 3) count += rows[i];
        EXPECT_EQ(count, v.tag.find("kernel") != std::string::npos ? 2 : 1) << v.tag;
      }
    }
  }
  ASSERT_EQ(steps.size(), 2u);  // the Dense kernel and bias
  for (const auto& [tag, s] : steps) {
    EXPECT_EQ(tag.substr(tag.size() - 10), "/histogram");
    EXPECT_EQ(tag.find(':'), std::string::npos);
    EXPECT_EQ(s, (std::vector<int64_t>{0, 2}));
  }
}

TEST_F(TensorBoardTest, ScheduledLearningRateIsLogged) {
  auto m = model(optimizers::schedules::ExponentialDecay(0.1, 2, 0.5));
  auto [x, y] = data(16);
  auto tb = std::make_shared<TensorBoard>(dir_.string());
  m.fit(x, y, {.batch_size = 8, .epochs = 2, .verbose = 0, .callbacks = {tb}});
  auto lr = scalars("train")["epoch_learning_rate"];
  ASSERT_EQ(lr.size(), 2u);
  EXPECT_NEAR(lr[0].second, 0.1 * std::pow(0.5, 2 / 2.0), 1e-7);  // after 2 steps
  EXPECT_NEAR(lr[1].second, 0.1 * std::pow(0.5, 4 / 2.0), 1e-7);
}

TEST_F(TensorBoardTest, InvalidOptions) {
  EXPECT_THROW(TensorBoard("x", {.update_freq = "sometimes"}), InvalidArgumentError);
  EXPECT_THROW(TensorBoard("x", {.update_freq = 0}), InvalidArgumentError);
  EXPECT_THROW(TensorBoard("x", {.histogram_freq = -1}), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::keras::callbacks
