// The optimizer base: bookkeeping, clipping and weight decay (keras/optimizers/optimizer.py).
#include "tfcc/keras/optimizers/optimizer.h"

#include "tfcc/autodiff/gradient_tape.h"
#include "tfcc/keras/constraints/constraints.h"
#include "tfcc/keras/optimizers/concrete.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/operand.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"
#include "tfcc/platform/logging.h"

namespace tfcc::keras::optimizers {
namespace {

Tensor as_dtype(const Tensor& t, DType d) { return t.dtype() == d ? t : cast(t, d); }

// tf.clip_by_norm: t * clip / max(||t||, clip), with a zero tensor left as it is.
Tensor clip_by_norm(const Tensor& t, double clip_norm) {
  Tensor l2sum = reduce_sum(square(t));
  Tensor positive = greater(l2sum, 0);
  Tensor l2norm = where(positive, sqrt(where(positive, l2sum, 1)), l2sum);
  return divide(multiply(t, clip_norm), maximum(l2norm, clip_norm));
}

std::string names_of(const std::vector<std::string>& names) {
  std::string s = "[";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) s.append(", ");
    s.append("'").append(names[i]).append("'");
  }
  return s.append("]");
}

}  // namespace

Optimizer::Optimizer(OptimizerConfig config) : config_(std::move(config)) {
  int clips = int(config_.clipnorm.has_value()) + int(config_.clipvalue.has_value()) +
              int(config_.global_clipnorm.has_value());
  TFCC_CHECK_ARG(clips <= 1,
                 "At most one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set.");
  schedule_ = config_.learning_rate.schedule();
  iterations_ = Variable(Tensor::scalar<int64_t>(0), {.name = "iteration", .trainable = false});
  if (!schedule_) {
    learning_rate_ =
        Variable(Tensor::scalar<float>(static_cast<float>(config_.learning_rate.value())),
                 {.name = "learning_rate", .trainable = false});
  }
}

Tensor Optimizer::learning_rate() const {
  if (schedule_) return as_dtype((*schedule_)(iterations_.read_value()), float32);
  return learning_rate_.read_value();
}

void Optimizer::set_learning_rate(double learning_rate) {
  TFCC_REQUIRE(FailedPreconditionError, !schedule_,
               "This optimizer was created with a `LearningRateSchedule` object as its "
               "`learning_rate` constructor argument, hence its learning rate is not settable.");
  learning_rate_.assign(Tensor::scalar<float>(static_cast<float>(learning_rate)));
}

std::vector<Variable> Optimizer::variables() const {
  std::vector<Variable> out{iterations_};
  out.insert(out.end(), slot_order_.begin(), slot_order_.end());
  return out;
}

Variable Optimizer::get_slot(const Variable& var, const std::string& slot_name) const {
  auto it = slots_.find(var.id());
  if (it != slots_.end()) {
    auto s = it->second.find(slot_name);
    if (s != it->second.end()) return s->second;
  }
  throw NotFoundError(internal::str_cat("Optimizer '", name(), "' has no slot '", slot_name,
                                        "' for variable '", var.name(), "'"));
}

const Variable& Optimizer::slot(const Variable& var, const std::string& slot_name) const {
  return slots_.at(var.id()).at(slot_name);
}

Variable Optimizer::add_slot(const Variable& var, const std::string& slot_name,
                             double initial_value) {
  Variable s(detail::concrete_fill(var.dtype(), var.shape(), initial_value),
             {.name = internal::str_cat(slot_name, "/", var.name()), .trainable = false});
  slots_[var.id()][slot_name] = s;
  slot_order_.push_back(s);
  return s;
}

Variable Optimizer::add_variable(const Tensor& initial_value, const std::string& var_name) {
  Variable v(initial_value, {.name = var_name, .trainable = false});
  slot_order_.push_back(v);
  return v;
}

void Optimizer::exclude_from_weight_decay(const std::vector<Variable>& vars,
                                          const std::vector<std::string>& names) {
  for (const auto& v : vars) no_decay_ids_[v.id()] = true;
  no_decay_names_.insert(no_decay_names_.end(), names.begin(), names.end());
}

void Optimizer::build(std::span<const Variable> var_list) {
  for (const auto& var : var_list) {
    TFCC_CHECK_ARG(var.defined(), "Optimizer.build: a variable is undefined");
    if (slots_.find(var.id()) != slots_.end()) continue;
    slots_[var.id()];  // built, even if the optimizer keeps no slot for it
    build(var);
  }
}

std::vector<Tensor> Optimizer::step_coefficients(const Tensor& lr, const Tensor&) { return {lr}; }

void Optimizer::prepare_step(DType) {}

