// Model.save / keras::models::load_model: architecture, compile config, weights and optimizer
// state come back; predictions are equal and training continues with the same steps.
#include "tfcc/keras/saving/model_saving.h"

#include <gtest/gtest.h>

#include <fstream>

#include "tests/unit/keras/saving/saving_test_util.h"
#include "tfcc/keras/saving/layer_registry.h"

namespace tfcc::keras {
namespace {

TEST(SaveModel, LoadedSequentialPredictsTheSameAndTrainsOnIdentically) {
  auto [x, y] = test::mlp_data();
  auto model = test::mlp();
  model->fit(x, y, {.batch_size = 32, .epochs = 2, .verbose = 0});
  const std::string dir = test::temp_dir("sequential");
  model->save(dir + "/model");

  auto loaded = models::load_model(dir + "/model");
  ASSERT_TRUE(loaded->compiled());
  EXPECT_NE(dynamic_cast<Sequential*>(loaded.get()), nullptr);
  EXPECT_EQ(loaded->layers().size(), 3u);
  EXPECT_EQ(loaded->summary_string(), model->summary_string());
  EXPECT_EQ(test::state_bytes(*loaded), test::state_bytes(*model));
  EXPECT_EQ(loaded->predict(x).to_vector<float>(), model->predict(x).to_vector<float>());

  // The same next steps: both continue from the same weights, slots, iteration count and
  // random state (the dropout stream is seeded per call count, restored here by the seed).
  const Tensor state = random::get_global_state();
  model->fit(x, y, {.batch_size = 32, .epochs = 1, .verbose = 0, .shuffle = false});
  random::set_global_state(state);
  loaded->fit(x, y, {.batch_size = 32, .epochs = 1, .verbose = 0, .shuffle = false});
  EXPECT_EQ(test::state_bytes(*loaded), test::state_bytes(*model));
}

TEST(SaveModel, FunctionalModelRoundTrip) {
  auto inputs = Input({6});
  auto h = layers::Dense(8, {.activation = "tanh"})(inputs);
  auto a = layers::Dense(3)(h);
  auto b = layers::Dense(3, {.name = "side"})(inputs);
  auto out = layers::Add()({a, b});
  Model model(inputs, out, {.name = "two_paths"});
  model.compile({.optimizer = optimizers::SGD(0.05), .loss = "mse"});
  auto [x, y] = test::mlp_data();
  Tensor target = one_hot(y, 3);
  model.fit(x, target, {.batch_size = 32, .epochs = 1, .verbose = 0});
  const std::string dir = test::temp_dir("functional");
  model.save(dir + "/m");
  auto loaded = models::load_model(dir + "/m");
  EXPECT_EQ(loaded->name(), "two_paths");
  EXPECT_TRUE(loaded->is_graph_network());
  EXPECT_EQ(loaded->predict(x).to_vector<float>(), model.predict(x).to_vector<float>());
  EXPECT_EQ(models::model_to_json(*loaded), models::model_to_json(model));
}

class Scale : public Layer {
  TFCC_KERAS_LAYER(Scale)
 public:
  explicit Scale(double factor, LayerArgs args = {})
      : Layer(std::move(args), "scale"), factor_(factor) {}
  Config get_config() const override {
    Config c = Layer::get_config();
    c.emplace_back("factor", config::repr(factor_));
    return c;
  }

 protected:
  Tensor call(const Tensor& x, bool) override { return multiply(x, factor_); }

 private:
  double factor_;
};

TEST(SaveModel, CustomLayerNeedsRegistration) {
  Sequential model({layers::Dense(4, {.input_shape = {6}}), Scale(2.5)});
  const std::string dir = test::temp_dir("custom");
  model.save(dir + "/m");
  try {
    models::load_model(dir + "/m");
    FAIL() << "loaded a model with an unregistered layer";
  } catch (const InvalidArgumentError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("Unknown layer: 'Scale'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("register_layer(\"Scale\""), std::string::npos) << msg;
  }
  saving::register_layer("Scale", [](const saving::Json& c) {
    return std::make_shared<Scale>(c.at("factor").as_number("factor"),
                                   saving::layer_args_from_config(c));
  });
  auto loaded = models::load_model(dir + "/m");
  auto [x, y] = test::mlp_data(8);
  EXPECT_EQ(loaded->predict(x).to_vector<float>(), model.predict(x).to_vector<float>());
}

TEST(SaveModel, DamagedOrMissingFilesAreRejected) {
  auto model = test::mlp();
  const std::string dir = test::temp_dir("damaged");
  EXPECT_THROW(models::load_model(dir + "/nothing"), NotFoundError);
  model->save(dir + "/m");
  {
    std::ofstream f(dir + "/m/config.json", std::ios::app);
    f << " ";
  }
  EXPECT_THROW(models::load_model(dir + "/m"), DataLossError);
}

TEST(SaveModel, ConvModelKeepsRegularizers) {
  Sequential model({layers::Conv2D(4, 3,
                                   {.activation = "relu",
                                    .kernel_regularizer = regularizers::l2(0.02),
                                    .input_shape = {8, 8, 1}}),
                    layers::MaxPooling2D(), layers::Flatten(), layers::BatchNormalization(),
                    layers::Dense(2)});
  model.compile({.optimizer = "adam", .loss = "mse"});
  const std::string dir = test::temp_dir("conv");
  model.save(dir + "/m");
  auto loaded = models::load_model(dir + "/m");
  ASSERT_EQ(loaded->losses().size(), 1u);
  EXPECT_EQ(loaded->losses()[0].item<float>(), model.losses()[0].item<float>());
  Tensor x = random::normal({2, 8, 8, 1}, 0, 1, float32, 4);
  EXPECT_EQ(loaded->predict(x).to_vector<float>(), model.predict(x).to_vector<float>());
}

}  // namespace
}  // namespace tfcc::keras
