// batch, padded_batch, unbatch, rebatch.
#include <gtest/gtest.h>

#include "tests/unit/data/test_util.h"
#include "tfcc/data/dataset.h"

namespace tfcc::data {
namespace {

using testing::ints;
using testing::iota;
using testing::rows;

TEST(BatchTest, KeepsTheRemainderUnlessDropped) {
  Dataset d = Dataset::range(7).batch(3);
  EXPECT_EQ(d.cardinality(), 3);
  EXPECT_EQ(rows(d), (std::vector<std::vector<int64_t>>{{0, 1, 2}, {3, 4, 5}, {6}}));
  EXPECT_EQ(d.element_spec()[0].shape, PartialShape{-1});
  Dataset dropped = Dataset::range(7).batch(3, /*drop_remainder=*/true);
  EXPECT_EQ(dropped.cardinality(), 2);
  EXPECT_EQ(rows(dropped), (std::vector<std::vector<int64_t>>{{0, 1, 2}, {3, 4, 5}}));
  EXPECT_EQ(dropped.element_spec()[0].shape, PartialShape{3});
}

TEST(BatchTest, StacksEveryComponent) {
  Tensor x = Tensor::from_vector<float>({1, 2, 3, 4, 5, 6, 7, 8}, Shape{4, 2});
  Dataset d = Dataset::from_tensor_slices({x, Tensor::from_vector<int64_t>({0, 1, 2, 3})}).batch(2);
  auto all = d.as_vector();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[1][0].shape(), (Shape{2, 2}));
  EXPECT_EQ(all[1][0].to_vector<float>(), (std::vector<float>{5, 6, 7, 8}));
  EXPECT_EQ(all[1][1].to_vector<int64_t>(), (std::vector<int64_t>{2, 3}));
}

TEST(BatchTest, ShapeMismatchNamesTheElement) {
  Dataset d = Dataset::range(1, 5).map(
      [](Tensor n) {
        return Tensor::from_vector<int64_t>(
            std::vector<int64_t>(static_cast<size_t>(n.item<int64_t>()), 0));
      },
      {.output_spec = ElementSpec{{int64, PartialShape{-1}}}});
  try {
    d.batch(2).take_one();
    FAIL();
  } catch (const InvalidArgumentError& e) {
    EXPECT_STREQ(e.what(),
                 "Cannot batch tensors with different shapes in component 0. First element had "
                 "shape [1] and element 1 had shape [2].");
  }
}

TEST(BatchTest, BatchSizeMustBePositive) {
  EXPECT_THROW(Dataset::range(3).batch(0), InvalidArgumentError);
}

TEST(PaddedBatchTest, PadsToTheLongestInTheBatch) {
  Dataset d = Dataset::range(1, 5).map(
      [](Tensor n) {
        int64_t k = n.item<int64_t>();
        return Tensor::from_vector<int64_t>(std::vector<int64_t>(static_cast<size_t>(k), k));
      },
      {.output_spec = ElementSpec{{int64, PartialShape{-1}}}});
  auto all = d.padded_batch(2).as_vector();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0][0].shape(), (Shape{2, 2}));
  EXPECT_EQ(all[0][0].to_vector<int64_t>(), (std::vector<int64_t>{1, 0, 2, 2}));
  EXPECT_EQ(all[1][0].shape(), (Shape{2, 4}));
  EXPECT_EQ(all[1][0].to_vector<int64_t>(), (std::vector<int64_t>{3, 3, 3, 0, 4, 4, 4, 4}));

  auto fixed =
      d.padded_batch(3, {.padded_shapes = std::vector<PartialShape>{PartialShape{5}},
                         .padding_values = std::vector<Tensor>{Tensor::scalar<int64_t>(-1)}})
          .as_vector();
  ASSERT_EQ(fixed.size(), 2u);
  EXPECT_EQ(fixed[1][0].shape(), (Shape{1, 5}));
  EXPECT_EQ(fixed[1][0].to_vector<int64_t>(), (std::vector<int64_t>{4, 4, 4, 4, -1}));
  EXPECT_THROW(
      d.padded_batch(4, {.padded_shapes = std::vector<PartialShape>{PartialShape{2}}}).take_one(),
      InvalidArgumentError);
}

TEST(PaddedBatchTest, PadsTwoDimensionalComponents) {
  Tensor a = Tensor::from_vector<float>({1, 2, 3, 4}, Shape{2, 2});
  Tensor b = Tensor::from_vector<float>({5, 6, 7}, Shape{1, 3});
  Dataset d = Dataset::from_tensors({a}).concatenate(Dataset::from_tensors({b}));
  auto all = d.padded_batch(2).as_vector();
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0][0].shape(), (Shape{2, 2, 3}));
  EXPECT_EQ(all[0][0].to_vector<float>(), (std::vector<float>{1, 2, 0, 3, 4, 0, 5, 6, 7, 0, 0, 0}));
}

TEST(UnbatchTest, InvertsBatch) {
  EXPECT_EQ(ints(Dataset::range(7).batch(3).unbatch()), iota(7));
  EXPECT_EQ(Dataset::range(7).batch(3).unbatch().element_spec()[0].shape, PartialShape(Shape{}));
  EXPECT_THROW(Dataset::range(3).unbatch(), InvalidArgumentError);
}

TEST(RebatchTest, ChangesTheBatchSize) {
  Dataset d = Dataset::range(10).batch(4).rebatch(3);
  EXPECT_EQ(rows(d), (std::vector<std::vector<int64_t>>{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9}}));
  EXPECT_EQ(rows(Dataset::range(10).batch(4).rebatch(3, true)).size(), 3u);
}

}  // namespace
}  // namespace tfcc::data
