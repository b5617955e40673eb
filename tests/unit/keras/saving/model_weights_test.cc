// Model.save_weights / load_weights: TF object-path keys, a bitwise round trip of weights and
// optimizer state, and errors on mismatched architectures.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/unit/keras/saving/saving_test_util.h"
#include "tfcc/io/checkpoint/checkpoint_reader.h"
#include "tfcc/io/checkpoint/checkpoint_state.h"

namespace tfcc::keras {
namespace {

TEST(SaveWeights, KeysAreKerasObjectPaths) {
  auto [x, y] = test::mlp_data();
  auto model = test::mlp();
  model->fit(x, y, {.batch_size = 32, .epochs = 1, .verbose = 0});
  const std::string dir = test::temp_dir("keys");
  model->save_weights(dir + "/w");
  train::CheckpointReader reader(dir + "/w");
  std::vector<std::string> keys;
  for (const auto& [k, shape] : reader.get_variable_to_shape_map()) keys.push_back(k);
  for (const char* want : {"layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE",
                           "layer_with_weights-0/bias/.ATTRIBUTES/VARIABLE_VALUE",
                           "layer_with_weights-1/kernel/.ATTRIBUTES/VARIABLE_VALUE",
                           "optimizer/_iterations/.ATTRIBUTES/VARIABLE_VALUE",
                           "optimizer/_variables/1/.ATTRIBUTES/VARIABLE_VALUE",
                           "optimizer/_variables/8/.ATTRIBUTES/VARIABLE_VALUE"}) {
    EXPECT_NE(std::find(keys.begin(), keys.end(), want), keys.end()) << want;
  }
  // Layer names ("dense_7", ...) never appear: keys are stable from process to process.
  for (const auto& k : keys) EXPECT_EQ(k.find("dense"), std::string::npos) << k;
}

TEST(SaveWeights, RoundTripIsBitwiseWithOptimizerState) {
  auto [x, y] = test::mlp_data();
  auto a = test::mlp();
  a->fit(x, y, {.batch_size = 32, .epochs = 2, .verbose = 0});
  const std::string dir = test::temp_dir("round_trip");
  a->save_weights(dir + "/ckpt");
  auto b = test::mlp();  // fresh weights, no optimizer slots yet
  ASSERT_NE(test::state_bytes(*a), test::state_bytes(*b));
  b->load_weights(dir + "/ckpt");
  EXPECT_EQ(test::state_bytes(*a), test::state_bytes(*b));
  EXPECT_EQ(b->optimizer()->iterations().read_value().item<int64_t>(), 6);
  EXPECT_EQ(train::latest_checkpoint(dir), dir + "/ckpt");
}

TEST(SaveWeights, UncompiledModelLoadsWeightsOnly) {
  auto [x, y] = test::mlp_data();
  auto a = test::mlp();
  a->fit(x, y, {.batch_size = 32, .epochs = 1, .verbose = 0});
  const std::string dir = test::temp_dir("uncompiled");
  a->save_weights(dir + "/ckpt");
  auto b = test::mlp(/*compile=*/false);
  b->load_weights(dir + "/ckpt");
  EXPECT_EQ(b->predict(x).to_vector<float>(), a->predict(x).to_vector<float>());
}

TEST(SaveWeights, MismatchedArchitectureIsAnError) {
  auto a = test::mlp();
  const std::string dir = test::temp_dir("mismatch");
  a->save_weights(dir + "/ckpt");
  Sequential wider({layers::Dense(17, {.input_shape = {6}}), layers::Dense(3)});
  EXPECT_THROW(wider.load_weights(dir + "/ckpt"), Error);
  Sequential reordered(
      {layers::Dense(16, {.input_shape = {6}}), layers::Dense(3), layers::Dense(2)});
  EXPECT_THROW(reordered.load_weights(dir + "/ckpt"), InvalidArgumentError);
  Sequential deeper({layers::Dense(16, {.input_shape = {6}}), layers::Dropout(0.5),
                     layers::Dense(3), layers::Dense(3)});
  EXPECT_THROW(deeper.load_weights(dir + "/ckpt"), FailedPreconditionError);
  EXPECT_THROW(a->load_weights(dir + "/absent"), NotFoundError);
  Sequential unbuilt({layers::Dense(3)});
  EXPECT_THROW(unbuilt.save_weights(dir + "/x"), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::keras
