#include "tfcc/core/allocator.h"

#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

#include "tfcc/platform/errors.h"

namespace tfcc {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kMinClass = 256;

// Size classes: 256 B, then four classes per power of two (x1, x1.25, x1.5, x1.75), so rounding
// wastes at most 25%.
size_t round_to_class(size_t bytes) {
  if (bytes <= kMinClass) return kMinClass;
  int top = std::bit_width(bytes - 1) - 1;  // 2^top < bytes <= 2^(top+1)
  size_t base = size_t{1} << top;
  size_t quarter = base >> 2;
  size_t steps = (bytes - base + quarter - 1) / quarter;
  return base + steps * quarter;
}

void* system_alloc(size_t bytes) {
  if (bytes >= kHugePage) {
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return nullptr;
    ::madvise(p, bytes, MADV_HUGEPAGE);  // advisory; ignored where THP is off
    return p;
  }
  return std::aligned_alloc(Allocator::kAlignment, bytes);
}

void system_free(void* p, size_t bytes) {
  if (bytes >= kHugePage) {
    ::munmap(p, bytes);
  } else {
    std::free(p);
  }
}

[[noreturn]] void out_of_memory(size_t bytes) {
  throw ResourceExhaustedError(internal::str_cat("OOM when allocating ", bytes, " bytes on CPU"));
}

// Each thread keeps a small front cache of blocks up to 256 KiB that it freed, reused without
// the lock: parallel map workers and other threads allocating small tensors at a high rate would
// otherwise serialise on the allocator's mutex (measured: 2 map workers ran at the speed of 1).
// The counters are atomics, so bytes_in_use and its peak stay exact across threads.
constexpr size_t kThreadCacheMaxClass = size_t{256} << 10;
constexpr int64_t kThreadCacheBytes = int64_t{4} << 20;
constexpr int kThreadCacheClasses = 41;  // class_index(kThreadCacheMaxClass) + 1

// The index of a size class of at most kThreadCacheMaxClass: 0 for 256 B, then four per power
// of two, in the order of round_to_class().
int class_index(size_t cls) {
  if (cls <= kMinClass) return 0;
  int top = std::bit_width(cls - 1) - 1;
  size_t base = size_t{1} << top;
  return (top - 8) * 4 + static_cast<int>((cls - base) / (base >> 2));
}

struct ThreadCache {
  std::array<std::vector<void*>, kThreadCacheClasses> blocks;
  int64_t bytes = 0;
};

class CachingCpuAllocator final : public Allocator {
 public:
  CachingCpuAllocator() {
    const char* v = std::getenv("TFCC_ALLOCATOR_CACHE_BYTES");
    cache_limit_ = v ? std::strtoll(v, nullptr, 10) : (int64_t{8} << 30);
  }

  void* allocate(size_t bytes) override {
    size_t cls = class_bytes(bytes);
    num_allocs_.fetch_add(1, std::memory_order_relaxed);
    if (cls <= kThreadCacheMaxClass) {
      if (ThreadCache* tc = this_thread_cache()) {
        auto& list = tc->blocks[static_cast<size_t>(class_index(cls))];
        if (!list.empty()) {
          void* p = list.back();
          list.pop_back();
          tc->bytes -= static_cast<int64_t>(cls);
          bytes_cached_.fetch_sub(static_cast<int64_t>(cls), std::memory_order_relaxed);
          note_in_use(cls);
          return p;
        }
      }
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = free_.find(cls);
      if (it != free_.end() && !it->second.empty()) {
        void* p = it->second.back();
        it->second.pop_back();
        bytes_cached_.fetch_sub(static_cast<int64_t>(cls), std::memory_order_relaxed);
        note_in_use(cls);
        return p;
      }
    }
    num_system_allocs_.fetch_add(1, std::memory_order_relaxed);
    void* p = system_alloc(cls);
    if (!p) {
      release_cache();
      p = system_alloc(cls);
      if (!p) out_of_memory(bytes);
    }
    note_in_use(cls);
    return p;
  }

  void deallocate(void* ptr, size_t bytes) override {
    if (!ptr) return;
    size_t cls = class_bytes(bytes);
    const auto n = static_cast<int64_t>(cls);
    bytes_in_use_.fetch_sub(n, std::memory_order_relaxed);
    if (cls <= kThreadCacheMaxClass) {
      ThreadCache* tc = this_thread_cache();
      if (tc && tc->bytes + n <= kThreadCacheBytes &&
          bytes_cached_.load(std::memory_order_relaxed) + n <= cache_limit_) {
        tc->blocks[static_cast<size_t>(class_index(cls))].push_back(ptr);
        tc->bytes += n;
        bytes_cached_.fetch_add(n, std::memory_order_relaxed);
        return;
      }
    }
    std::unique_lock<std::mutex> lock(mu_);
    if (bytes_cached_.load(std::memory_order_relaxed) + n > cache_limit_) {
      lock.unlock();
      system_free(ptr, cls);
      return;
    }
    free_[cls].push_back(ptr);
    bytes_cached_.fetch_add(n, std::memory_order_relaxed);
  }

  AllocatorStats stats() const override {
    AllocatorStats s;
    s.bytes_in_use = bytes_in_use_.load();
    s.peak_bytes_in_use = peak_bytes_in_use_.load();
    s.bytes_cached = bytes_cached_.load();
    s.num_allocs = num_allocs_.load();
    s.num_system_allocs = num_system_allocs_.load();
    return s;
  }

  void reset_peak() override { peak_bytes_in_use_.store(bytes_in_use_.load()); }

