// What every oneDNN-backed kernel family shares (linalg, conv, pool): the CPU engine, a stream
// per thread, a primitive cache keyed by problem + thread count, and execution with a
// user-managed scratchpad.
//
//   static onednn::PrimitiveCache<MyEntry> cache;
//   auto e = cache.get(key, [&] { return build_entry(...); });   // built once per key
//   onednn::execute(*e->prim, e->scratch_md, {{DNNL_ARG_SRC, src}, ...});
//
// Thread count in keys: oneDNN fixes a primitive's parallel plan when it is created, so a key
// must include the thread count in force (config::threading); `key_prefix` adds it.
#pragma once

#include <omp.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <oneapi/dnnl/dnnl.hpp>
#include <string>
#include <unordered_map>
#include <vector>

namespace tfcc::onednn {

/// The one CPU engine (applies the ISA cap first: apply_isa_cap).
dnnl::engine& engine();
/// Caps oneDNN's JIT kernels at TFCC_MAX_CPU_ISA, once per process. oneDNN fixes its ISA at its
/// first call of any kind (a primitive, dnnl_sgemm, even get_effective_cpu_isa) and silently
/// ignores a later set_max_cpu_isa, so every oneDNN entry point calls this first (engine() does).
void apply_isa_cap();
/// This thread's stream (in-order, blocking after execute + wait).
dnnl::stream& stream();

/// Counters of one primitive cache.
struct CacheStats {
  int64_t hits = 0;       ///< calls that reused a cached primitive
  int64_t misses = 0;     ///< calls that built one
  int64_t entries = 0;    ///< primitives held
  int64_t fallbacks = 0;  ///< float32 calls oneDNN could not take (run by the C++ loop)
};

/// The start of every cache key: a tag naming the problem kind, and the thread count.
inline std::vector<int64_t> key_prefix(int64_t tag) {
  return {tag, static_cast<int64_t>(omp_get_max_threads())};
}

/// A thread-safe map from problem keys to built primitives (entries are immutable once built).
template <typename Entry>
class PrimitiveCache {
 public:
  /// The entry of `key`, built by `build()` on the first call (outside the lock; a racing
  /// builder of the same key keeps the first one stored).
  std::shared_ptr<const Entry> get(const std::vector<int64_t>& key,
                                   const std::function<std::shared_ptr<Entry>()>& build) {
    {
      std::lock_guard lock(mu_);
      auto it = entries_.find(key);
      if (it != entries_.end()) {
        hits_.fetch_add(1, std::memory_order_relaxed);
        return it->second;
      }
    }
    std::shared_ptr<const Entry> e = build();
    std::lock_guard lock(mu_);
    misses_.fetch_add(1, std::memory_order_relaxed);
    return entries_.emplace(key, std::move(e)).first->second;
  }
  void count_fallback() { fallbacks_.fetch_add(1, std::memory_order_relaxed); }
  CacheStats stats() {
    CacheStats s;
    s.hits = hits_.load();
    s.misses = misses_.load();
    s.fallbacks = fallbacks_.load();
    std::lock_guard lock(mu_);
    s.entries = static_cast<int64_t>(entries_.size());
    return s;
  }

 private:
  std::mutex mu_;
  std::map<std::vector<int64_t>, std::shared_ptr<const Entry>> entries_;
  std::atomic<int64_t> hits_{0}, misses_{0}, fallbacks_{0};
};

/// Primitive attributes with a user-managed scratchpad. Debian's oneDNN shares one library
/// scratchpad between concurrent executions (it is not built with DNNL_ENABLE_CONCURRENT_EXEC),
/// which corrupts results when two threads run a primitive at once; each execution gets its own.
dnnl::primitive_attr user_scratchpad_attr();

/// Runs `prim` on this thread's stream with a fresh scratchpad of `scratch_md`, and waits.
void execute(const dnnl::primitive& prim, const dnnl::memory::desc& scratch_md,
             std::unordered_map<int, dnnl::memory> args);

/// The eltwise post-op of a fused activation name (fused.h: "Relu", "Relu6", "LeakyRelu" with
/// slope `slope`, "Elu", "Tanh", "Sigmoid", "GeluExact", "GeluApproximate"); false if unknown.
bool eltwise_algorithm(const std::string& name, float slope, dnnl::algorithm* alg, float* alpha,
                       float* beta);

/// A memory object over caller-owned data (oneDNN never writes inputs).
inline dnnl::memory wrap(const dnnl::memory::desc& md, const void* data) {
  return dnnl::memory(md, engine(), const_cast<void*>(data));
}

}  // namespace tfcc::onednn
