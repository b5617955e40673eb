// cache (memory and file, the partial-read warning, corrupt files) and prefetch.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include "tests/unit/data/test_util.h"
#include "tfcc/data/dataset.h"
#include "tfcc/platform/file.h"

namespace tfcc::data {
namespace {

using testing::ints;
using testing::iota;

const char kWarning[] =
    "The calling iterator did not fully read the dataset being cached. In order to avoid "
    "unexpected truncation of the dataset, the partially cached contents of the dataset will be "
    "discarded. This can happen if you have an input pipeline similar to "
    "dataset.cache().take(k).repeat(). You should use dataset.take(k).cache().repeat() instead.";

// A range that counts how many elements its iterators produced.
Dataset counted(int64_t n, std::shared_ptr<std::atomic<int>> count) {
  return Dataset::range(n).map(
      [count](Tensor x) {
        count->fetch_add(1);
        return x;
      },
      {.output_spec = ElementSpec{{int64, PartialShape(Shape{})}}});
}

TEST(CacheTest, MemoryCacheServesLaterEpochs) {
  auto count = std::make_shared<std::atomic<int>>(0);
  Dataset d = counted(5, count).cache();
  EXPECT_EQ(ints(d), iota(5));
  EXPECT_EQ(ints(d), iota(5));
  EXPECT_EQ(ints(d.repeat(3)).size(), 15u);
  EXPECT_EQ(count->load(), 5);
}

TEST(CacheTest, PartialReadIsDiscardedWithTensorFlowsWarning) {
  auto count = std::make_shared<std::atomic<int>>(0);
  Dataset d = counted(10, count).cache().take(3).repeat(2);
  ::testing::internal::CaptureStderr();
  std::vector<int64_t> got = ints(d);
  std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(got, (std::vector<int64_t>{0, 1, 2, 0, 1, 2}));
  EXPECT_NE(log.find(kWarning), std::string::npos) << log;
  EXPECT_NE(log.find(": W "), std::string::npos) << log;  // TF's WARNING line prefix
  // Nothing was cached: every epoch read the input again.
  EXPECT_EQ(count->load(), 6);
  // The fix TF suggests caches once.
  auto count2 = std::make_shared<std::atomic<int>>(0);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(ints(counted(10, count2).take(3).cache().repeat(3)).size(), 9u);
  EXPECT_EQ(::testing::internal::GetCapturedStderr().find(kWarning), std::string::npos);
  EXPECT_EQ(count2->load(), 3);
}

TEST(CacheTest, FileCacheIsWrittenOnceAndReadBack) {
  auto dir = std::filesystem::temp_directory_path() / "tfcc_cache_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string prefix = (dir / "cache").string();
  auto count = std::make_shared<std::atomic<int>>(0);
  Dataset d = counted(6, count).batch(4).cache(prefix);
  auto first = testing::rows(d);
  EXPECT_TRUE(file_exists(prefix + ".data"));
  // A new pipeline over the same file reads the cache, not the input.
  auto count2 = std::make_shared<std::atomic<int>>(0);
  auto second = testing::rows(counted(6, count2).batch(4).cache(prefix));
  EXPECT_EQ(first, second);
  EXPECT_EQ(count->load(), 6);
  EXPECT_EQ(count2->load(), 0);

  // A partial pass leaves no file behind (and warns).
  std::string other = (dir / "partial").string();
  ::testing::internal::CaptureStderr();
  ints(Dataset::range(10).cache(other).take(2));
  EXPECT_NE(::testing::internal::GetCapturedStderr().find(kWarning), std::string::npos);
  EXPECT_FALSE(file_exists(other + ".data"));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir),
                          std::filesystem::directory_iterator()),
            1);  // only cache.data: no temporary files left

  // A damaged cache raises DataLossError with the file and offset.
  std::string bytes = read_file(prefix + ".data");
  bytes[bytes.size() - 3] ^= 0x55;
  write_file_atomic(prefix + ".data", bytes);
  try {
    testing::rows(Dataset::range(6).batch(4).cache(prefix));
    FAIL();
  } catch (const DataLossError& e) {
    EXPECT_NE(std::string(e.what()).find(prefix + ".data is corrupted at offset"),
              std::string::npos)
        << e.what();
  }
  write_file_atomic(prefix + ".data", bytes.substr(0, bytes.size() - 10));
  EXPECT_THROW(testing::rows(Dataset::range(6).batch(4).cache(prefix)), DataLossError);
  std::filesystem::remove_all(dir);
}

TEST(PrefetchTest, YieldsTheSameSequence) {
  for (int64_t buffer : {int64_t{0}, int64_t{1}, int64_t{3}, AUTOTUNE}) {
    EXPECT_EQ(ints(Dataset::range(100).prefetch(buffer)), iota(100)) << buffer;
  }
}

TEST(PrefetchTest, RunsAheadOnABackgroundThread) {
  auto count = std::make_shared<std::atomic<int>>(0);
  Iterator it = counted(100, count).prefetch(5).make_iterator();
  it.get_next();
  for (int i = 0; i < 1000 && count->load() < 6; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(count->load(), 6);  // one consumed + a full buffer of 5, and no more
}

TEST(PrefetchTest, ErrorsArriveInOrderAndEarlyDestructionJoins) {
  Dataset d = Dataset::range(10).map(
      [](Tensor x) {
        if (x.item<int64_t>() == 2) throw InvalidArgumentError("element 2 is bad");
        return x;
      },
      {.num_parallel_calls = 2, .output_spec = ElementSpec{{int64, PartialShape(Shape{})}}});
  Iterator it = d.prefetch(4).make_iterator();
  EXPECT_EQ(it.get_next()[0].item<int64_t>(), 0);
  EXPECT_EQ(it.get_next()[0].item<int64_t>(), 1);
  EXPECT_THROW(it.get_next(), InvalidArgumentError);
  EXPECT_EQ(it.get_next()[0].item<int64_t>(), 3);
  // Destroying pipelines at every point of a pass must stop their threads cleanly.
  Dataset slow = Dataset::range(1000000)
                     .map([](Tensor x) { return x; },
                          {.num_parallel_calls = 3,
                           .output_spec = ElementSpec{{int64, PartialShape(Shape{})}}})
                     .prefetch(2)
                     .batch(7)
                     .prefetch(AUTOTUNE);
  for (int k = 0; k < 20; ++k) {
    Iterator i2 = slow.make_iterator();
    for (int j = 0; j < k; ++j) i2.get_next();
  }
}

}  // namespace
}  // namespace tfcc::data