  // Frees the shared cache and the calling thread's own; other threads' front caches (at most
  // 4 MiB each) stay until those threads exit.
  void release_cache() override {
    std::unordered_map<size_t, std::vector<void*>> drained;
    if (ThreadCache* tc = this_thread_cache()) give_back(*tc, drained);
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (auto& [cls, blocks] : free_) {
        auto& d = drained[cls];
        bytes_cached_.fetch_sub(static_cast<int64_t>(cls * blocks.size()));
        d.insert(d.end(), blocks.begin(), blocks.end());
      }
      free_.clear();
    }
    for (auto& [cls, blocks] : drained) {
      for (void* p : blocks) system_free(p, cls);
    }
  }

  // Moves a thread's front cache into the shared free lists (at thread exit).
  void absorb(ThreadCache& tc) {
    std::unordered_map<size_t, std::vector<void*>> moved;
    give_back(tc, moved);
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [cls, blocks] : moved) {
      auto& list = free_[cls];
      list.insert(list.end(), blocks.begin(), blocks.end());
    }
    // bytes_cached_ is unchanged: the blocks stay cached, in the shared lists now.
    for (auto& [cls, blocks] : moved) {
      bytes_cached_.fetch_add(static_cast<int64_t>(cls * blocks.size()));
    }
  }

 private:
  static size_t class_bytes(size_t bytes) {
    if (bytes > (size_t{1} << 46)) out_of_memory(bytes);
    size_t cls = round_to_class(bytes);
    // Huge-page blocks are whole 2 MiB multiples so the mapping can be fully backed.
    if (cls >= kHugePage) cls = (cls + kHugePage - 1) / kHugePage * kHugePage;
    return cls;
  }

  // Empties `tc` into `out` (keyed by class bytes), taking its bytes off bytes_cached_.
  void give_back(ThreadCache& tc, std::unordered_map<size_t, std::vector<void*>>& out) {
    for (size_t cls = kMinClass; cls <= kThreadCacheMaxClass; cls = round_to_class(cls + 1)) {
      auto& list = tc.blocks[static_cast<size_t>(class_index(cls))];
      if (list.empty()) continue;
      bytes_cached_.fetch_sub(static_cast<int64_t>(cls * list.size()));
      auto& d = out[cls];
      d.insert(d.end(), list.begin(), list.end());
      list.clear();
    }
    tc.bytes = 0;
  }

  void note_in_use(size_t cls) {
    int64_t now = bytes_in_use_.fetch_add(static_cast<int64_t>(cls), std::memory_order_relaxed) +
                  static_cast<int64_t>(cls);
    int64_t peak = peak_bytes_in_use_.load(std::memory_order_relaxed);
    while (now > peak &&
           !peak_bytes_in_use_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
    }
  }

  static ThreadCache* this_thread_cache();

  mutable std::mutex mu_;
  std::unordered_map<size_t, std::vector<void*>> free_;  // guarded by mu_
  std::atomic<int64_t> bytes_in_use_{0};
  std::atomic<int64_t> peak_bytes_in_use_{0};
  std::atomic<int64_t> bytes_cached_{0};
  std::atomic<int64_t> num_allocs_{0};
  std::atomic<int64_t> num_system_allocs_{0};
  int64_t cache_limit_;
};

CachingCpuAllocator& caching_cpu_allocator() {
  // Leaked on purpose: tensors held by static objects may be freed after main returns.
  static auto* a = new CachingCpuAllocator();
  return *a;
}

// The thread's front cache lives in a thread_local owner that hands its blocks to the shared lists
// when the thread exits. Trivially destructible flags guard frees that come later in the thread's
// teardown (a static tensor freed after main's thread_locals are gone): those take the locked path.
thread_local ThreadCache* t_cache = nullptr;
thread_local bool t_cache_gone = false;

struct ThreadCacheOwner {
  ThreadCache cache;
  ~ThreadCacheOwner() {
    t_cache = nullptr;
    t_cache_gone = true;
    caching_cpu_allocator().absorb(cache);
  }
};

ThreadCache* CachingCpuAllocator::this_thread_cache() {
  if (t_cache) return t_cache;
  if (t_cache_gone) return nullptr;
  thread_local ThreadCacheOwner owner;
  t_cache = &owner.cache;
  return t_cache;
}

class MmapAllocator final : public Allocator {
 public:
  void* allocate(size_t bytes) override {
    size_t n = std::max<size_t>(bytes, 1);
    void* p = ::mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) out_of_memory(bytes);
    std::lock_guard<std::mutex> lock(mu_);
    ++stats_.num_allocs;
    ++stats_.num_system_allocs;
    stats_.bytes_in_use += static_cast<int64_t>(n);
    stats_.peak_bytes_in_use = std::max(stats_.peak_bytes_in_use, stats_.bytes_in_use);
    return p;
  }
  void deallocate(void* ptr, size_t bytes) override {
    size_t n = std::max<size_t>(bytes, 1);
    ::munmap(ptr, n);
    std::lock_guard<std::mutex> lock(mu_);
    stats_.bytes_in_use -= static_cast<int64_t>(n);
  }
  AllocatorStats stats() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return stats_;
  }
  void reset_peak() override {
    std::lock_guard<std::mutex> lock(mu_);
    stats_.peak_bytes_in_use = stats_.bytes_in_use;
  }
  void release_cache() override {}

 private:
  mutable std::mutex mu_;
  AllocatorStats stats_;
};

}  // namespace

Allocator& cpu_allocator() { return caching_cpu_allocator(); }

Allocator& uncached_cpu_allocator() {
  static auto* a = new MmapAllocator();
  return *a;
}

}  // namespace tfcc
