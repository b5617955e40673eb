// compile / fit / evaluate / predict: learning happens, History and metric names follow Keras,
// validation, weights, callbacks, custom train_step, the printed progress lines.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "tfcc/tfcc.h"

namespace tfcc::keras {
namespace {

// Two Gaussian blobs: label 1 where x0 + x1 > 0.
std::pair<Tensor, Tensor> blobs(int64_t n, uint64_t seed) {
  random::set_seed(seed);
  auto x = random::normal({n, 2});
  auto y = cast(greater(reduce_sum(x, 1), 0.0f), int64);
  return {x, y};
}

Sequential small_model() {
  return Sequential(
      {layers::Dense(16, {.activation = "relu", .input_shape = {2}}), layers::Dense(2)});
}

CompileOptions classifier(std::vector<MetricSpec> metrics = {"accuracy"}) {
  return {.optimizer = optimizers::Adam(0.01),
          .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
          .metrics = std::move(metrics)};
}

TEST(Fit, LearnsAndRecordsHistory) {
  auto [x, y] = blobs(256, 1);
  auto model = small_model();
  model.compile(classifier());
  auto history = model.fit(x, y, {.batch_size = 32, .epochs = 8, .verbose = 0});
  EXPECT_EQ(history.keys(), (std::vector<std::string>{"loss", "accuracy"}));
  EXPECT_EQ(history.epoch(), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_LT(history["loss"].back(), history["loss"].front() / 2);
  EXPECT_GT(history["accuracy"].back(), 0.9);
  auto results = model.evaluate(x, y, {.verbose = 0});
  ASSERT_EQ(results.size(), 2u);
  EXPECT_GT(results[1], 0.9);
  EXPECT_EQ(model.predict(x, {.batch_size = 100}).shape(), (Shape{256, 2}));
  EXPECT_EQ(model.optimizer()->iterations().read_value().item<int64_t>(), 8 * 8);
}

TEST(Fit, MetricNamesAreExactlyAsPassed) {
  auto [x, y] = blobs(64, 2);
  auto model = small_model();
  model.compile(
      classifier({"acc", "accuracy", metrics::SparseCategoricalAccuracy({.name = "my_accuracy"})}));
  auto history = model.fit(x, y, {.verbose = 0});
  EXPECT_EQ(history.keys(), (std::vector<std::string>{"loss", "acc", "accuracy", "my_accuracy"}));
  EXPECT_EQ(history["acc"], history["my_accuracy"]);
}

TEST(Evaluate, ReturnDictNamesLossAndMetricsAsKeras) {
  auto [x, y] = blobs(64, 2);
  auto model = small_model();
  model.compile(classifier({"acc", metrics::SparseCategoricalAccuracy({.name = "my_accuracy"})}));
  model.fit(x, y, {.verbose = 0});
  auto list = model.evaluate(x, y, {.verbose = 0});
  auto named = model.evaluate(x, y, {.verbose = 0, .return_dict = true});
  EXPECT_FALSE(list.is_dict());
  ASSERT_TRUE(named.is_dict());
  EXPECT_EQ(named.keys(), (std::vector<std::string>{"loss", "acc", "my_accuracy"}));
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(named["loss"], list[0]);
  EXPECT_EQ(named["acc"], list[1]);
  EXPECT_EQ(named["my_accuracy"], list[2]);
  EXPECT_EQ(named.dict().at("acc"), list[1]);
  std::vector<double> as_vector = list;  // the default form converts to a vector
  EXPECT_EQ(as_vector, list.values());
  // Each form refuses the other's accessors; an unknown name lists the known ones.
  EXPECT_THROW(named[0], InvalidArgumentError);
  EXPECT_THROW(list["loss"], InvalidArgumentError);
  EXPECT_THROW(list[3], OutOfRangeError);
  try {
    named["accuracy"];
    FAIL() << "expected NotFoundError";
  } catch (const NotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("loss, acc, my_accuracy"), std::string::npos);
  }
}

TEST(Fit, ValidationSplitAndData) {
  auto [x, y] = blobs(100, 3);
  auto model = small_model();
  model.compile(classifier());
  auto h = model.fit(x, y, {.epochs = 2, .verbose = 0, .validation_split = 0.2});
  EXPECT_EQ(h.keys(), (std::vector<std::string>{"loss", "accuracy", "val_loss", "val_accuracy"}));
  auto [vx, vy] = blobs(10, 4);
  auto h2 = model.fit(x, y, {.verbose = 0, .validation_data = ValidationData{vx, vy}});
  // val_loss equals evaluate on the same data.
  EXPECT_NEAR(h2["val_loss"][0], model.evaluate(vx, vy, {.verbose = 0})[0], 1e-6);
  EXPECT_THROW(model.fit(x, y, {.validation_split = 1.5}), InvalidArgumentError);
}

TEST(Fit, ZeroSampleWeightsLeaveTheModelUnchanged) {
  auto [x, y] = blobs(32, 5);
  auto model = small_model();
  model.compile(classifier());
  auto before = model.get_weights();
  auto h = model.fit(x, y, {.verbose = 0, .sample_weight = zeros({32})});
  EXPECT_EQ(h["loss"][0], 0.0);
  auto after = model.get_weights();
  for (size_t i = 0; i < before.size(); ++i) {
    EXPECT_EQ(before[i].to_vector<float>(), after[i].to_vector<float>());
  }
  // class_weight {0: 0, 1: 0} is the same thing.
  auto h2 = model.fit(x, y, {.verbose = 0, .class_weight = {{0, 0.0}, {1, 0.0}}});
  EXPECT_EQ(h2["loss"][0], 0.0);
  EXPECT_THROW(model.fit(x, y, {.verbose = 0, .class_weight = {{1, 1.0}}}), InvalidArgumentError);
}

TEST(Fit, RegularizationLossesAreAddedToTheLoss) {
  auto [x, y] = blobs(16, 6);
  Sequential model({layers::Dense(2, {.kernel_initializer = "ones",
                                      .kernel_regularizer = regularizers::l2(0.5),
                                      .input_shape = {2}})});
  model.compile({.optimizer = optimizers::SGD(0.0),
                 .loss = losses::SparseCategoricalCrossentropy({.from_logits = true})});
  auto h = model.fit(x, y, {.batch_size = 16, .verbose = 0});
  // Both logits are equal (ones kernel, zero bias): cross-entropy log 2, plus 0.5 * 4.
  EXPECT_NEAR(h["loss"][0], std::log(2.0) + 2.0, 1e-5);
}

class StopAfter : public callbacks::Callback {
 public:
  explicit StopAfter(int epoch) : epoch_(epoch) {}
  void on_epoch_end(int epoch, callbacks::Logs&) override {
    if (epoch == epoch_) model()->stop_training = true;
  }

