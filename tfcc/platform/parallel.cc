// The intra-op pool behind parallel_for. One job runs at a time; its claim state is one 64-bit
// word (generation | chunk count | next chunk), so a worker that read a finished job's state
// fails its compare-and-swap instead of running a stale chunk. The job's fields are written
// before the word is published (release) and read only after a successful claim (acquire); the
// caller overwrites them only once every claimed chunk reported done, so a claimed chunk always
// sees its own job. A second thread that finds the pool busy, and a loop started from inside a
// chunk, run serially: no thread ever waits for the pool to become free.
#include "tfcc/platform/parallel.h"

#include <dirent.h>
#include <fcntl.h>
#include <omp.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tfcc/platform/parallel_runtime.h"

namespace tfcc::parallel {
namespace {

// Idle workers poll for this long before blocking: long enough to catch the next op of a step
// (a few microseconds apart), short enough not to steal a busy machine's core for long.
// TFCC_POOL_SPIN_US overrides it (0: block at once).
std::chrono::microseconds spin_time() {
  static const std::chrono::microseconds v = [] {
    const char* e = std::getenv("TFCC_POOL_SPIN_US");
    if (e == nullptr || *e == '\0') return std::chrono::microseconds(30);
    char* end = nullptr;
    const long us = std::strtol(e, &end, 10);
    return std::chrono::microseconds(*end == '\0' && us >= 0 ? std::min(us, 100000L) : 30L);
  }();
  return v;
}
constexpr int kMaxWorkers = 255;

constexpr uint64_t kIndexBits = 16;
constexpr uint64_t kIndexMask = (uint64_t{1} << kIndexBits) - 1;
constexpr int64_t kMaxChunks = int64_t{1} << 14;

uint64_t pack(uint64_t gen, uint64_t chunks, uint64_t next) {
  return (gen << (2 * kIndexBits)) | (chunks << kIndexBits) | next;
}
uint64_t chunks_of(uint64_t w) { return (w >> kIndexBits) & kIndexMask; }
uint64_t next_of(uint64_t w) { return w & kIndexMask; }
uint64_t gen_of(uint64_t w) { return w >> (2 * kIndexBits); }
bool claimable(uint64_t w) { return next_of(w) < chunks_of(w); }

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

std::atomic<int64_t> g_regions{0};

// The start of chunk i of `chunks` over [0, n), rounded up to a multiple of align.
int64_t chunk_bound(int64_t n, int64_t chunks, int64_t align, int64_t i) {
  if (i == 0) return 0;
  if (i == chunks) return n;
  // n * i / chunks without overflowing for any n.
  const int64_t b = (n / chunks) * i + (n % chunks) * i / chunks;
  return std::min(n, (b + align - 1) / align * align);
}

// Which runtime runs a region (parallel_runtime.h). Forced by TFCC_PARALLEL_RUNTIME ("pool",
// "openmp") or force_runtime(); otherwise chosen from measured contention: OpenMP regions (with
// oneDNN's own OpenMP regions) while this process's threads get their CPUs, tfcc's pool (with
// oneDNN split over it, one OpenMP thread per call) once they wait for CPUs. Measured on the
// 2-core VM (docs/benchmark-history.md, "oneDNN on tfcc's pool"): beside two busy loops the pool
// ran the seed CNN fit 4-6x faster than OpenMP regions, but with the cores to itself it was
// 0.5-0.9x on batch-64 CNN inference and the MLP fit, because two concurrent one-thread oneDNN
// calls scale worse than one two-thread call.
constexpr int kNotForced = -1;
std::atomic<int> g_forced{kNotForced};

int env_runtime() {
  static const int v = [] {
    const char* e = std::getenv("TFCC_PARALLEL_RUNTIME");
    const std::string s = e == nullptr ? "" : e;
    if (s == "openmp") return static_cast<int>(Runtime::kOpenMp);
    if (s == "pool") return static_cast<int>(Runtime::kPool);
    return kNotForced;
  }();
  return v;
}

// Nanoseconds this process's threads have spent runnable but waiting for a CPU: the sum of the
// second field of /proc/self/task/*/schedstat. -1 where the kernel does not provide it.
int64_t run_queue_wait_ns() {
  DIR* d = opendir("/proc/self/task");
  if (d == nullptr) return -1;
  int64_t sum = 0;
  bool any = false;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    const std::string path = std::string("/proc/self/task/") + e->d_name + "/schedstat";
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    char buf[128];
    const ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) continue;
    buf[n] = '\0';
    unsigned long long run = 0, wait = 0;
    if (std::sscanf(buf, "%llu %llu", &run, &wait) == 2) {
      sum += static_cast<int64_t>(wait);
      any = true;
    }
  }
  closedir(d);
  return any ? sum : -1;
}

