// Parallel map: up to N calls in flight on N worker threads, results in a bounded buffer.
//
// The consumer thread pulls input elements and hands each to the pool with a result slot; slots
// are kept in input order. Deterministic iteration waits for the oldest slot; otherwise the first
// finished slot is taken. An exception from the function (or the input) is stored in the slot and
// rethrown by the get_next() that reaches it. Destruction cancels queued calls, waits for running
// ones and joins the threads, so a half-read iterator can be dropped at any time.
//
// Each worker runs its calls with one intra-op thread: the N calls in flight already use the
// cores, and N OpenMP teams of all cores each would oversubscribe them.
//
// Cheap functions are handed over in runs: a task maps `chunk` consecutive elements, where chunk
// grows so a task lasts about 50 us (measured mean call time). One hand-off per element cost more
// than the seed's two-op map itself: with it, AUTOTUNE ran the seed pipeline at a fifth of the
// sequential map's speed. Results still land in per-element slots, in input order.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

#include "tfcc/data/map_internal.h"
#include "tfcc/platform/cpu_count.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/parallel.h"
#include "tfcc/platform/thread_pool.h"

namespace tfcc::data::internal {
namespace {

struct Slot {
  bool done = false;
  std::optional<Element> result;
  std::exception_ptr error;
};

// The CPUs this process may use (affinity mask and cgroup quota), not the host's core count.
int64_t autotune_threads() { return available_cpus(); }

class ParallelMapIt : public IteratorBase {
 public:
  explicit ParallelMapIt(const MapNode* n)
      : n_(n),
        input_(n->input()->make_iterator()),
        threads_(n->options().num_parallel_calls == AUTOTUNE ? autotune_threads()
                                                             : n->options().num_parallel_calls),
        // Twice the threads' runs in flight, so a worker always has a next run while the consumer
        // is away.
        max_in_flight_(2 * threads_) {}

  ~ParallelMapIt() override {
    cancelled_.store(true);
    pool_.reset();  // runs (and skips) the queued calls, joins the workers
  }

  std::optional<Element> next() override {
    fill();
    if (slots_.empty()) return std::nullopt;
    std::shared_ptr<Slot> s;
    {
      std::unique_lock<std::mutex> lock(mu_);
      size_t idx = 0;
      if (n_->options().deterministic) {
        cv_.wait(lock, [&] { return slots_.front()->done; });
      } else {
        cv_.wait(lock, [&] {
          for (idx = 0; idx < slots_.size(); ++idx) {
            if (slots_[idx]->done) return true;
          }
          return false;
        });
      }
      s = slots_[idx];
      slots_.erase(slots_.begin() + static_cast<std::ptrdiff_t>(idx));
    }
    fill();
    if (s->error) std::rethrow_exception(s->error);
    return std::move(s->result);
  }

  void save(StateWriter& w) override {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] {
      return std::all_of(slots_.begin(), slots_.end(), [](const auto& s) { return s->done; });
    });
    w.write_i64(input_done_);
    w.write_u64(slots_.size());
    for (const auto& s : slots_) {
      if (s->error) {
        w.write_i64(1);
        ErrorCode code = ErrorCode::kUnknown;
        std::string message;
        try {
          std::rethrow_exception(s->error);
        } catch (const Error& e) {
          code = e.code();
          message = e.what();
        } catch (const std::exception& e) {
          message = e.what();
        } catch (...) {
          message = "unknown exception in a map function";
        }
        w.write_i64(static_cast<int64_t>(code));
        w.write_string(message);
      } else {
        w.write_i64(0);
        w.write_element(*s->result);
      }
    }
    input_->save(w);
  }

