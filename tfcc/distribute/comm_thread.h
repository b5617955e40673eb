// Internal: the background thread that issues a process's collectives, one after the other, in
// the order they were submitted. Not a public header.
//
//   internal::CommThread comm;
//   auto job = comm.submit([&] { world.all_reduce_sum(...); });   // returns at once
//   ... compute the remaining gradients ...
//   comm.wait(*job, deadline);   // rethrows the job's exception, if any
//   comm.run([&] { world.barrier("barrier"); });                  // submit + wait
//
// Jobs run in submission order on one thread, so every rank issues its collectives in its own
// program order (the same on every rank), and the MPI library sees one thread at a time
// (MPI_THREAD_SERIALIZED suffices). someone_waiting() tells a polling job whether the submitting
// thread is blocked on it (poll eagerly) or still computing (poll gently, leave it the core).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace tfcc::distribute::internal {

/// One submitted job: its completion and the exception it raised, if any.
class CommJob {
 public:
  /// True once the job has run (or failed).
  bool done() const { return done_.load(std::memory_order_acquire); }

 private:
  friend class CommThread;
  std::function<void()> fn_;
  std::exception_ptr error_;
  std::atomic<bool> done_{false};
};

/// A FIFO of jobs run by one background thread.
class CommThread {
 public:
  CommThread();
  /// Waits for the queued jobs and joins the thread; with `abandon()` called, detaches it.
  ~CommThread();
  CommThread(const CommThread&) = delete;
  CommThread& operator=(const CommThread&) = delete;

  /// Queues `fn`; it runs after every job submitted before it.
  std::shared_ptr<CommJob> submit(std::function<void()> fn);
  /// Blocks until `job` has run; rethrows its exception. Returns false (the job still running)
  /// if `deadline` passes first.
  bool wait(const CommJob& job, std::chrono::steady_clock::time_point deadline);
  /// submit + wait without a deadline.
  void run(std::function<void()> fn);

  /// True while some thread is blocked in wait().
  bool someone_waiting() const { return state_->waiters.load(std::memory_order_relaxed) > 0; }
  /// True when called on the communication thread itself.
  bool on_this_thread() const { return std::this_thread::get_id() == thread_.get_id(); }
  /// The destructor will detach the thread instead of joining it (a job is stuck: the process
  /// is about to abort the MPI job).
  void abandon() { abandoned_ = true; }

 private:
  struct State {
    std::mutex mu;
    std::condition_variable work, finished;
    std::deque<std::shared_ptr<CommJob>> queue;
    bool stop = false;
    std::atomic<int> waiters{0};
  };
  static void loop(std::shared_ptr<State> state);

  std::shared_ptr<State> state_;  // shared with the thread, so it may outlive a detach
  std::thread thread_;
  std::atomic<bool> abandoned_{false};
};

}  // namespace tfcc::distribute::internal
