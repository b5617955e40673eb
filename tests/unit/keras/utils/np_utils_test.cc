// keras::utils::to_categorical against keras.utils.to_categorical (Keras 3.15) outputs.
#include "tfcc/keras/utils/np_utils.h"

#include <gtest/gtest.h>

#include <vector>

#include "tfcc/platform/errors.h"

namespace tfcc::keras::utils {
namespace {

TEST(ToCategoricalTest, MatchesKeras) {
  // to_categorical([0, 2, 1, 3])
  Tensor a = to_categorical(Tensor::from_vector<int64_t>({0, 2, 1, 3}));
  EXPECT_EQ(a.dtype(), float32);
  EXPECT_EQ(a.shape(), Shape({4, 4}));
  EXPECT_EQ(a.to_vector<float>(),
            (std::vector<float>{1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1}));
  // to_categorical([[1], [0], [2]], 4): the trailing 1 is dropped.
  Tensor b = to_categorical(Tensor::from_vector<int32_t>({1, 0, 2}, {3, 1}), 4);
  EXPECT_EQ(b.shape(), Shape({3, 4}));
  EXPECT_EQ(b.to_vector<float>(), (std::vector<float>{0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0}));
  // to_categorical([[1, 0], [2, 1]], 3).shape == (2, 2, 3)
  Tensor c = to_categorical(Tensor::from_vector<uint8_t>({1, 0, 2, 1}, {2, 2}), 3);
  EXPECT_EQ(c.shape(), Shape({2, 2, 3}));
  EXPECT_EQ(c.to_vector<float>()[6 + 2], 1.0f);
  // to_categorical([1.7, 0.2], 2): reals truncated.
  Tensor d = to_categorical(Tensor::from_vector<float>({1.7f, 0.2f}), 2);
  EXPECT_EQ(d.to_vector<float>(), (std::vector<float>{0, 1, 1, 0}));
}

TEST(ToCategoricalTest, InvalidLabels) {
  EXPECT_THROW(to_categorical(Tensor::from_vector<int64_t>({0, 3}), 3), InvalidArgumentError);
  EXPECT_THROW(to_categorical(Tensor::from_vector<int64_t>({-1, 0})), InvalidArgumentError);
  EXPECT_THROW(to_categorical(Tensor::from_vector<int64_t>({0}), 0), InvalidArgumentError);
  EXPECT_THROW(to_categorical(Tensor::from_vector<int64_t>({})), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::keras::utils
