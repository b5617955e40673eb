// Rescaling and Normalization against values Keras 3.15 computes, and their configs through
// model.save / load_model (tfcc's directory and Keras 3's .keras).
#include "tfcc/keras/layers/preprocessing.h"

#include <gtest/gtest.h>

#include "tests/unit/keras/saving/saving_test_util.h"
#include "tfcc/keras/saving/model_saving.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras {
namespace {

TEST(Rescaling, MatchesKeras) {
  // keras.layers.Rescaling(1 / 127.5, offset=-1.0)([0, 127.5, 255]) == [-1, 0, 1]
  layers::Rescaling r(1.0 / 127.5, {.offset = -1.0});
  EXPECT_EQ(r(Tensor::from_vector<float>({0.0f, 127.5f, 255.0f})).to_vector<float>(),
            (std::vector<float>{-1.0f, 0.0f, 1.0f}));
  // Integer images become the layer's dtype.
  Tensor y = layers::Rescaling(0.5)(Tensor::from_vector<uint8_t>({2, 255}));
  EXPECT_EQ(y.dtype(), float32);
  EXPECT_EQ(y.to_vector<float>(), (std::vector<float>{1.0f, 127.5f}));
}

TEST(Normalization, MatchesKeras) {
  // Normalization(mean=[1, 2], variance=[4, 0.25])([[3, 1], [0, 2.5]]) == [[1, -2], [-0.5, 1]]
  layers::Normalization n({.mean = {{1.0, 2.0}}, .variance = {{4.0, 0.25}}});
  Tensor x = Tensor::from_vector<float>({3, 1, 0, 2.5}, {2, 2});
  EXPECT_EQ(n(x).to_vector<float>(), (std::vector<float>{1, -2, -0.5, 1}));
  EXPECT_TRUE(n.weights().empty());
  // invert=True, mean [1], variance [4]: [[1], [-0.5]] -> [[3], [0]]
  layers::Normalization inv({.mean = {{1.0}}, .variance = {{4.0}}, .invert = true});
  EXPECT_EQ(inv(Tensor::from_vector<float>({1, -0.5}, {2, 1})).to_vector<float>(),
            (std::vector<float>{3, 0}));
}

TEST(Normalization, WeightsLikeKeras) {
  // Keras: normalization/mean (3,) float32, normalization/variance (3,), normalization/count
  // () int64, all non-trainable; the initial ones leave the input unchanged.
  layers::Normalization n({.axis = {3}});
  Tensor x = random::normal({2, 2, 2, 3}, 0, 1, float32, 3);
  EXPECT_EQ(n(x).to_vector<float>(), x.to_vector<float>());
  ASSERT_EQ(n.weights().size(), 3u);
  EXPECT_TRUE(n.trainable_weights().empty());
  EXPECT_EQ(n.weights()[0].shape(), Shape({3}));
  EXPECT_EQ(n.weights()[2].dtype(), int64);
  EXPECT_EQ(n.count_params(), 7);
  n.set_weights({Tensor::from_vector<float>({1, 2, 3}), Tensor::from_vector<float>({4, 4, 0}),
                 Tensor::scalar<int64_t>(10)});
  Tensor ones_in = ones({1, 1, 1, 3});
  // (1 - 1) / 2, (1 - 2) / 2, (1 - 3) / max(0, 1e-7)
  std::vector<float> y = n(ones_in).to_vector<float>();
  EXPECT_FLOAT_EQ(y[0], 0.0f);
  EXPECT_FLOAT_EQ(y[1], -0.5f);
  EXPECT_FLOAT_EQ(y[2], -2e7f);
}

TEST(Normalization, InvalidArguments) {
  EXPECT_THROW(layers::Normalization({.mean = {{1.0}}}), InvalidArgumentError);
  layers::Normalization bad({.mean = {{1.0, 2.0, 3.0}}, .variance = {{1.0, 1.0, 1.0}}});
  EXPECT_THROW(bad(ones({2, 2})), InvalidArgumentError);
  layers::Normalization batch_axis({.axis = {0}});
  EXPECT_THROW(batch_axis(ones({2, 2})), InvalidArgumentError);
}

TEST(Preprocessing, ConfigsRoundTrip) {
  auto inputs = Input({4, 4, 3});
  auto h = layers::Rescaling(1.0 / 255.0, {.offset = 0.5})(inputs);
  h = layers::Normalization({.axis = {3}})(h);
  h = layers::Normalization({.axis = {-1}, .mean = {{0.5}}, .variance = {{2.0}}, .invert = true})(
      h);
  Model model(inputs, h, {.name = "preprocessing"});
  model.layers()[2]->set_weights({Tensor::from_vector<float>({1, 2, 3}),
                                  Tensor::from_vector<float>({4, 1, 9}),
                                  Tensor::scalar<int64_t>(5)});
  Tensor x = random::uniform({2, 4, 4, 3}, 0, 255, float32, 4);
  const std::string dir = test::temp_dir("preprocessing_layers");
  for (const std::string& path : {dir + "/m", dir + "/m.keras"}) {
    SCOPED_TRACE(path);
    model.save(path);
    auto loaded = models::load_model(path);
    EXPECT_EQ(models::model_to_json(*loaded), models::model_to_json(model));
    EXPECT_EQ((*loaded)(x).to_vector<float>(), model(x).to_vector<float>());
  }
}

}  // namespace
}  // namespace tfcc::keras