 private:
  int epoch_;
};

TEST(Fit, CallbacksCanStopTrainingAndInitialEpochCounts) {
  auto [x, y] = blobs(32, 7);
  auto model = small_model();
  model.compile(classifier());
  auto h = model.fit(x, y,
                     {.epochs = 10, .verbose = 0, .callbacks = {StopAfter(3)}, .initial_epoch = 2});
  EXPECT_EQ(h.epoch(), (std::vector<int>{2, 3}));
}

TEST(Fit, ProgressLinesFollowKeras) {
  auto [x, y] = blobs(100, 8);
  auto model = small_model();
  model.compile(classifier());
  std::ostringstream out;
  model.fit(x, y,
            {.batch_size = 25,
             .epochs = 2,
             .verbose = 1,
             .callbacks = {callbacks::ProgbarLogger({.out = &out, .dynamic = false})}});
  std::istringstream lines(out.str());
  std::string line;
  std::vector<std::string> all;
  while (std::getline(lines, line)) all.push_back(line);
  ASSERT_EQ(all.size(), 4u) << out.str();
  EXPECT_EQ(all[0], "Epoch 1/2");
  EXPECT_EQ(all[1].substr(0, 39), "4/4 [==============================] - ");
  EXPECT_NE(all[1].find("s/step - loss: "), std::string::npos) << all[1];
  EXPECT_NE(all[1].find(" - accuracy: "), std::string::npos) << all[1];
  EXPECT_EQ(all[2], "Epoch 2/2");
}

class CountingModel : public Model {
 public:
  CountingModel() { dense_ = track_layer(std::make_shared<layers::Dense>(2)); }
  StepLogs train_step(const data::Element& batch) override {
    ++steps;
    return Model::train_step(batch);
  }
  int steps = 0;

 protected:
  Tensor call(const Tensor& x, bool) override { return (*dense_)(x); }

 private:
  std::shared_ptr<layers::Dense> dense_;
};

TEST(Fit, CustomTrainStepAndDatasets) {
  auto [x, y] = blobs(40, 9);
  CountingModel model;
  auto options = classifier();
  options.run_eagerly = true;
  model.compile(options);
  auto ds = data::Dataset::from_tensor_slices({x, y}).batch(8);
  auto h = model.fit(ds, {.epochs = 2, .verbose = 0});
  EXPECT_EQ(model.steps, 10);  // eagerly, the C++ body runs at every step
  // Traced, it runs for the first (eager) step and once more while tracing, as tf.function.
  model.compile(classifier());
  model.steps = 0;
  model.fit(ds, {.epochs = 2, .verbose = 0});
  EXPECT_EQ(model.steps, 2);
  EXPECT_EQ(h["loss"].size(), 2u);
  EXPECT_EQ(model.evaluate(ds, {.verbose = 0}).size(), 2u);
  EXPECT_EQ(model.predict(ds).shape(), (Shape{40, 2}));
  EXPECT_THROW(model.fit(ds, {.batch_size = 8}), InvalidArgumentError);
}

TEST(Fit, TracedAndEagerStepsAgree) {
  auto [x, y] = blobs(48, 10);
  std::vector<std::vector<Tensor>> weights;
  std::vector<double> losses;
  for (bool eager : {true, false}) {
    random::set_seed(3);
    Sequential model({layers::Dense(8, {.activation = "tanh", .input_shape = {2}}),
                      layers::BatchNormalization(), layers::Dense(2)});
    auto options = classifier();
    options.run_eagerly = eager;
    model.compile(options);
    auto h = model.fit(x, y, {.batch_size = 16, .epochs = 3, .verbose = 0, .shuffle = false});
    weights.push_back(model.get_weights());
    losses.push_back(h["loss"].back());
  }
  EXPECT_NEAR(losses[0], losses[1], 1e-5);
  for (size_t i = 0; i < weights[0].size(); ++i) {
    auto a = weights[0][i].to_vector<float>(), b = weights[1][i].to_vector<float>();
    for (size_t j = 0; j < a.size(); ++j) EXPECT_NEAR(a[j], b[j], 1e-5);
  }
}

TEST(Fit, NeedsCompile) {
  auto model = small_model();
  EXPECT_THROW(model.fit(ones({4, 2}), zeros({4}, int64)), FailedPreconditionError);
  model.compile(classifier());
  EXPECT_THROW(model.fit(ones({4, 2}), zeros({3}, int64)), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::keras