std::vector<Tensor> Optimizer::clip_gradients(std::vector<Tensor> grads) const {
  if (config_.clipnorm && *config_.clipnorm > 0) {
    for (auto& g : grads) g = clip_by_norm(g, *config_.clipnorm);
  } else if (config_.global_clipnorm && *config_.global_clipnorm > 0) {
    // tf.clip_by_global_norm: scale = clip * min(1 / norm, 1 / clip); NaN when norm is not
    // finite (the "+ (norm - norm)" term).
    std::vector<Tensor> sums;
    for (const auto& g : grads) sums.push_back(as_dtype(reduce_sum(square(g)), float32));
    Tensor norm = sqrt(add_n(sums));
    double clip = *config_.global_clipnorm;
    Tensor scale = multiply(minimum(reciprocal(norm), 1.0 / clip), clip);
    scale = add(scale, subtract(norm, norm));
    for (auto& g : grads) g = multiply(g, as_dtype(scale, g.dtype()));
  } else if (config_.clipvalue && *config_.clipvalue > 0) {
    double c = *config_.clipvalue;
    for (auto& g : grads) g = clip_by_value(g, -c, c);
  }
  return grads;
}

void Optimizer::apply_weight_decay(std::span<const Variable> vars, const Tensor& lr) {
  if (!config_.weight_decay) return;
  for (const auto& v : vars) {
    if (no_decay_ids_.count(v.id())) continue;
    bool excluded = false;
    for (const auto& n : no_decay_names_)
      excluded = excluded || v.name().find(n) != std::string::npos;
    if (excluded) continue;
    Tensor decay =
        multiply(multiply(v.read_value(), *config_.weight_decay), as_dtype(lr, v.dtype()));
    v.assign_sub(decay);
  }
}

Variable Optimizer::apply_gradients(std::span<const Tensor> grads, std::span<const Variable> vars) {
  TFCC_CHECK_ARG(grads.size() == vars.size(), "apply_gradients: got ", grads.size(),
                 " gradients for ", vars.size(), " variables");
  std::vector<Tensor> g;
  std::vector<Variable> v;
  std::vector<std::string> missing, all_names;
  for (size_t i = 0; i < vars.size(); ++i) {
    TFCC_CHECK_ARG(vars[i].defined(), "apply_gradients: variable ", i, " is undefined");
    all_names.push_back(vars[i].name());
    if (!grads[i].defined()) {
      missing.push_back(vars[i].name());
      continue;
    }
    TFCC_CHECK_ARG(is_floating(vars[i].dtype()), "Optimizer '", name(),
                   "' can only update floating-point variables; '", vars[i].name(), "' is ",
                   dtype_name(vars[i].dtype()));
    TFCC_CHECK_ARG(grads[i].dtype() == vars[i].dtype() &&
                       grads[i].partial_shape().is_compatible_with(vars[i].shape()),
                   "Gradient of dtype ", dtype_name(grads[i].dtype()), " and shape ",
                   grads[i].partial_shape().to_string(), " does not match variable '",
                   vars[i].name(), "' of dtype ", dtype_name(vars[i].dtype()), " and shape ",
                   vars[i].shape().to_string());
    g.push_back(grads[i]);
    v.push_back(vars[i]);
  }
  TFCC_CHECK_ARG(!g.empty(), "No gradients provided for any variable: ", names_of(all_names));
  if (!missing.empty()) {
    TFCC_LOG(WARNING) << "Gradients do not exist for variables " << names_of(missing)
                      << " when minimizing the loss. If you're using `model.compile()`, did you "
                         "forget to provide a `loss` argument?";
  }
  build(v);
  g = clip_gradients(std::move(g));
  Tensor lr = learning_rate();
  apply_weight_decay(v, lr);
  prepare_step(v.front().dtype());
  Tensor step = add(iterations_.read_value(), int64_t{1});
  std::map<DType, std::vector<Tensor>> coefs;
  for (size_t i = 0; i < v.size(); ++i) {
    DType d = v[i].dtype();
    auto it = coefs.find(d);
    if (it == coefs.end()) {
      it = coefs.emplace(d, step_coefficients(as_dtype(lr, d), cast(step, d))).first;
    }
    update_step(g[i], v[i], it->second);
  }
  // Keras: each variable with a constraint is projected after the update.
  for (const Variable& var : v) constraints::apply(var);
  iterations_.assign_add(Tensor::scalar<int64_t>(1));
  return iterations_;
}

Variable Optimizer::apply_gradients(
    const std::vector<std::pair<Tensor, Variable>>& grads_and_vars) {
  std::vector<Tensor> g;
  std::vector<Variable> v;
  for (const auto& [grad, var] : grads_and_vars) {
    g.push_back(grad);
    v.push_back(var);
  }
  return apply_gradients(g, v);
}

std::vector<Tensor> Optimizer::compute_gradients(const std::function<Tensor()>& loss,
                                                 const std::vector<Variable>& var_list) {
  TFCC_CHECK_ARG(loss != nullptr, "minimize needs a loss function");
  GradientTape tape;
  for (const auto& var : var_list) tape.watch(var);
  Tensor value = loss();
  return tape.gradient(value, var_list);
}

Variable Optimizer::minimize(const std::function<Tensor()>& loss,
                             const std::vector<Variable>& var_list) {
  std::vector<Tensor> grads = compute_gradients(loss, var_list);
  return apply_gradients(grads, var_list);
}

Variable Optimizer::minimize(const Tensor& loss, const std::vector<Variable>& var_list,
                             GradientTape& tape) {
  std::vector<Tensor> grads = tape.gradient(loss, var_list);
  return apply_gradients(grads, var_list);
}

}  // namespace tfcc::keras::optimizers
