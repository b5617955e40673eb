// TensorBoard summary writers (tf.summary.create_file_writer) and the thread's default writer.
//
//   auto writer = tfcc::summary::create_file_writer("/tmp/summaries");
//   {
//     auto scope = writer.as_default();              // Python: with writer.as_default():
//     tfcc::summary::scalar("loss", 0.1, 42);        //   tf.summary.scalar('loss', 0.1, step=42)
//   }                                                // leaving the scope flushes, like TF
//
//   tfcc::summary::experimental::set_step(optimizer.iterations());  // a default step
//   writer.set_as_default();                         // default for the rest of this thread
//
// Writers are cheap handles (copies share one file). The default writer, default step and
// record_if condition belong to the calling thread, as in TensorFlow. Summary calls with no
// default writer return false at once and cost nothing.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <concepts>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "tfcc/core/tensor.h"
#include "tfcc/core/variable.h"

namespace tfcc::summary {

namespace internal {
class EventFileWriter;
}
struct Event;

/// A summary step: an integer, an integer tensor or a variable (read when the summary is
/// written, so `optimizer.iterations()` tracks training). Default-constructed: no step.
class Step {
 public:
  Step() = default;
  template <std::integral I>
  Step(I value) : value_(static_cast<int64_t>(value)) {}   // NOLINT: implicit like TF's step=42
  Step(const Tensor& tensor) : tensor_(tensor) {}          // NOLINT
  Step(const Variable& variable) : variable_(variable) {}  // NOLINT

  /// True unless default-constructed.
  bool has_value() const { return value_.has_value() || tensor_.defined() || variable_.defined(); }
  /// The step now. InvalidArgumentError for a non-integer or non-scalar tensor.
  int64_t value() const;
  /// The step tensor when the step is one (undefined otherwise).
  const Tensor& tensor() const { return tensor_; }
  /// The step variable when the step is one (undefined otherwise).
  const Variable& variable() const { return variable_; }

 private:
  std::optional<int64_t> value_;
  Tensor tensor_;
  Variable variable_;
};

/// Options of create_file_writer (same names and defaults as TensorFlow).
struct FileWriterOptions {
  /// Largest number of summaries kept queued before they are written to the file.
  int max_queue = 10;
  /// Longest interval between flushes to disk, in milliseconds.
  int flush_millis = 120000;
  /// Ends the events file name; TensorFlow's default ".v2" when unset. The process id and a
  /// process-local id are put before it, as TF2 does.
  std::optional<std::string> filename_suffix;
};

class WriterScope;

/// A handle to a summary writer (tf.summary.SummaryWriter). Null handles are no-op writers.
class SummaryWriter {
 public:
  /// A no-op writer (what create_noop_writer() returns).
  SummaryWriter() = default;

  /// Makes this the thread's default writer until the returned scope ends (then restores the
  /// previous writer and step, and flushes this one). `step`, if given, is the default step
  /// inside the scope.
  [[nodiscard]] WriterScope as_default(Step step = {}) const;
  /// Makes this the thread's default writer (and `step` the default step, if given) for good.
  void set_as_default(Step step = {}) const;
  /// Writes every queued summary to disk; returns when they are synced.
  void flush() const;
  /// Flushes and closes the file; later summaries to this writer raise FailedPreconditionError.
  void close() const;

  /// False for a no-op writer.
  bool writes() const { return file_ != nullptr; }
  /// The events file ("" for a no-op writer).
  std::string path() const;
  /// Queues one event (summaries call this). No-op writers ignore it.
  void write_event(const Event& event) const;

 private:
  friend SummaryWriter create_file_writer(const std::string&, const FileWriterOptions&);
  std::shared_ptr<internal::EventFileWriter> file_;
};

/// Creates a writer for `logdir` (created if missing) with a new events file in it
/// (tf.summary.create_file_writer).
SummaryWriter create_file_writer(const std::string& logdir, const FileWriterOptions& options = {});

/// A writer that discards everything (tf.summary.create_noop_writer).
SummaryWriter create_noop_writer();

/// Scope of SummaryWriter::as_default(). Move-only; restores the previous default when it ends.
class [[nodiscard]] WriterScope {
 public:
  WriterScope(SummaryWriter writer, Step step);
  ~WriterScope();
  WriterScope(WriterScope&& other) noexcept;
  WriterScope(const WriterScope&) = delete;
  WriterScope& operator=(const WriterScope&) = delete;
  WriterScope& operator=(WriterScope&&) = delete;

 private:
  bool active_ = false;
  SummaryWriter writer_;
  SummaryWriter previous_writer_;
  Step previous_step_;
};

/// The calling thread's default writer (a no-op writer if none).
SummaryWriter default_writer();

/// Flushes the thread's default writer, if any (tf.summary.flush).
void flush();

/// Scope of record_if(): restores the previous condition when it ends.
class [[nodiscard]] RecordIfScope {
 public:
  explicit RecordIfScope(std::function<bool()> condition);
  ~RecordIfScope();
  RecordIfScope(const RecordIfScope&) = delete;
  RecordIfScope& operator=(const RecordIfScope&) = delete;

 private:
  std::function<bool()> previous_;
};

/// Records summaries only while `condition` holds, until the scope ends (tf.summary.record_if).
[[nodiscard]] RecordIfScope record_if(bool condition);
/// Same, with a condition evaluated at each summary call.
[[nodiscard]] RecordIfScope record_if(std::function<bool()> condition);

/// True if a summary call would write now: a default writer exists and record_if allows it.
/// While tracing, true when a default writer exists (record_if is evaluated at each call of the
/// traced function).
bool should_record_summaries();

namespace experimental {
/// Sets the thread's default step, used by summaries called without one.
void set_step(Step step);
/// The thread's default step, if set.
std::optional<int64_t> get_step();
}  // namespace experimental

/// Same as experimental::set_step.
inline void set_step(Step step) { experimental::set_step(std::move(step)); }

}  // namespace tfcc::summary
#pragma GCC visibility pop
