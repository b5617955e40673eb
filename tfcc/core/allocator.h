// Memory for tensor buffers: 64-byte aligned, counted, and cached for reuse.
//
//   tfcc::Allocator& a = tfcc::cpu_allocator();
//   void* p = a.allocate(1 << 22);
//   a.deallocate(p, 1 << 22);          // kept in a size-class cache, not returned to the OS
//   a.stats().peak_bytes;               // high-water mark of bytes handed out
//
// Why a cache: on these machines touching a freshly mapped 4 KiB page costs ~15 us, so a
// framework that maps new memory per op spends most of its time in page faults
// (shared/research/machine.md). Freed blocks go to per-size-class free lists; blocks of 2 MiB and
// more are mapped with transparent huge pages.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstddef>
#include <cstdint>

namespace tfcc {

/// Byte counts an allocator keeps; all read at one instant.
struct AllocatorStats {
  int64_t bytes_in_use = 0;  ///< bytes handed out and not yet freed (size-class rounded)
  int64_t peak_bytes_in_use = 0;
  int64_t bytes_cached = 0;  ///< freed bytes kept for reuse
  int64_t num_allocs = 0;
  int64_t num_system_allocs = 0;  ///< allocations that had to ask the OS
};

/// Interface every device allocator implements.
class Allocator {
 public:
  static constexpr size_t kAlignment = 64;
  virtual ~Allocator() = default;
  /// At least `bytes` bytes, 64-byte aligned. Throws ResourceExhaustedError on failure.
  virtual void* allocate(size_t bytes) = 0;
  /// Returns a block; `bytes` must be the size passed to allocate().
  virtual void deallocate(void* ptr, size_t bytes) = 0;
  virtual AllocatorStats stats() const = 0;
  /// Restarts the peak at the current bytes in use (for per-phase memory measurements).
  virtual void reset_peak() = 0;
  /// Gives every cached block back to the OS.
  virtual void release_cache() = 0;
};

/// The process-wide CPU allocator (size-class caching, huge pages for large blocks).
Allocator& cpu_allocator();

/// A CPU allocator without caching: every block is mmap'ed and munmap'ed. Only for benchmarks that
/// show what the cache saves.
Allocator& uncached_cpu_allocator();

}  // namespace tfcc
#pragma GCC visibility pop
