// Parallel map: up to N calls in flight on N worker threads, results in a bounded buffer.
//
// The consumer thread pulls input elements and hands each to the pool with a result slot; slots
// are kept in input order. Deterministic iteration waits for the oldest slot; otherwise the first
// finished slot is taken. An exception from the function (or the input) is stored in the slot and
// rethrown by the get_next() that reaches it. Destruction cancels queued calls, waits for running
// ones and joins the threads, so a half-read iterator can be dropped at any time.
//
// Each worker runs its calls with one OpenMP thread: the N calls in flight already use the
// cores, and N OpenMP teams of all cores each would oversubscribe them.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

#include "tfcc/data/map_internal.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/thread_pool.h"

namespace tfcc::data::internal {
namespace {

struct Slot {
  bool done = false;
  std::optional<Element> result;
  std::exception_ptr error;
};

int64_t autotune_threads() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 2 : static_cast<int64_t>(n);
}

class ParallelMapIt : public IteratorBase {
 public:
  explicit ParallelMapIt(const MapNode* n)
      : n_(n),
        input_(n->input()->make_iterator()),
        threads_(n->options().num_parallel_calls == AUTOTUNE ? autotune_threads()
                                                             : n->options().num_parallel_calls),
        // Twice the threads in flight, so a worker always has a next element while the consumer
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
    if (n > static_cast<uint64_t>(max_in_flight_) && n > 1024) {
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
  void fill() {
    if (!pool_) pool_ = std::make_unique<ThreadPool>(static_cast<int>(threads_));
    while (!input_done_ && static_cast<int64_t>(slots_.size()) < max_in_flight_) {
      auto slot = std::make_shared<Slot>();
      std::optional<Element> e;
      try {
        e = input_->next();
      } catch (...) {
        slot->error = std::current_exception();
        slot->done = true;
        std::lock_guard<std::mutex> lock(mu_);
        slots_.push_back(std::move(slot));
        continue;
      }
      if (!e) {
        input_done_ = true;
        break;
      }
      {
        std::lock_guard<std::mutex> lock(mu_);
        slots_.push_back(slot);
      }
      pool_->submit([this, slot, element = std::move(*e)] {
        std::optional<Element> result;
        std::exception_ptr error;
        thread_local bool single_threaded = (omp_set_num_threads(1), true);
        (void)single_threaded;
        if (!cancelled_.load()) {
          try {
            result = n_->fn()(element);
          } catch (...) {
            error = std::current_exception();
          }
        }
        std::lock_guard<std::mutex> lock(mu_);
        slot->result = std::move(result);
        slot->error = error;
        slot->done = true;
        cv_.notify_all();
      });
    }
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
  std::unique_ptr<ThreadPool> pool_;  // last member: destroyed (joined) first
};

}  // namespace

std::unique_ptr<IteratorBase> make_parallel_map_iterator(const MapNode* node) {
  return std::make_unique<ParallelMapIt>(node);
}

}  // namespace tfcc::data::internal
