// GradientTape: records the ops that touch watched tensors and computes gradients by reverse-mode
// automatic differentiation, like tf.GradientTape.
//
//   auto x = tfcc::constant(3.0f);
//   tfcc::GradientTape tape;
//   tape.watch(x);
//   auto y = x * x;
//   auto dy_dx = tape.gradient(y, x);          // 6.
//
// Higher order: nest tapes; the inner gradient's ops are recorded by the outer tape.
//
//   tfcc::GradientTape outer;
//   outer.watch(x);
//   tfcc::GradientTape inner;
//   inner.watch(x);
//   auto y = x * x * x;
//   auto g = inner.gradient(y, x);             // 3x^2 = 27
//   auto h = outer.gradient(g, x);             // 6x = 18
//
// A tape records from construction until it is destroyed (or stop_recording() is in effect); it
// observes op calls through the dispatch point, so ops need no special cases. Gradient rules are
// ops, so gradients can be differentiated again. A non-persistent tape computes one set of
// gradients; a persistent one any number.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <functional>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tfcc/core/variable.h"
#include "tfcc/ops/dispatch.h"

namespace tfcc {

/// What a gradient is for sources the target does not depend on.
enum class UnconnectedGradients { kNone, kZero };

/// Options of a GradientTape.
struct GradientTapeOptions {
  bool persistent = false;
  /// Watch trainable variables read while recording.
  bool watch_accessed_variables = true;
};

/// Options of one gradient() call.
struct GradientOptions {
  /// Gradients of the target (default: ones, so non-scalar targets are summed).
  std::vector<Tensor> output_gradients;
  UnconnectedGradients unconnected_gradients = UnconnectedGradients::kNone;
  /// Called once per source, in the order the gradients become final during the backward pass
  /// (a source's gradient is final once every recorded op that read it has been differentiated),
  /// with the source's index and its gradient (undefined when unconnected). gradient() returns the
  /// same tensors. Lets a caller act on early gradients while later ones are still being computed
  /// (MultiWorkerMirroredStrategy starts their all-reduce: tfcc/distribute/strategy.h).
  std::function<void(size_t index, const Tensor& gradient)> on_gradient_ready;
};

/// Records operations for automatic differentiation.
class GradientTape : public OpObserver {
 public:
  explicit GradientTape(GradientTapeOptions options = {});
  ~GradientTape() override;
  GradientTape(const GradientTape&) = delete;
  GradientTape& operator=(const GradientTape&) = delete;

  /// Makes the tape trace operations on `t` (float tensors only; others are ignored, as TF).
  void watch(const Tensor& t);
  void watch(const std::vector<Tensor>& ts);
  /// Makes the tape trace reads of `v` (trainable variables are watched automatically unless
  /// watch_accessed_variables is false).
  void watch(const Variable& v);
  /// The variables this tape has watched, in first-seen order.
  std::vector<Variable> watched_variables() const;

  /// d(target)/d(source) for each source; undefined Tensors (None) where unconnected, unless
  /// options say kZero.
  std::vector<Tensor> gradient(const Tensor& target, const std::vector<Tensor>& sources,
                               const GradientOptions& options = {});
  /// The gradient with respect to one source.
  Tensor gradient(const Tensor& target, const Tensor& source, const GradientOptions& options = {});
  /// Sum of targets' gradients (TF accepts a list of targets).
  std::vector<Tensor> gradient(const std::vector<Tensor>& targets,
                               const std::vector<Tensor>& sources,
                               const GradientOptions& options = {});

  /// d(target)/d(variable) for each variable: the sum over every read of it while recording.
  std::vector<Tensor> gradient(const Tensor& target, const std::vector<Variable>& sources,
                               const GradientOptions& options = {});

  /// The full Jacobian: shape target.shape + source.shape.
  Tensor jacobian(const Tensor& target, const Tensor& source,
                  UnconnectedGradients unconnected = UnconnectedGradients::kNone);
  /// Per-example Jacobian for target [b, ...] and source [b, ...]: [b, target..., source...],
  /// assuming example i of the target depends only on example i of the source.
  Tensor batch_jacobian(const Tensor& target, const Tensor& source,
                        UnconnectedGradients unconnected = UnconnectedGradients::kNone);

  /// Pauses recording for the lifetime of the returned object.
  class Pause {
   public:
    explicit Pause(GradientTape& t) : tape_(t), was_(t.recording_) { t.recording_ = false; }
    ~Pause() { tape_.recording_ = was_; }

   private:
    GradientTape& tape_;
    bool was_;
  };
  Pause stop_recording() { return Pause(*this); }

  /// Drops everything recorded (tf.GradientTape.reset).
  void reset();

  /// True if the tensor is watched or computed from a watched tensor on this tape.
  bool is_watched(const Tensor& t) const { return watched_.count(t.id()) > 0; }

  // OpObserver.
  void record(const OpCall& call, std::span<const Tensor> outputs) override;
  /// Records a call with its own gradient function (custom_gradient).
  void record_custom(std::span<const Tensor> inputs, std::span<const Tensor> outputs,
                     GradFn grad) override;

 private:
  struct Entry {
    const OpDef* op = nullptr;  // null for custom gradients
    std::vector<Tensor> inputs, outputs;
    Attrs attrs;
    GradFn custom;
  };
  // A source: the tensor ids whose gradients sum to its gradient, and a tensor to take zeros from.
  struct Source {
    std::vector<uint64_t> ids;
    Tensor like;
  };
  std::vector<Tensor> backprop(const std::vector<Tensor>& targets,
                               const std::vector<Tensor>& sources, const GradientOptions& options);
  std::vector<Tensor> backprop_sources(const std::vector<Tensor>& targets,
                                       const std::vector<Source>& sources,
                                       const GradientOptions& options);
  void note_variable_read(const OpCall& call, std::span<const Tensor> outputs);
  void check_usable();

  GradientTapeOptions options_;
  std::vector<Entry> entries_;
  std::unordered_set<uint64_t> watched_;
  std::vector<Variable> watched_vars_;                             // explicit and accessed
  std::unordered_map<uint64_t, std::vector<uint64_t>> var_reads_;  // variable id -> read ids
  bool recording_ = true;
  bool registered_ = false;
  bool used_ = false;
};

/// Sums gradient contributions (add_n when several); undefined when none.
Tensor aggregate_gradients(const std::vector<Tensor>& parts);

}  // namespace tfcc
#pragma GCC visibility pop
