// A fixed pool of worker threads for background work (input pipelines, event-file writers).
// Intra-op parallelism inside kernels uses tfcc/platform/parallel.h instead (ARCHITECTURE.md,
// decision 13).
//
//   tfcc::ThreadPool pool(4);
//   auto done = pool.submit([] { return 6 * 7; });
//   int answer = done.get();
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

namespace tfcc {

/// Runs submitted tasks on `num_threads` workers, first in first out. The destructor finishes
/// the queued tasks and joins the workers.
class ThreadPool {
 public:
  explicit ThreadPool(int num_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// Queues `fn`; the future holds its result or the exception it threw.
  template <typename F>
  auto submit(F fn) -> std::future<decltype(fn())> {
    using R = decltype(fn());
    auto task = std::make_shared<std::packaged_task<R()>>(std::move(fn));
    std::future<R> result = task->get_future();
    enqueue([task] { (*task)(); });
    return result;
  }

  /// Number of worker threads.
  int size() const { return static_cast<int>(workers_.size()); }

 private:
  void enqueue(std::function<void()> job);
  void worker_loop();

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace tfcc
