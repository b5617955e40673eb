// Dataset::shuffle: TF semantics for buffers, seeds, reshuffling and repeat interaction.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/unit/data/test_util.h"
#include "tfcc/data/dataset.h"

namespace tfcc::data {
namespace {

using testing::ints;
using testing::iota;

std::vector<int64_t> sorted(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST(ShuffleTest, IsAPermutation) {
  Dataset d = Dataset::range(100).shuffle(10, {.seed = 1});
  std::vector<int64_t> got = ints(d);
  EXPECT_NE(got, iota(100));
  EXPECT_EQ(sorted(got), iota(100));
}

TEST(ShuffleTest, BufferOfOneKeepsOrder) {
  EXPECT_EQ(ints(Dataset::range(20).shuffle(1, {.seed = 3})), iota(20));
}

TEST(ShuffleTest, SmallBufferOnlyMovesElementsLocally) {
  // With buffer b, the element emitted at step i was among the first i + b input elements.
  std::vector<int64_t> got = ints(Dataset::range(1000).shuffle(5, {.seed = 9}));
  for (size_t i = 0; i < got.size(); ++i) EXPECT_LT(got[i], static_cast<int64_t>(i) + 5);
}

TEST(ShuffleTest, SameSeedSameOrderAcrossDatasets) {
  auto a = ints(Dataset::range(50).shuffle(50, {.seed = 42}));
  auto b = ints(Dataset::range(50).shuffle(50, {.seed = 42}));
  auto c = ints(Dataset::range(50).shuffle(50, {.seed = 43}));
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST(ShuffleTest, ReshuffleEachIterationGivesANewOrderPerEpoch) {
  Dataset d = Dataset::range(50).shuffle(50, {.seed = 42});
  auto e1 = ints(d), e2 = ints(d);
  EXPECT_NE(e1, e2);
  EXPECT_EQ(sorted(e2), iota(50));
  Dataset fixed = Dataset::range(50).shuffle(50, {.seed = 42, .reshuffle_each_iteration = false});
  EXPECT_EQ(ints(fixed), ints(fixed));
}

TEST(ShuffleTest, UnseededShufflesDiffer) {
  auto a = ints(Dataset::range(64).shuffle(64));
  auto b = ints(Dataset::range(64).shuffle(64));
  EXPECT_NE(a, b);
}

TEST(ShuffleTest, ShuffleThenRepeatReshufflesEachEpochWithinItsBoundary) {
  std::vector<int64_t> got = ints(Dataset::range(10).shuffle(10, {.seed = 5}).repeat(3));
  ASSERT_EQ(got.size(), 30u);
  std::vector<int64_t> e0(got.begin(), got.begin() + 10), e1(got.begin() + 10, got.begin() + 20);
  EXPECT_EQ(sorted(e0), iota(10));  // every epoch holds each element once
  EXPECT_EQ(sorted(e1), iota(10));
  EXPECT_NE(e0, e1);
  // Without reshuffling every epoch repeats the first order.
  std::vector<int64_t> same = ints(
      Dataset::range(10).shuffle(10, {.seed = 5, .reshuffle_each_iteration = false}).repeat(2));
  EXPECT_EQ(std::vector<int64_t>(same.begin(), same.begin() + 10),
            std::vector<int64_t>(same.begin() + 10, same.end()));
}

TEST(ShuffleTest, RepeatThenShuffleMixesEpochs) {
  // repeat().shuffle() blurs epoch boundaries: some element of epoch 2 appears before the last
  // element of epoch 1 is emitted, so the first 10 outputs are not one whole epoch.
  bool mixed = false;
  for (uint64_t seed = 0; seed < 5 && !mixed; ++seed) {
    std::vector<int64_t> got = ints(Dataset::range(10).repeat(2).shuffle(10, {.seed = seed}));
    ASSERT_EQ(got.size(), 20u);
    mixed = sorted(std::vector<int64_t>(got.begin(), got.begin() + 10)) != iota(10);
  }
  EXPECT_TRUE(mixed);
}

TEST(ShuffleTest, BufferSizeMustBePositive) {
  EXPECT_THROW(Dataset::range(3).shuffle(0), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::data