// The contention estimate: every 50 ms (checked by the thread that starts a region), the run-queue
// wait of the process's threads per wall-clock second, smoothed; contended above 0.6 (60% of one
// thread's time spent waiting), uncontended again below 0.35. Measured on the shared 2-core VM:
// about 0.2 for a 2-thread run among other sessions' builds (OpenMP regions still fast there),
// about 1 beside two busy loops (each of two threads runnable but waiting half the time).
class Contention {
 public:
  bool contended() {
    const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::steady_clock::now().time_since_epoch())
                            .count();
    if (now >= next_.load(std::memory_order_relaxed)) refresh(now);
    return contended_.load(std::memory_order_relaxed);
  }

 private:
  static constexpr int64_t kPeriodNs = 50'000'000;

  void refresh(int64_t now) {
    std::unique_lock lock(mu_, std::try_to_lock);
    if (!lock.owns_lock() || now < next_.load(std::memory_order_relaxed)) return;
    next_.store(now + kPeriodNs, std::memory_order_relaxed);
    const int64_t wait = run_queue_wait_ns();
    if (wait < 0) return;
    if (last_now_ > 0) {
      const double rate = static_cast<double>(std::max<int64_t>(0, wait - last_wait_)) /
                          static_cast<double>(now - last_now_);
      rate_ = 0.5 * rate_ + 0.5 * rate;
      const bool was = contended_.load(std::memory_order_relaxed);
      contended_.store(was ? rate_ > 0.35 : rate_ > 0.6, std::memory_order_relaxed);
    }
    last_now_ = now;
    last_wait_ = wait;
  }

  std::atomic<int64_t> next_{0};
  std::atomic<bool> contended_{false};
  std::mutex mu_;
  int64_t last_now_ = 0, last_wait_ = 0;
  double rate_ = 0;
};

Contention& contention() {
  static Contention* c = new Contention;
  return *c;
}

bool use_openmp() { return runtime() == Runtime::kOpenMp; }
thread_local bool t_in_chunk = false;
thread_local int t_cap = 0;

class Pool {
 public:
  static Pool& get() {
    // Never destroyed: workers may still be parked at exit, and static destructors must not
    // join them.
    static Pool* p = new Pool();
    return *p;
  }

  // Runs the job on the caller and on up to threads - 1 workers; false when the pool is in use
  // by another thread (the caller then runs the loop itself).
  bool run(int64_t n, int64_t chunks, int64_t align, int threads, RangeFn fn) {
    if (busy_.exchange(true, std::memory_order_acquire)) return false;
    struct Release {
      std::atomic<bool>& b;
      ~Release() { b.store(false, std::memory_order_release); }
    } release{busy_};
    ensure_workers(threads - 1);
    n_ = n;
    align_ = align;
    fn_ = &fn;
    error_ = nullptr;
    done_.store(0, std::memory_order_relaxed);
    const uint64_t gen = gen_of(state_.load(std::memory_order_relaxed)) + 1;
    state_.store(pack(gen, static_cast<uint64_t>(chunks), 0), std::memory_order_seq_cst);
    g_regions.fetch_add(1, std::memory_order_relaxed);
    wake_seq_.fetch_add(1, std::memory_order_seq_cst);
    if (sleepers_.load(std::memory_order_seq_cst) > 0) wake_seq_.notify_all();
    run_chunks();
    // Wait for chunks other threads claimed and are still running (never for idle workers).
    const auto total = static_cast<uint32_t>(chunks);
    for (uint32_t d = done_.load(std::memory_order_acquire); d != total;
         d = done_.load(std::memory_order_acquire)) {
      done_.wait(d, std::memory_order_acquire);
    }
    fn_ = nullptr;
    if (error_) std::rethrow_exception(error_);
    return true;
  }

 private:
  Pool() = default;

  void ensure_workers(int wanted) {
    wanted = std::min(wanted, kMaxWorkers);
    if (num_workers_.load(std::memory_order_acquire) >= wanted) return;
    std::lock_guard lock(grow_mu_);
    for (int i = num_workers_.load(std::memory_order_relaxed); i < wanted; ++i) {
      std::thread([this] { worker_loop(); }).detach();
      num_workers_.store(i + 1, std::memory_order_release);
    }
  }

  // Claims and runs chunks of the current job until none is left; true if it ran any.
  bool run_chunks() {
    bool ran = false;
    uint64_t w = state_.load(std::memory_order_acquire);
    while (claimable(w)) {
      if (!state_.compare_exchange_weak(w, w + 1, std::memory_order_acq_rel,
                                        std::memory_order_acquire)) {
        continue;
      }
      run_chunk(static_cast<int64_t>(next_of(w)), static_cast<int64_t>(chunks_of(w)));
      ran = true;
      w = state_.load(std::memory_order_acquire);
    }
    return ran;
  }

