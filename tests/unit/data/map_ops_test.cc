// Dataset::map with functions that call ops: the seed's scale function, output spec inference,
// op errors raised on worker threads.
#include <gtest/gtest.h>

#include "tests/unit/data/test_util.h"
#include "tfcc/data/dataset.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/operators.h"

namespace tfcc::data {
namespace {

using testing::ints;

TEST(MapTest, UnpacksComponentsAndPacksTuples) {
  Tensor x = Tensor::from_vector<uint8_t>({0, 51, 255, 102}, Shape{2, 2});
  Tensor y = Tensor::from_vector<int64_t>({3, 4});
  auto scale = [](Tensor image, Tensor label) {
    return std::tuple{cast(image, float32) / 255.0f, label};
  };
  Dataset d = Dataset::from_tensor_slices({x, y}).map(scale);
  ElementSpec spec = d.element_spec();
  ASSERT_EQ(spec.size(), 2u);
  EXPECT_EQ(spec[0].dtype, float32);
  EXPECT_EQ(spec[0].shape, PartialShape{2});
  EXPECT_EQ(spec[1].dtype, int64);
  auto all = d.as_vector();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_FLOAT_EQ(all[0][0].to_vector<float>()[1], 0.2f);
  EXPECT_FLOAT_EQ(all[1][0].to_vector<float>()[0], 1.0f);
  EXPECT_EQ(all[1][1].item<int64_t>(), 4);
}

TEST(MapTest, AcceptsWholeElementsAndSingleTensors) {
  Dataset d = Dataset::range(4).map([](Tensor x) { return x * int64_t{3}; });
  EXPECT_EQ(ints(d), (std::vector<int64_t>{0, 3, 6, 9}));
  Dataset e = Dataset::zip({Dataset::range(3), Dataset::range(3)}).map([](const Element& el) {
    return Element{el[0] + el[1]};
  });
  EXPECT_EQ(ints(e), (std::vector<int64_t>{0, 2, 4}));
}

TEST(MapTest, InfersUnknownDimensionsFromTwoProbes) {
  Dataset d = Dataset::range(10).batch(4).map([](Tensor x) { return cast(x, float32); });
  ElementSpec spec = d.element_spec();
  ASSERT_EQ(spec.size(), 1u);
  EXPECT_EQ(spec[0].dtype, float32);
  EXPECT_EQ(spec[0].shape, PartialShape{-1});
}

TEST(MapTest, TfccErrorsKeepTheirType) {
  Dataset d = Dataset::range(3).map(
      [](Tensor x) { return reshape(x, {2}); },
      {.num_parallel_calls = 2, .output_spec = ElementSpec{{int64, PartialShape{2}}}});
  EXPECT_THROW(d.take_one(), InvalidArgumentError);
}

TEST(FilterTest, AcceptsScalarBoolTensors) {
  Dataset t =
      Dataset::range(10).filter([](Tensor x) { return less(x, Tensor::scalar<int64_t>(4)); });
  EXPECT_EQ(testing::ints(t), testing::iota(4));
}

}  // namespace
}  // namespace tfcc::data
