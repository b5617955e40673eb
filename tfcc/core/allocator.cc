#include "tfcc/core/allocator.h"

#include <sys/mman.h>

#include <algorithm>
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

class CachingCpuAllocator final : public Allocator {
 public:
  CachingCpuAllocator() {
    const char* v = std::getenv("TFCC_ALLOCATOR_CACHE_BYTES");
    cache_limit_ = v ? std::strtoll(v, nullptr, 10) : (int64_t{8} << 30);
  }

  void* allocate(size_t bytes) override {
    size_t cls = class_bytes(bytes);
    {
      std::lock_guard<std::mutex> lock(mu_);
      ++stats_.num_allocs;
      auto it = free_.find(cls);
      if (it != free_.end() && !it->second.empty()) {
        void* p = it->second.back();
        it->second.pop_back();
        stats_.bytes_cached -= static_cast<int64_t>(cls);
        note_in_use(cls);
        return p;
      }
      ++stats_.num_system_allocs;
    }
    void* p = system_alloc(cls);
    if (!p) {
      release_cache();
      p = system_alloc(cls);
      if (!p) out_of_memory(bytes);
    }
    std::lock_guard<std::mutex> lock(mu_);
    note_in_use(cls);
    return p;
  }

  void deallocate(void* ptr, size_t bytes) override {
    if (!ptr) return;
    size_t cls = class_bytes(bytes);
    std::unique_lock<std::mutex> lock(mu_);
    stats_.bytes_in_use -= static_cast<int64_t>(cls);
    if (stats_.bytes_cached + static_cast<int64_t>(cls) > cache_limit_) {
      lock.unlock();
      system_free(ptr, cls);
      return;
    }
    free_[cls].push_back(ptr);
    stats_.bytes_cached += static_cast<int64_t>(cls);
  }

  AllocatorStats stats() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return stats_;
  }

  void reset_peak() override {
    std::lock_guard<std::mutex> lock(mu_);
    stats_.peak_bytes_in_use = stats_.bytes_in_use;
  }

  void release_cache() override {
    std::unordered_map<size_t, std::vector<void*>> drained;
    {
      std::lock_guard<std::mutex> lock(mu_);
      drained.swap(free_);
      stats_.bytes_cached = 0;
    }
    for (auto& [cls, blocks] : drained) {
      for (void* p : blocks) system_free(p, cls);
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
  void note_in_use(size_t cls) {
    stats_.bytes_in_use += static_cast<int64_t>(cls);
    stats_.peak_bytes_in_use = std::max(stats_.peak_bytes_in_use, stats_.bytes_in_use);
  }

  mutable std::mutex mu_;
  std::unordered_map<size_t, std::vector<void*>> free_;
  AllocatorStats stats_;
  int64_t cache_limit_;
};

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

Allocator& cpu_allocator() {
  // Leaked on purpose: tensors held by static objects may be freed after main returns.
  static auto* a = new CachingCpuAllocator();
  return *a;
}

Allocator& uncached_cpu_allocator() {
  static auto* a = new MmapAllocator();
  return *a;
}

}  // namespace tfcc
