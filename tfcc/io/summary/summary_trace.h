// Summaries inside traced functions (the part of tf.summary that makes `tf.summary.scalar` inside
// a tf.function write at every call). Internal: summary.h's functions call it.
//
//   auto writer = tfcc::summary::create_file_writer(dir);
//   auto scope = writer.as_default();
//   auto step_fn = tfcc::function([&](tfcc::Tensor x) {
//     auto loss = tfcc::reduce_mean(x * x);
//     tfcc::summary::scalar("loss", loss, optimizer.iterations());  // a WriteSummary node
//     return loss;
//   });
//   step_fn(x);   // writes "loss" with this call's value and the variable's value as step
//
// As in TensorFlow, what is decided at trace time stays with the traced function: the writer (the
// default one when the function was traced), the step (the argument, else the default step: a
// Variable step is read at every call, a symbolic tensor step is an input of the node) and the
// record_if condition (a C++ callable, evaluated at every call). A function traced with no
// default writer holds no summary node at all: it costs nothing and never writes.
#pragma once

#include <functional>
#include <source_location>
#include <span>
#include <vector>

#include "tfcc/core/tensor.h"
#include "tfcc/io/summary/summary_writer.h"

namespace tfcc::summary::internal {

/// What a summary node does at every call: writes from the call's concrete `values` at `step`
/// through the thread's default writer (set to the captured one while it runs).
using TracedWrite = std::function<void(std::span<const Tensor> values, int64_t step)>;

/// True while a function is being traced on this thread.
bool tracing();

/// Adds a host node named `op` ("WriteSummary") to the current trace: `inputs` (symbolic or
/// concrete) are its inputs, and so is `step` when it is a symbolic tensor. Captures the default
/// writer and record_if condition now. Call only while tracing() and with a default writer;
/// InvalidArgumentError if no step is given and no default step is set.
void add_summary_node(const char* op, std::span<const Tensor> inputs, const Step& step,
                      TracedWrite write,
                      std::source_location loc = std::source_location::current());

/// The thread's default step (experimental::set_step), unresolved: a Variable stays a Variable.
Step default_step();
/// The thread's record_if condition (null: always record).
std::function<bool()> record_condition();

/// For a scope: makes `writer` the thread's default writer with no record_if condition, without
/// flushing at the end (what a summary node runs under).
class [[nodiscard]] WriterOverride {
 public:
  explicit WriterOverride(const SummaryWriter& writer);
  ~WriterOverride();
  WriterOverride(const WriterOverride&) = delete;
  WriterOverride& operator=(const WriterOverride&) = delete;

 private:
  SummaryWriter previous_writer_;
  std::function<bool()> previous_condition_;
};

}  // namespace tfcc::summary::internal