  void run_chunk(int64_t c, int64_t chunks) {
    auto bound = [&](int64_t i) { return chunk_bound(n_, chunks, align_, i); };
    const int64_t begin = bound(c), end = bound(c + 1);
    if (begin < end) {
      t_in_chunk = true;
      try {
        (*fn_)(begin, end);
      } catch (...) {
        std::lock_guard lock(error_mu_);
        if (!error_) error_ = std::current_exception();
      }
      t_in_chunk = false;
    }
    if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == static_cast<uint32_t>(chunks)) {
      done_.notify_one();
    }
  }

  void worker_loop() {
    // oneDNN calls made by chunks run on this thread alone (kernels::onednn_split). The name
    // tells the pool's threads from others (libgomp's, in tests) in /proc and debuggers.
    omp_set_num_threads(1);
    pthread_setname_np(pthread_self(), "tfcc-pool");
    for (;;) {
      if (run_chunks()) continue;
      const auto deadline = std::chrono::steady_clock::now() + spin_time();
      bool found = false;
      while (!found) {
        for (int i = 0; i < 64 && !found; ++i) {
          cpu_relax();
          found = claimable(state_.load(std::memory_order_relaxed));
        }
        if (std::chrono::steady_clock::now() > deadline) break;
      }
      if (found) continue;
      // Block. The sleeper count is raised before the state is checked again, and the caller
      // publishes the state before reading the count, so one of the two always sees the other.
      sleepers_.fetch_add(1, std::memory_order_seq_cst);
      const uint32_t seq = wake_seq_.load(std::memory_order_seq_cst);
      if (!claimable(state_.load(std::memory_order_seq_cst))) {
        wake_seq_.wait(seq, std::memory_order_seq_cst);
      }
      sleepers_.fetch_sub(1, std::memory_order_seq_cst);
    }
  }

  std::atomic<bool> busy_{false};
  std::atomic<uint64_t> state_{0};
  std::atomic<uint32_t> done_{0};
  std::atomic<uint32_t> wake_seq_{0};
  std::atomic<int> sleepers_{0};
  std::atomic<int> num_workers_{0};
  std::mutex grow_mu_;
  // The current job: written by the caller before state_ is published.
  int64_t n_ = 0;
  int64_t align_ = 1;
  const RangeFn* fn_ = nullptr;
  std::mutex error_mu_;
  std::exception_ptr error_;
};

// One OpenMP region whose threads claim chunks from a shared counter (schedule(dynamic, 1)).
void run_openmp(int64_t n, int64_t chunks, int64_t align, int threads, const RangeFn& fn) {
  std::atomic<int64_t> next{0};
  std::mutex mu;
  std::exception_ptr error;
  g_regions.fetch_add(1, std::memory_order_relaxed);
#pragma omp parallel num_threads(threads)
  {
    t_in_chunk = true;
    for (int64_t c = next.fetch_add(1, std::memory_order_relaxed); c < chunks;
         c = next.fetch_add(1, std::memory_order_relaxed)) {
      try {
        const int64_t begin = chunk_bound(n, chunks, align, c);
        const int64_t end = chunk_bound(n, chunks, align, c + 1);
        if (begin < end) fn(begin, end);
      } catch (...) {
        std::lock_guard lock(mu);
        if (!error) error = std::current_exception();
      }
    }
    t_in_chunk = false;
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace

int threads_for(int64_t n, double cost_per_item_ns, int max_threads) {
  if (max_threads <= 1 || n <= 1) return 1;
  const double work = static_cast<double>(n) * std::max(cost_per_item_ns, 0.0);
  if (work < 2 * kMinParallelWorkNs) return 1;
  const double t = std::min<double>({work / kMinParallelWorkNs, static_cast<double>(max_threads),
                                     static_cast<double>(n), kMaxWorkers + 1.0});
  return static_cast<int>(t);
}

void parallel_for(int64_t n, double cost_per_item_ns, int max_threads, RangeFn fn, int64_t align) {
  if (n <= 0) return;
  const int threads = t_in_chunk ? 1 : threads_for(n, cost_per_item_ns, max_threads);
  if (threads > 1) {
    align = std::max<int64_t>(align, 1);
    const int64_t units = (n + align - 1) / align;
    const int64_t chunks = std::min<int64_t>({units, kChunksPerThread * threads, kMaxChunks});
    if (chunks > 1 && use_openmp()) {
      run_openmp(n, chunks, align, threads, fn);
      return;
    }
    if (chunks > 1 && Pool::get().run(n, chunks, align, threads, fn)) return;
  }
  fn(0, n);
}

int64_t regions_started() { return g_regions.load(std::memory_order_relaxed); }

void cap_calling_thread(int max_threads) { t_cap = std::max(max_threads, 0); }

int calling_thread_cap() { return t_cap; }

void note_region() { g_regions.fetch_add(1, std::memory_order_relaxed); }

Runtime runtime() {
  const int forced = g_forced.load(std::memory_order_relaxed);
  if (forced != kNotForced) return static_cast<Runtime>(forced);
  if (env_runtime() != kNotForced) return static_cast<Runtime>(env_runtime());
  return contention().contended() ? Runtime::kPool : Runtime::kOpenMp;
}

void force_runtime(std::optional<Runtime> r) {
  g_forced.store(r ? static_cast<int>(*r) : kNotForced, std::memory_order_relaxed);
}

bool contended() { return contention().contended(); }

}  // namespace tfcc::parallel
