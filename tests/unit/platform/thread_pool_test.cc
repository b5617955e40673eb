#include "tfcc/platform/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>

#include "tfcc/platform/errors.h"

namespace tfcc {
namespace {

TEST(ThreadPool, RunsEveryTaskAndReturnsResults) {
  ThreadPool pool(3);
  std::atomic<int> count{0};
  std::vector<std::future<int>> results;
  for (int i = 0; i < 100; ++i) {
    results.push_back(pool.submit([i, &count] {
      count++;
      return i * i;
    }));
  }
  for (int i = 0; i < 100; ++i) EXPECT_EQ(results[i].get(), i * i);
  EXPECT_EQ(count.load(), 100);
}

TEST(ThreadPool, ExceptionsReachTheFuture) {
  ThreadPool pool(1);
  auto f = pool.submit([]() -> int { throw NotFoundError("gone"); });
  EXPECT_THROW(f.get(), NotFoundError);
}

TEST(ThreadPool, RejectsZeroThreads) { EXPECT_THROW(ThreadPool(0), InvalidArgumentError); }

}  // namespace
}  // namespace tfcc
