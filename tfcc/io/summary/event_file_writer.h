// Internal: the file behind a summary writer. Serialized events are queued by the caller and
// written by one background thread, in TFRecord framing, to
//   <logdir>/events.out.tfevents.<seconds>.<hostname>.<pid>.<uid><suffix>
// whose first record (written and synced before the constructor returns) is the Event
// {wall_time, file_version: "brain.Event:2"}.
//
// Queued events reach the file when more than `max_queue` are waiting, when `flush_millis` has
// passed since the last flush, on flush() and on close(). flush() returns only once every event
// queued before it is in the file and synced to disk, so a flushed event survives a crash.
//
//   EventFileWriter w("/tmp/logs/train", 10, 120000, ".v2");
//   w.write(event.serialize());
//   w.flush();
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <thread>

#include "tfcc/io/record/record_writer.h"

namespace tfcc::summary::internal {

/// The events file of one summary writer and its writing thread.
class EventFileWriter {
 public:
  /// Creates `logdir` (and parents) and the events file. Throws InvalidArgumentError for a
  /// negative max_queue or flush_millis, and the file system's errors as tfcc errors.
  EventFileWriter(const std::string& logdir, int max_queue, int flush_millis,
                  const std::string& filename_suffix);
  /// close(); errors are logged.
  ~EventFileWriter();
  EventFileWriter(const EventFileWriter&) = delete;
  EventFileWriter& operator=(const EventFileWriter&) = delete;

  /// Queues one serialized Event. Blocks only when the writing thread is far behind. Throws the
  /// error that stopped the writing thread, if any, and FailedPreconditionError after close().
  void write(std::string serialized_event);
  /// Returns once every event queued so far is in the file and synced; throws a write error.
  void flush();
  /// Flushes, stops the thread and closes the file. Idempotent; throws a write error.
  void close();

  /// The events file.
  const std::string& path() const { return path_; }
  /// The log directory.
  const std::string& logdir() const { return logdir_; }

 private:
  void run();
  void rethrow_error_locked();

  // Declared (so initialised) before the file, so bad options fail before anything is created.
  std::string logdir_;
  size_t max_queue_;
  std::chrono::milliseconds flush_interval_;
  std::string path_;
  io::TFRecordWriter file_;

  std::mutex mu_;
  std::condition_variable work_cv_;  // the thread waits on it
  std::condition_variable done_cv_;  // callers of flush() and write() wait on it
  std::deque<std::string> queue_;
  uint64_t flush_requested_ = 0;  // sequence number of the latest flush() call
  uint64_t flush_done_ = 0;       // latest sequence number fully synced
  bool closing_ = false;
  bool closed_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

/// The file name TF2 gives an events file (without the directory).
std::string events_file_name(int64_t seconds, const std::string& hostname, int64_t pid, int64_t uid,
                             const std::string& suffix);

}  // namespace tfcc::summary::internal
