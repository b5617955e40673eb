#include "tfcc/core/variable.h"

#include <atomic>
#include <sstream>

namespace tfcc {

Variable::Variable(const Tensor& initial_value, VariableOptions options) {
  TFCC_CHECK_ARG(initial_value.defined(), "Variable '", options.name,
                 "' needs a defined initial value");
  TFCC_CHECK_ARG(!initial_value.is_symbolic(), "Variable '", options.name,
                 "' cannot be created from a symbolic tensor inside a trace; create variables "
                 "outside the traced function");
  static std::atomic<uint64_t> counter{1};
  state_ = std::make_shared<VariableState>();
  // A handle of the variable's own: the caller's tensor must never see the variable change.
  state_->value =
      Tensor::with_buffer(initial_value.dtype(), initial_value.shape(), initial_value.buffer());
  state_->name = std::move(options.name);
  state_->trainable = options.trainable;
  state_->dtype = initial_value.dtype();
  state_->shape = initial_value.shape();
  state_->id = counter.fetch_add(1);
}

const VariableState& Variable::state() const {
  TFCC_REQUIRE(FailedPreconditionError, state_ != nullptr,
               "Use of an undefined (default-constructed) Variable");
  return *state_;
}

std::string Variable::to_string() const {
  std::string values;
  {
    std::lock_guard<std::mutex> lock(state().mu);
    values = state().value.values_string();
  }
  std::ostringstream os;
  os << "<tf.Variable '" << name() << ":0' shape=" << shape().to_string() << " dtype=" << dtype()
     << ", numpy=" << values << ">";
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const Variable& v) { return os << v.to_string(); }

}  // namespace tfcc