  void restore(StateReader& r) override {
    input_done_ = r.read_i64() != 0;
    uint64_t n = r.read_u64();
    if (n > static_cast<uint64_t>(max_in_flight_ * 64) && n > 1024) {
      throw DataLossError("ParallelMapDataset: saved buffer is too large");
    }
    slots_.clear();
    for (uint64_t i = 0; i < n; ++i) {
      auto s = std::make_shared<Slot>();
      s->done = true;
      if (r.read_i64() != 0) {
        int64_t code = r.read_i64();
        std::string message = r.read_string();
        // Restored errors keep their code and message; their C++ type is the base tfcc::Error.
        s->error = std::make_exception_ptr(Error(static_cast<ErrorCode>(code), message));
      } else {
        s->result = r.read_element();
      }
      slots_.push_back(std::move(s));
    }
    input_->restore(r);
  }

 private:
  // Elements a task maps: enough that a task lasts about kTaskNs at the measured mean call time.
  int64_t chunk() const {
    constexpr int64_t kTaskNs = 50'000, kMaxChunk = 64;
    const int64_t mean = mean_call_ns_.load(std::memory_order_relaxed);
    if (mean <= 0) return 1;  // nothing measured yet
    return std::clamp<int64_t>(kTaskNs / mean, 1, kMaxChunk);
  }

  void fill() {
    if (!pool_) pool_ = std::make_unique<ThreadPool>(static_cast<int>(threads_));
    const int64_t k = chunk();
    const int64_t limit = max_in_flight_ * k;
    while (!input_done_ && static_cast<int64_t>(slots_.size()) < limit) {
      std::vector<std::pair<std::shared_ptr<Slot>, Element>> run;
      while (static_cast<int64_t>(run.size()) < k && !input_done_ &&
             static_cast<int64_t>(slots_.size()) < limit) {
        auto slot = std::make_shared<Slot>();
        std::optional<Element> e;
        try {
          e = input_->next();
        } catch (...) {
          slot->error = std::current_exception();
          slot->done = true;
          std::lock_guard<std::mutex> lock(mu_);
          slots_.push_back(std::move(slot));
          break;  // the elements before it go as one run; the next run starts after it
        }
        if (!e) {
          input_done_ = true;
          break;
        }
        {
          std::lock_guard<std::mutex> lock(mu_);
          slots_.push_back(slot);
        }
        run.emplace_back(std::move(slot), std::move(*e));
      }
      if (!run.empty()) submit(std::move(run));
    }
  }

  void submit(std::vector<std::pair<std::shared_ptr<Slot>, Element>> run) {
    pool_->submit([this, run = std::move(run)] {
      thread_local bool single_threaded =
          (parallel::cap_calling_thread(1), omp_set_num_threads(1), true);
      (void)single_threaded;
      for (const auto& [slot, element] : run) {
        std::optional<Element> result;
        std::exception_ptr error;
        if (!cancelled_.load()) {
          const auto start = std::chrono::steady_clock::now();
          try {
            result = n_->fn()(element);
          } catch (...) {
            error = std::current_exception();
          }
          const int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                 std::chrono::steady_clock::now() - start)
                                 .count();
          // Exponential mean over calls (weight 1/8); races between workers only blur it.
          const int64_t mean = mean_call_ns_.load(std::memory_order_relaxed);
          mean_call_ns_.store(mean <= 0 ? std::max<int64_t>(ns, 1) : mean + (ns - mean) / 8,
                              std::memory_order_relaxed);
        }
        std::lock_guard<std::mutex> lock(mu_);
        slot->result = std::move(result);
        slot->error = error;
        slot->done = true;
        cv_.notify_all();
      }
    });
  }

  const MapNode* n_;
  std::unique_ptr<IteratorBase> input_;
  int64_t threads_;
  int64_t max_in_flight_;
  bool input_done_ = false;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::shared_ptr<Slot>> slots_;  // input order; guarded by mu_
  std::atomic<bool> cancelled_{false};
  std::atomic<int64_t> mean_call_ns_{0};
  std::unique_ptr<ThreadPool> pool_;  // last member: destroyed (joined) first
};

}  // namespace

std::unique_ptr<IteratorBase> make_parallel_map_iterator(const MapNode* node) {
  return std::make_unique<ParallelMapIt>(node);
}

}  // namespace tfcc::data::internal
