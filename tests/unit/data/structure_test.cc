// take, skip, repeat, concatenate, enumerate, shard, apply, interleave, list_files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/unit/data/test_util.h"
#include "tfcc/data/dataset.h"

namespace tfcc::data {
namespace {

using testing::ints;
using testing::iota;

TEST(TakeSkipTest, FollowTensorFlowCounts) {
  EXPECT_EQ(ints(Dataset::range(10).take(3)), iota(3));
  EXPECT_EQ(ints(Dataset::range(10).take(-1)), iota(10));
  EXPECT_EQ(ints(Dataset::range(2).take(5)), iota(2));
  EXPECT_EQ(ints(Dataset::range(10).skip(7)), (std::vector<int64_t>{7, 8, 9}));
  EXPECT_TRUE(ints(Dataset::range(10).skip(-1)).empty());
  EXPECT_EQ(Dataset::range(10).take(3).cardinality(), 3);
  EXPECT_EQ(Dataset::range(10).skip(7).cardinality(), 3);
  EXPECT_EQ(Dataset::range(3).repeat().take(7).cardinality(), 7);
}

TEST(RepeatTest, RepeatsAndEndsOnEmptyInput) {
  EXPECT_EQ(ints(Dataset::range(3).repeat(2)), (std::vector<int64_t>{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(ints(Dataset::range(3).repeat().take(7)), (std::vector<int64_t>{0, 1, 2, 0, 1, 2, 0}));
  EXPECT_EQ(Dataset::range(3).repeat().cardinality(), kInfiniteCardinality);
  EXPECT_TRUE(ints(Dataset::range(0).repeat()).empty());
  EXPECT_TRUE(ints(Dataset::range(3).repeat(0)).empty());
  EXPECT_THROW(Dataset::range(3).repeat().as_vector(), InvalidArgumentError);
}

TEST(ConcatenateTest, AppendsCompatibleDatasets) {
  EXPECT_EQ(ints(Dataset::range(3).concatenate(Dataset::range(10, 12))),
            (std::vector<int64_t>{0, 1, 2, 10, 11}));
  Dataset f = Dataset::from_tensors({Tensor::scalar<float>(1)});
  EXPECT_THROW(Dataset::range(3).concatenate(f), InvalidArgumentError);
  Dataset a = Dataset::from_tensors({Tensor::from_vector<float>({1, 2})});
  Dataset b = Dataset::from_tensors({Tensor::from_vector<float>({1, 2, 3})});
  EXPECT_EQ(a.concatenate(b).element_spec()[0].shape, PartialShape{-1});
}

TEST(EnumerateTest, PrependsACounter) {
  auto all = Dataset::range(5, 8).enumerate(10).as_vector();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[2][0].item<int64_t>(), 12);
  EXPECT_EQ(all[2][1].item<int64_t>(), 7);
}

TEST(ShardTest, TakesEveryNthElement) {
  EXPECT_EQ(ints(Dataset::range(10).shard(3, 1)), (std::vector<int64_t>{1, 4, 7}));
  EXPECT_EQ(Dataset::range(10).shard(3, 0).cardinality(), 4);
  EXPECT_EQ(Dataset::range(10).shard(3, 2).cardinality(), 3);
  EXPECT_THROW(Dataset::range(10).shard(0, 0), InvalidArgumentError);
  EXPECT_THROW(Dataset::range(10).shard(2, 2), InvalidArgumentError);
}

TEST(ApplyTest, AppliesATransformation) {
  auto evens = [](const Dataset& d) {
    return d.filter([](Tensor x) { return x.item<int64_t>() % 2 == 0; });
  };
  EXPECT_EQ(ints(Dataset::range(7).apply(evens)), (std::vector<int64_t>{0, 2, 4, 6}));
}

TEST(InterleaveTest, CyclesWithBlocksLikeTensorFlow) {
  // TF's documented example: range(1, 6).interleave(lambda x: from_tensors(x).repeat(6),
  // cycle_length=2, block_length=4).
  Dataset d = Dataset::range(1, 6).interleave(
      [](const Element& e) { return Dataset::from_tensors(e).repeat(6); },
      {.cycle_length = 2, .block_length = 4});
  std::vector<int64_t> want = {1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 2, 2, 3, 3, 3,
                               3, 4, 4, 4, 4, 3, 3, 4, 4, 5, 5, 5, 5, 5, 5};
  EXPECT_EQ(ints(d), want);
}

TEST(ListFilesTest, GlobsSortsAndShuffles) {
  auto dir = std::filesystem::temp_directory_path() / "tfcc_list_files_test";
  std::filesystem::create_directories(dir);
  for (const char* n : {"b.txt", "a.txt", "c.txt", "d.csv"}) std::ofstream(dir / n) << n;
  std::string pattern = (dir / "*.txt").string();
  std::vector<std::string> names;
  for (const Element& e : Dataset::list_files(pattern, /*shuffle=*/false)) {
    names.push_back(std::filesystem::path(tensor_bytes(e[0])).filename().string());
  }
  EXPECT_EQ(names, (std::vector<std::string>{"a.txt", "b.txt", "c.txt"}));
  EXPECT_EQ(Dataset::list_files(pattern, true, 7).as_vector().size(), 3u);
  EXPECT_THROW(Dataset::list_files((dir / "*.none").string()), InvalidArgumentError);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tfcc::data
