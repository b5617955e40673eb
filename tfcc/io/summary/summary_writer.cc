#include "tfcc/io/summary/summary_writer.h"

#include "tfcc/io/summary/event.h"
#include "tfcc/io/summary/event_file_writer.h"
#include "tfcc/io/summary/summary_trace.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/logging.h"

namespace tfcc::summary {
namespace {

// TensorFlow keeps the default writer, step and record_if condition per thread.
struct ThreadState {
  SummaryWriter writer;
  Step step;
  std::function<bool()> record_if;
};

ThreadState& state() {
  thread_local ThreadState s;
  return s;
}

int64_t integer_scalar(const Tensor& t) {
  if (t.is_symbolic()) {
    throw UnimplementedError(
        "summary step: a symbolic tensor is a step only for summaries written inside the "
        "tfcc::function that made it");
  }
  DType d = t.dtype();
  TFCC_CHECK_ARG(d == int64 || d == int32 || d == uint8, "summary step must be an integer, got a ",
                 dtype_name(d), " tensor");
  TFCC_CHECK_ARG(t.rank() == 0, "summary step must be a scalar, got shape ", t.shape().to_string());
  return t.item<int64_t>();
}

}  // namespace

int64_t Step::value() const {
  if (value_) return *value_;
  if (tensor_.defined()) return integer_scalar(tensor_);
  if (variable_.defined()) return integer_scalar(variable_.read_value());
  throw InvalidArgumentError("summary step: no step value");
}

void SummaryWriter::set_as_default(Step step) const {
  state().writer = *this;
  if (step.has_value()) state().step = std::move(step);
}

WriterScope SummaryWriter::as_default(Step step) const { return WriterScope(*this, step); }

void SummaryWriter::flush() const {
  if (file_) file_->flush();
}

void SummaryWriter::close() const {
  if (file_) file_->close();
}

std::string SummaryWriter::path() const { return file_ ? file_->path() : std::string(); }

void SummaryWriter::write_event(const Event& event) const {
  if (file_) file_->write(event.serialize());
}

SummaryWriter create_file_writer(const std::string& logdir, const FileWriterOptions& options) {
  std::string suffix = options.filename_suffix.value_or(".v2");
  SummaryWriter writer;
  writer.file_ = std::make_shared<internal::EventFileWriter>(logdir, options.max_queue,
                                                             options.flush_millis, suffix);
  return writer;
}

SummaryWriter create_noop_writer() { return SummaryWriter(); }

WriterScope::WriterScope(SummaryWriter writer, Step step)
    : active_(true),
      writer_(std::move(writer)),
      previous_writer_(state().writer),
      previous_step_(state().step) {
  state().writer = writer_;
  if (step.has_value()) state().step = std::move(step);
}

WriterScope::WriterScope(WriterScope&& other) noexcept
    : active_(other.active_),
      writer_(std::move(other.writer_)),
      previous_writer_(std::move(other.previous_writer_)),
      previous_step_(std::move(other.previous_step_)) {
  other.active_ = false;
}

WriterScope::~WriterScope() {
  if (!active_) return;
  state().writer = previous_writer_;
  state().step = previous_step_;
  try {
    writer_.flush();
  } catch (const Error& e) {
    TFCC_LOG(ERROR) << "Summary writer for " << writer_.path() << " failed: " << e.what();
  }
}

SummaryWriter default_writer() { return state().writer; }

void flush() { state().writer.flush(); }

RecordIfScope::RecordIfScope(std::function<bool()> condition) : previous_(state().record_if) {
  state().record_if = std::move(condition);
}

RecordIfScope::~RecordIfScope() { state().record_if = std::move(previous_); }

RecordIfScope record_if(bool condition) {
  return RecordIfScope([condition] { return condition; });
}

RecordIfScope record_if(std::function<bool()> condition) {
  return RecordIfScope(std::move(condition));
}

bool should_record_summaries() {
  const ThreadState& s = state();
  if (!s.writer.writes()) return false;
  // Inside a trace the condition is captured and evaluated each time the summary node runs.
  if (internal::tracing()) return true;
  return !s.record_if || s.record_if();
}

namespace experimental {

void set_step(Step step) { state().step = std::move(step); }

std::optional<int64_t> get_step() {
  const Step& step = state().step;
  if (!step.has_value()) return std::nullopt;
  return step.value();
}

}  // namespace experimental

namespace internal {

Step default_step() { return state().step; }

std::function<bool()> record_condition() { return state().record_if; }

WriterOverride::WriterOverride(const SummaryWriter& writer)
    : previous_writer_(state().writer), previous_condition_(state().record_if) {
  state().writer = writer;
  state().record_if = nullptr;
}

WriterOverride::~WriterOverride() {
  state().writer = std::move(previous_writer_);
  state().record_if = std::move(previous_condition_);
}

}  // namespace internal
}  // namespace tfcc::summary
