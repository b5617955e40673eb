#include "tfcc/distribute/comm_thread.h"

#include "tfcc/platform/errors.h"

namespace tfcc::distribute::internal {

CommThread::CommThread() : state_(std::make_shared<State>()), thread_(loop, state_) {}

CommThread::~CommThread() {
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->stop = true;
  }
  state_->work.notify_all();
  if (abandoned_.load()) {
    thread_.detach();
  } else {
    thread_.join();
  }
}

void CommThread::loop(std::shared_ptr<State> state) {
  for (;;) {
    std::shared_ptr<CommJob> job;
    {
      std::unique_lock<std::mutex> lock(state->mu);
      state->work.wait(lock, [&] { return state->stop || !state->queue.empty(); });
      // Queued jobs still run after stop: a rank must not skip collectives its peers issue.
      if (state->queue.empty()) return;
      job = std::move(state->queue.front());
      state->queue.pop_front();
    }
    try {
      job->fn_();
    } catch (...) {
      job->error_ = std::current_exception();
    }
    job->fn_ = nullptr;  // release what the job captured on this thread
    {
      std::lock_guard<std::mutex> lock(state->mu);
      job->done_.store(true, std::memory_order_release);
    }
    state->finished.notify_all();
  }
}

std::shared_ptr<CommJob> CommThread::submit(std::function<void()> fn) {
  TFCC_REQUIRE(InternalError, !on_this_thread(),
               "a collective was submitted from the communication thread itself");
  auto job = std::make_shared<CommJob>();
  job->fn_ = std::move(fn);
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->queue.push_back(job);
  }
  state_->work.notify_one();
  return job;
}

bool CommThread::wait(const CommJob& job, std::chrono::steady_clock::time_point deadline) {
  if (!job.done()) {
    state_->waiters.fetch_add(1, std::memory_order_relaxed);
    std::unique_lock<std::mutex> lock(state_->mu);
    bool done = deadline == std::chrono::steady_clock::time_point::max()
                    ? (state_->finished.wait(lock, [&] { return job.done(); }), true)
                    : state_->finished.wait_until(lock, deadline, [&] { return job.done(); });
    lock.unlock();
    state_->waiters.fetch_sub(1, std::memory_order_relaxed);
    if (!done) return false;
  }
  if (job.error_) std::rethrow_exception(job.error_);
  return true;
}

void CommThread::run(std::function<void()> fn) {
  // Counted as waiting from before the submission, so the job polls eagerly from its start.
  state_->waiters.fetch_add(1, std::memory_order_relaxed);
  struct Uncount {
    State& state;
    ~Uncount() { state.waiters.fetch_sub(1, std::memory_order_relaxed); }
  } uncount{*state_};
  auto job = submit(std::move(fn));
  wait(*job, std::chrono::steady_clock::time_point::max());
}

}  // namespace tfcc::distribute::internal
