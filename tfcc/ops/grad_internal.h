// Which inputs' gradients the running backprop will use (TensorFlow's skip_input_indices): set by
// GradientTape around each gradient function call, read by gradient rules whose parts are costly
// (MatMul's two products), which may then leave an unused input's gradient undefined. Internal:
// not part of the public API, and outside a tape's backprop every input counts as needed.
#pragma once

#include <cstddef>
#include <vector>

namespace tfcc::internal {

inline thread_local const std::vector<bool>* grad_inputs_needed = nullptr;

/// Whether the gradient of input `i` of the op whose gradient rule is running is used.
inline bool grad_input_needed(size_t i) {
  const std::vector<bool>* n = grad_inputs_needed;
  return n == nullptr || i >= n->size() || (*n)[i];
}

/// Publishes `needed` for the gradient rule called in this scope (restores the outer value).
class GradInputsNeededScope {
 public:
  explicit GradInputsNeededScope(const std::vector<bool>* needed) : saved_(grad_inputs_needed) {
    grad_inputs_needed = needed;
  }
  ~GradInputsNeededScope() { grad_inputs_needed = saved_; }
  GradInputsNeededScope(const GradInputsNeededScope&) = delete;
  GradInputsNeededScope& operator=(const GradInputsNeededScope&) = delete;

 private:
  const std::vector<bool>* saved_;
};

}  // namespace tfcc::internal
