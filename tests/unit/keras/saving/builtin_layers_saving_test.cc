// Every built-in layer comes back from model.save / load_model: the image and sequence models
// below use all of them once (beyond the seed's, which the other saving tests cover); the loaded
// models print the same JSON and predict bit for bit what the saved ones do.
#include <gtest/gtest.h>

#include "tests/unit/keras/saving/saving_test_util.h"
#include "tfcc/keras/saving/layer_registry.h"
#include "tfcc/keras/saving/model_saving.h"

namespace tfcc::keras {
namespace {

void expect_round_trip(Model& model, const Tensor& x, const std::string& name) {
  model.compile({.optimizer = "sgd", .loss = "mse"});
  const std::string dir = test::temp_dir(name);
  model.save(dir + "/m");
  auto loaded = models::load_model(dir + "/m");
  EXPECT_EQ(models::model_to_json(*loaded), models::model_to_json(model));
  EXPECT_EQ(loaded->summary_string(), model.summary_string());
  EXPECT_EQ(loaded->predict(x).to_vector<float>(), model.predict(x).to_vector<float>());
}

TEST(SaveBuiltinLayers, ImageLayersRoundTrip) {
  auto inputs = Input({8, 8, 3});
  auto h = layers::ZeroPadding2D({{1, 1}, {2, 0}})(inputs);
  h = layers::Conv2D(4, 3, {.activation = "elu", .kernel_regularizer = regularizers::l1(0.01)})(h);
  h = layers::DepthwiseConv2D(3, {.depth_multiplier = 2, .activation = "relu"})(h);
  h = layers::Conv2DTranspose(3, 3, {.strides = 2, .padding = "same", .use_bias = false})(h);
  h = layers::ReLU({.max_value = 6.0, .negative_slope = 0.1})(h);
  h = layers::LayerNormalization({.epsilon = 1e-5, .center = false})(h);
  auto avg = layers::GlobalAveragePooling2D()(h);
  auto max = layers::GlobalMaxPooling2D({.keepdims = true})(h);
  auto out = layers::Concatenate()({avg, layers::Flatten()(max)});
  out = layers::Softmax({.axis = -1})(layers::Dense(5)(out));
  Model model(inputs, out, {.name = "image_layers"});
  expect_round_trip(model, random::normal({4, 8, 8, 3}, 0, 1, float32, 5), "image_layers");
}

TEST(SaveBuiltinLayers, SequenceLayersRoundTrip) {
  auto inputs = Input({7}, {.dtype = int32});
  auto h = layers::Embedding(20, 4, {.embeddings_regularizer = regularizers::l2(0.01)})(inputs);
  h = layers::Conv1D(6, 2, {.padding = "causal", .dilation_rate = 2, .activation = "tanh"})(h);
  h = layers::LSTM(5, {.return_sequences = true})(h);
  h = layers::GRU(
      4,
      {.recurrent_activation = "hard_sigmoid", .return_sequences = true, .go_backwards = true})(h);
  auto out = layers::SimpleRNN(3, {.activation = "relu"})(h);
  Model model(inputs, out, {.name = "sequence_layers"});
  Tensor x = cast(random::uniform({4, 7}, 0, 20, float32, 6), int32);
  expect_round_trip(model, x, "sequence_layers");
}

TEST(SaveBuiltinLayers, LoadedRecurrentLayersKeepTheirSettings) {
  auto inputs = Input({3, 2});
  auto out = layers::GRU(2, {.reset_after = false, .return_state = false})(inputs);
  Model model(inputs, out);
  model.compile({.optimizer = "sgd", .loss = "mse"});
  const std::string dir = test::temp_dir("gru_settings");
  model.save(dir + "/m");
  const std::string json = models::model_to_json(*models::load_model(dir + "/m"));
  EXPECT_NE(json.find("\"reset_after\": false"), std::string::npos) << json;
  EXPECT_NE(json.find("\"recurrent_activation\": \"sigmoid\""), std::string::npos) << json;
}

TEST(SaveBuiltinLayers, GenericRnnWithEachCellRoundTrip) {
  auto inputs = Input({5, 3});
  auto h = layers::RNN(layers::LSTMCell(4), {.return_sequences = true})(inputs);
  h = layers::RNN(layers::GRUCell(3, {.reset_after = false}),
                  {.return_sequences = true, .go_backwards = true})(h);
  auto out = layers::RNN(layers::SimpleRNNCell(2, {.activation = "relu"}))(h);
  Model model(inputs, out, {.name = "generic_rnn"});
  const std::string json = models::model_to_json(model);
  EXPECT_NE(json.find("\"class_name\": \"GRUCell\""), std::string::npos) << json;
  expect_round_trip(model, random::normal({2, 5, 3}, 0, 1, float32, 7), "generic_rnn");
}

TEST(SaveBuiltinLayers, RnnConfigWhoseCellIsNotACellIsRejected) {
  const auto not_a_cell = saving::Json::from_python_literal(
      "{'name': 'r', 'cell': {'class_name': 'Dense', 'config': {'units': 2}}}");
  EXPECT_THROW(
      {
        try {
          saving::layer_from_config("RNN", not_a_cell);
        } catch (const InvalidArgumentError& e) {
          EXPECT_NE(std::string(e.what()).find("'Dense' is not a recurrent cell"),
                    std::string::npos)
              << e.what();
          throw;
        }
      },
      InvalidArgumentError);
  const auto unknown_cell = saving::Json::from_python_literal(
      "{'name': 'r', 'cell': {'class_name': 'PeepholeCell', 'config': {'units': 2}}}");
  EXPECT_THROW(saving::layer_from_config("RNN", unknown_cell), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::keras
