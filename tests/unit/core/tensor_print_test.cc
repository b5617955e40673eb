// Printing must match TensorFlow's output (NumPy's formatting inside tf.Tensor(...)); the expected
// strings are what TF 2 prints for the same values.
#include <gtest/gtest.h>

#include <cmath>

#include "tfcc/core/tensor.h"

namespace tfcc {
namespace {

TEST(TensorPrint, IntScalar) {
  EXPECT_EQ(Tensor::scalar<int32_t>(5).to_string(), "tf.Tensor(5, shape=(), dtype=int32)");
}

TEST(TensorPrint, FloatScalarsPrintLikePythonFloats) {
  EXPECT_EQ(Tensor::scalar<float>(10.f).to_string(), "tf.Tensor(10.0, shape=(), dtype=float32)");
  EXPECT_EQ(Tensor::scalar<float>(0.1f).values_string(), "0.1");
  EXPECT_EQ(Tensor::scalar<double>(1e-5).values_string(), "1e-05");
  EXPECT_EQ(Tensor::scalar<double>(-2.5e16).values_string(), "-2.5e+16");
  EXPECT_EQ(Tensor::scalar<bool>(true).values_string(), "True");
}

TEST(TensorPrint, FloatMatrixAlignsAndBreaksLines) {
  auto t = Tensor::from_vector<float>({1, 2, 3, 4}, Shape{2, 2});
  EXPECT_EQ(t.to_string(), "tf.Tensor(\n[[1. 2.]\n [3. 4.]], shape=(2, 2), dtype=float32)");
}

TEST(TensorPrint, FloatVectorPadsFractions) {
  auto t = Tensor::from_vector<float>({1.5f, 2.f, 3.25f});
  EXPECT_EQ(t.values_string(), "[1.5  2.   3.25]");
}

TEST(TensorPrint, ShortestRoundTripFloat32) {
  EXPECT_EQ(Tensor::from_vector<float>({0.1f, 0.2f}).values_string(), "[0.1 0.2]");
  EXPECT_EQ(Tensor::scalar<float>(1.f / 3).values_string(), "0.33333334");
  // A 0-d array prints its full repr (NumPy), unlike elements of larger arrays.
  EXPECT_EQ(Tensor::scalar<double>(1.0 / 3).values_string(), "0.3333333333333333");
  EXPECT_EQ(Tensor::from_vector<double>({1.0 / 3}).values_string(), "[0.33333333]");
}

TEST(TensorPrint, NegativeAndSpecialValues) {
  auto t = Tensor::from_vector<float>({-1.f, 0.5f, NAN, INFINITY});
  EXPECT_EQ(t.values_string(), "[-1.   0.5  nan  inf]");
}

TEST(TensorPrint, ScientificWhenRangeIsWide) {
  auto t = Tensor::from_vector<float>({1e-5f, 1.f});
  EXPECT_EQ(t.values_string(), "[1.e-05 1.e+00]");
}

TEST(TensorPrint, Bools) {
  auto t = Tensor::from_vector<bool>({true, false});
  EXPECT_EQ(t.values_string(), "[ True False]");
}

TEST(TensorPrint, IntsRightAligned) {
  auto t = Tensor::from_vector<int64_t>({1, -20, 300});
  EXPECT_EQ(t.to_string(), "tf.Tensor([  1 -20 300], shape=(3,), dtype=int64)");
}

TEST(TensorPrint, LargeTensorsAreSummarised) {
  std::vector<int32_t> v(2000);
  for (int i = 0; i < 2000; ++i) v[i] = i;
  EXPECT_EQ(Tensor::from_vector(v).values_string(), "[   0    1    2 ... 1997 1998 1999]");
}

TEST(TensorPrint, Rank3HasBlankLinesBetweenBlocks) {
  std::vector<int32_t> v = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_EQ(Tensor::from_vector(v, Shape{2, 2, 2}).values_string(),
            "[[[1 2]\n  [3 4]]\n\n [[5 6]\n  [7 8]]]");
}

TEST(TensorPrint, EmptyTensor) {
  EXPECT_EQ(Tensor::from_vector<float>({}, Shape{0, 3}).to_string(),
            "tf.Tensor([], shape=(0, 3), dtype=float32)");
}

TEST(TensorPrint, LongVectorWraps) {
  std::vector<float> v(30, 0.123456f);
  std::string s = Tensor::from_vector(v).values_string();
  for (size_t start = 0; start < s.size();) {
    size_t nl = s.find('\n', start);
    size_t len = (nl == std::string::npos ? s.size() : nl) - start;
    EXPECT_LE(len, 75u);
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  EXPECT_NE(s.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace tfcc
