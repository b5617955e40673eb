// The CPU allocator's thread front caches: exact counters across threads, reuse without the OS,
// blocks freed on another thread, and blocks handed back when a thread exits.
#include "tfcc/core/allocator.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace tfcc {
namespace {

TEST(AllocatorThreads, CountersStayExactAcrossThreads) {
  Allocator& a = cpu_allocator();
  const int64_t in_use = a.stats().bytes_in_use;
  auto churn = [&a] {
    for (int i = 0; i < 20000; ++i) {
      size_t n = 100 + static_cast<size_t>(i % 50) * 1000;  // small and mid classes
      void* p = a.allocate(n);
      static_cast<char*>(p)[n - 1] = 1;
      a.deallocate(p, n);
    }
  };
  std::thread t1(churn), t2(churn);
  churn();
  t1.join();
  t2.join();
  EXPECT_EQ(a.stats().bytes_in_use, in_use);
}

TEST(AllocatorThreads, PeakSeesEveryThreadsBlocks) {
  Allocator& a = cpu_allocator();
  a.reset_peak();
  const int64_t base = a.stats().bytes_in_use;
  std::vector<void*> held(8);
  std::thread t([&] {
    for (auto& p : held) p = a.allocate(64 << 10);
  });
  t.join();
  EXPECT_GE(a.stats().peak_bytes_in_use - base, 8 * (64 << 10));
  for (void* p : held) a.deallocate(p, 64 << 10);  // freed on another thread than allocated
  EXPECT_EQ(a.stats().bytes_in_use, base);
}

TEST(AllocatorThreads, ThreadExitHandsItsCacheBack) {
  Allocator& a = cpu_allocator();
  constexpr size_t kSize = 200 << 10;  // a thread-cached class
  std::thread([&] {
    void* p = a.allocate(kSize);
    a.deallocate(p, kSize);  // into this thread's front cache
  }).join();
  // The exited thread's block is in the shared lists: another thread gets it without the OS.
  const int64_t sys_before = a.stats().num_system_allocs;
  std::thread([&] {
    void* p = a.allocate(kSize);
    a.deallocate(p, kSize);
  }).join();
  EXPECT_EQ(a.stats().num_system_allocs, sys_before);
}

TEST(AllocatorThreads, ReleaseCacheEmptiesTheCallersCache) {
  Allocator& a = cpu_allocator();
  void* p = a.allocate(1000);
  a.deallocate(p, 1000);
  const int64_t cached = a.stats().bytes_cached;
  EXPECT_GT(cached, 0);
  a.release_cache();
  EXPECT_LT(a.stats().bytes_cached, cached);
  // The block went back to the OS: asking again maps new memory.
  const int64_t sys_before = a.stats().num_system_allocs;
  a.deallocate(a.allocate(1000), 1000);
  EXPECT_EQ(a.stats().num_system_allocs, sys_before + 1);
}

}  // namespace
}  // namespace tfcc
