#include "tfcc/io/summary/event_file_writer.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <ctime>

#include "tfcc/io/summary/event.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"
#include "tfcc/platform/logging.h"

namespace tfcc::summary::internal {
namespace {

// Above this many queued events a caller waits for the thread, bounding memory.
constexpr size_t kMaxBacklog = 4096;

std::string hostname() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "localhost";
  return name;
}

double now_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

std::string checked_logdir(const std::string& logdir) {
  TFCC_CHECK_ARG(!logdir.empty(), "create_file_writer: logdir is empty");
  return logdir;
}

int checked_non_negative(int value, const char* name) {
  TFCC_CHECK_ARG(value >= 0, "create_file_writer: ", name, " must be >= 0, got ", value);
  return value;
}

std::string make_path(const std::string& logdir, const std::string& suffix) {
  static std::atomic<int64_t> uid{0};
  make_dirs(logdir);
  std::string name = events_file_name(static_cast<int64_t>(std::time(nullptr)), hostname(),
                                      static_cast<int64_t>(::getpid()), uid++, suffix);
  std::string path = logdir;
  if (path.back() != '/') path += '/';
  path += name;
  return path;
}

}  // namespace

std::string events_file_name(int64_t seconds, const std::string& hostname, int64_t pid, int64_t uid,
                             const std::string& suffix) {
  char stamp[32];
  std::snprintf(stamp, sizeof stamp, "%010lld", static_cast<long long>(seconds));
  std::string name = "events.out.tfevents.";
  name.append(stamp).append(".").append(hostname).append(".");
  name.append(std::to_string(pid)).append(".").append(std::to_string(uid)).append(suffix);
  return name;
}

EventFileWriter::EventFileWriter(const std::string& logdir, int max_queue, int flush_millis,
                                 const std::string& filename_suffix)
    : logdir_(checked_logdir(logdir)),
      max_queue_(static_cast<size_t>(checked_non_negative(max_queue, "max_queue"))),
      flush_interval_(checked_non_negative(flush_millis, "flush_millis")),
      path_(make_path(logdir, filename_suffix)),
      file_(path_) {
  Event first;
  first.wall_time = now_seconds();
  first.file_version = "brain.Event:2";
  file_.write(first.serialize());
  file_.sync();
  thread_ = std::thread([this] { run(); });
}

EventFileWriter::~EventFileWriter() {
  try {
    close();
  } catch (const Error& e) {
    TFCC_LOG(ERROR) << "Summary writer for " << path_ << " failed: " << e.what();
  }
}

void EventFileWriter::rethrow_error_locked() {
  if (error_) std::rethrow_exception(error_);
}

void EventFileWriter::write(std::string serialized_event) {
  std::unique_lock lock(mu_);
  rethrow_error_locked();
  if (closing_) throw FailedPreconditionError("Summary writer for " + path_ + " is closed");
  done_cv_.wait(lock, [&] { return queue_.size() < kMaxBacklog || error_ || closing_; });
  rethrow_error_locked();
  if (closing_) throw FailedPreconditionError("Summary writer for " + path_ + " is closed");
  queue_.push_back(std::move(serialized_event));
  // The thread sleeps without a deadline while nothing is queued: wake it for the first event
  // (it then starts the flush_millis clock) and when the queue is over max_queue.
  if (queue_.size() == 1 || queue_.size() > max_queue_) work_cv_.notify_one();
}

void EventFileWriter::flush() {
  std::unique_lock lock(mu_);
  rethrow_error_locked();
  if (closed_) return;
  uint64_t ticket = ++flush_requested_;
  work_cv_.notify_one();
  done_cv_.wait(lock, [&] { return flush_done_ >= ticket || error_; });
  rethrow_error_locked();
}

void EventFileWriter::close() {
  {
    std::unique_lock lock(mu_);
    if (closed_) {
      rethrow_error_locked();
      return;
    }
    closing_ = true;
    closed_ = true;
    work_cv_.notify_one();
  }
  if (thread_.joinable()) thread_.join();
  std::unique_lock lock(mu_);
  if (!error_) {
    try {
      file_.close();
    } catch (...) {
      error_ = std::current_exception();
    }
  }
  rethrow_error_locked();
}

void EventFileWriter::run() {
  std::unique_lock lock(mu_);
  auto last_flush = std::chrono::steady_clock::now();
  bool dirty = false;  // bytes handed to the OS but not synced
  for (;;) {
    auto wanted = [&] {
      return closing_ || flush_requested_ > flush_done_ || queue_.size() > max_queue_;
    };
    if (queue_.empty() && !dirty) {
      // Idle: the first queued event must end this wait too, or an event written after the
      // thread went idle would sit in the queue until max_queue or an explicit flush.
      work_cv_.wait(lock, [&] { return wanted() || !queue_.empty(); });
    } else {
      work_cv_.wait_until(lock, last_flush + flush_interval_, wanted);
    }
    bool timed_out = std::chrono::steady_clock::now() >= last_flush + flush_interval_;
    bool sync = closing_ || flush_requested_ > flush_done_ || timed_out;
    if (queue_.empty() && !(sync && dirty) && !closing_ && flush_requested_ <= flush_done_) {
      continue;
    }
    std::deque<std::string> batch;
    batch.swap(queue_);
    uint64_t ticket = flush_requested_;
    bool stop = closing_;
    done_cv_.notify_all();  // room in the backlog
    lock.unlock();
    std::exception_ptr failure;
    if (!error_) {
      try {
        for (const auto& event : batch) file_.write(event);
        if (sync) {
          file_.sync();
        } else {
          file_.flush();
        }
      } catch (...) {
        failure = std::current_exception();
      }
    }
    lock.lock();
    if (failure && !error_) {
      error_ = failure;
      try {
        std::rethrow_exception(failure);
      } catch (const std::exception& e) {
        TFCC_LOG(ERROR) << "Summary writer: writing " << path_ << " failed: " << e.what();
      }
    }
    if (sync) {
      dirty = false;
      last_flush = std::chrono::steady_clock::now();
      flush_done_ = std::max(flush_done_, ticket);
    } else {
      dirty = true;
    }
    done_cv_.notify_all();
    if (stop && queue_.empty()) return;
  }
}

}  // namespace tfcc::summary::internal
