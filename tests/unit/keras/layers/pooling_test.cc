// Pooling layers: Keras' output shapes, values, gradients, and the seed CNN's summary.
#include "tfcc/keras/layers/pooling.h"

#include <gtest/gtest.h>

#include "examples/seed_cnn.h"
#include "tests/unit/keras/layers/layer_test_util.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras {
namespace {

TEST(MaxPooling2D, DefaultsHalveAndPickMaxima) {
  layers::MaxPooling2D p;
  EXPECT_EQ(p(ones({2, 26, 26, 32})).shape(), (Shape{2, 13, 13, 32}));
  auto x = reshape(constant({1.f, 5.f, 2.f, 3.f}), {1, 2, 2, 1});
  EXPECT_EQ(p(x).to_vector<float>(), (std::vector<float>{5.f}));
  layers::MaxPooling2D same(3, {.strides = 2, .padding = "same"});
  EXPECT_EQ(same(ones({1, 7, 7, 2})).shape(), (Shape{1, 4, 4, 2}));
  EXPECT_THROW(layers::MaxPooling2D(2, {.padding = "causal"}), InvalidArgumentError);
  EXPECT_THROW(p(ones({2, 2, 2})), InvalidArgumentError);
}

TEST(AveragePooling2D, MeansAndGradients) {
  layers::AveragePooling2D p;
  auto x = reshape(constant({1.f, 5.f, 2.f, 4.f}), {1, 2, 2, 1});
  EXPECT_EQ(p(x).to_vector<float>(), (std::vector<float>{3.f}));
  EXPECT_LT(testing::layer_gradient_error(p, random::normal({1, 4, 4, 2}, 0, 1, float64)), 1e-6);
  layers::MaxPooling2D m;
  EXPECT_LT(testing::layer_gradient_error(m, random::normal({1, 4, 4, 2}, 0, 1, float64)), 1e-6);
}

TEST(GlobalPooling2D, ReduceHeightAndWidth) {
  auto x = random::normal({2, 3, 4, 5});
  EXPECT_EQ(layers::GlobalAveragePooling2D()(x).shape(), (Shape{2, 5}));
  EXPECT_EQ(layers::GlobalMaxPooling2D({.keepdims = true})(x).shape(), (Shape{2, 1, 1, 5}));
  auto mean = layers::GlobalAveragePooling2D()(x).to_vector<float>();
  EXPECT_NEAR(mean[0], reduce_mean(x(0, all, all, 0)).item<float>(), 1e-6);
}

TEST(SeedCnn, SummaryMatchesKeras) {
  backend::clear_session();
  Sequential model = tfcc::examples::seed_cnn();
  // The table tf.keras 2.x prints for the seed's model.
  const std::string expected =
      "Model: \"sequential\"\n"
      "_________________________________________________________________\n"
      " Layer (type)                Output Shape              Param #   \n"
      "=================================================================\n"
      " conv2d (Conv2D)             (None, 26, 26, 32)        320       \n"
      "                                                                 \n"
      " max_pooling2d (MaxPooling2D  (None, 13, 13, 32)       0         \n"
      " )                                                               \n"
      "                                                                 \n"
      " flatten (Flatten)           (None, 5408)              0         \n"
      "                                                                 \n"
      " dropout (Dropout)           (None, 5408)              0         \n"
      "                                                                 \n"
      " dense (Dense)               (None, 64)                346176    \n"
      "                                                                 \n"
      " batch_normalization (BatchN  (None, 64)               256       \n"
      " ormalization)                                                   \n"
      "                                                                 \n"
      " dense_1 (Dense)             (None, 10)                650       \n"
      "                                                                 \n"
      "=================================================================\n"
      "Total params: 347,402\n"
      "Trainable params: 347,274\n"
      "Non-trainable params: 128\n"
      "_________________________________________________________________\n";
  EXPECT_EQ(model.summary_string(), expected);
}

}  // namespace
}  // namespace tfcc::keras
