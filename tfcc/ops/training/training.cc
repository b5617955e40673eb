// Definitions of the fused optimizer updates. Variables reach the ops as kResource attributes
// (var, and the slots accum / m / v), like every variable op.
#include "tfcc/ops/training/training.h"

#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/registry.h"
#include "tfcc/ops/training/training_internal.h"
#include "tfcc/ops/variable/variable_ops.h"

namespace tfcc {
namespace {

const std::shared_ptr<VariableState>& resource(const Attrs& attrs, std::string_view name,
                                               const char* op) {
  const auto& v = attrs.get<std::shared_ptr<VariableState>>(name);
  TFCC_REQUIRE(FailedPreconditionError, v != nullptr, op, ": the '", name,
               "' variable is undefined");
  return v;
}

// Inputs: scalars first (`num_scalars` of them, rank 0), the gradient last; every resource and
// the gradient share the variable's dtype and shape.
ShapeFn update_shape(std::vector<const char*> resources, int num_scalars) {
  return [resources, num_scalars](const InferenceContext& c) {
    const auto& var = resource(c.attrs(), resources[0], c.op().name().c_str());
    for (size_t i = 0; i < resources.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (resource(c.attrs(), resources[i], "") == resource(c.attrs(), resources[j], "")) {
          c.fail(internal::str_cat("'", resources[i], "' and '", resources[j],
                                   "' must be different variables"));
        }
      }
    }
    for (const char* r : resources) {
      const auto& s = resource(c.attrs(), r, c.op().name().c_str());
      if (s->dtype != var->dtype || s->shape != var->shape) {
        c.fail(internal::str_cat("variable '", s->name, "' (", r, ") is ", dtype_name(s->dtype),
                                 " ", s->shape.to_string(), " but '", var->name, "' is ",
                                 dtype_name(var->dtype), " ", var->shape.to_string()));
      }
    }
    if (!is_floating(var->dtype) || var->dtype == bfloat16) {
      c.fail(internal::str_cat("variable '", var->name, "' must be float32 or float64, got ",
                               dtype_name(var->dtype)));
    }
    for (int i = 0; i <= num_scalars; ++i) {
      if (c.dtype(i) != var->dtype) {
        c.fail(internal::str_cat("input ", i, " is ", dtype_name(c.dtype(i)), " but variable '",
                                 var->name, "' is ", dtype_name(var->dtype)));
      }
    }
    for (int i = 0; i < num_scalars; ++i) {
      if (c.shape(i).rank() > 0) {
        c.fail(internal::str_cat("input ", i, " must be a scalar, got shape ",
                                 c.shape(i).to_string()));
      }
    }
    if (!c.shape(num_scalars).is_compatible_with(var->shape)) {
      c.fail(internal::str_cat("gradient shape ", c.shape(num_scalars).to_string(),
                               " does not match variable '", var->name, "' of shape ",
                               var->shape.to_string()));
    }
    return std::vector<OutputSpec>{{var->dtype, var->shape}};
  };
}

void add_update_op(OpRegistry& r, const char* name, std::vector<const char*> resources,
                   std::vector<const char*> scalars, bool has_nesterov) {
  OpDef& def = r.add(name);
  for (const char* s : scalars) def.input(s, "T");
  def.input("grad", "T").output("new_value", "T").type_attr("T", {float32, float64});
  for (const char* res : resources) def.attr(res, AttrType::kResource);
  if (has_nesterov) def.attr("use_nesterov", AttrType::kBool, false);
  def.shape_fn(update_shape(resources, static_cast<int>(scalars.size())))
      .cpu_kernels(training_cpu_kernel)
      .not_differentiable()
      .stateful();
}

Tensor call(const char* name, Attrs attrs, std::vector<Tensor> inputs, std::source_location loc) {
  const OpDef& op = op_def(name);
  return dispatch1(op, inputs, std::move(attrs), loc);
}

Tensor scalar_of(const Operand& x, const Variable& var) {
  TFCC_REQUIRE(FailedPreconditionError, var.defined(), "optimizer update on an undefined Variable");
  TFCC_CHECK_ARG(var.dtype() == float32 || var.dtype() == float64, "variable '", var.name(),
                 "' must be float32 or float64, got ", dtype_name(var.dtype()));
  return x.as_tensor(var.dtype());
}

}  // namespace

void register_training_ops(OpRegistry& r) {
  add_update_op(r, "ResourceApplyGradientDescent", {"var"}, {"alpha"}, false);
  add_update_op(r, "ResourceApplyKerasMomentum", {"var", "accum"}, {"lr", "momentum"}, true);
  add_update_op(r, "ResourceApplyAdam", {"var", "m", "v"},
                {"beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon"}, true);
}

namespace training {

Tensor apply_gradient_descent(const Variable& var, const Operand& alpha, const Tensor& delta,
                              Loc loc) {
  return call("ResourceApplyGradientDescent", {{"var", var.state_ptr()}},
              {scalar_of(alpha, var), delta}, loc);
}

Tensor apply_keras_momentum(const Variable& var, const Variable& accum, const Operand& lr,
                            const Tensor& grad, const Operand& momentum, bool use_nesterov,
                            Loc loc) {
  return call(
      "ResourceApplyKerasMomentum",
      {{"var", var.state_ptr()}, {"accum", accum.state_ptr()}, {"use_nesterov", use_nesterov}},
      {scalar_of(lr, var), scalar_of(momentum, var), grad}, loc);
}

Tensor apply_adam(const Variable& var, const Variable& m, const Variable& v,
                  const Operand& beta1_power, const Operand& beta2_power, const Operand& lr,
                  const Operand& beta1, const Operand& beta2, const Operand& epsilon,
                  const Tensor& grad, bool use_nesterov, Loc loc) {
  return call("ResourceApplyAdam",
              {{"var", var.state_ptr()},
               {"m", m.state_ptr()},
               {"v", v.state_ptr()},
               {"use_nesterov", use_nesterov}},
              {scalar_of(beta1_power, var), scalar_of(beta2_power, var), scalar_of(lr, var),
               scalar_of(beta1, var), scalar_of(beta2, var), scalar_of(epsilon, var), grad},
              loc);
}

}  // namespace training
}  // namespace tfcc
