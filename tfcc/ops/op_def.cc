#include "tfcc/ops/op_def.h"

#include "tfcc/ops/in_place.h"

namespace tfcc {

void op_error(const OpDef& op, const std::string& message) {
  throw InvalidArgumentError(message + " [Op:" + op.name() + "]");
}

Tensor& KernelContext::allocate_output(int i) {
  const PartialShape& s = specs_[i].shape;
  if (!s.is_fully_defined()) {
    throw InternalError(internal::str_cat(op().name(), ": output ", i, " has shape ", s.to_string(),
                                          " which is not known before running"));
  }
  return allocate_output(i, s.to_shape());
}

Tensor& KernelContext::allocate_output(int i, const Shape& shape) {
  // A runtime may have offered the buffer of an input that dies with this call (in_place.h).
  if (std::shared_ptr<Buffer> reused = DonatedInputs::take(call_, i, specs_[i].dtype, shape)) {
    outputs_[i] = Tensor::with_buffer(specs_[i].dtype, shape, std::move(reused));
    return outputs_[i];
  }
  outputs_[i] = Tensor::empty(specs_[i].dtype, shape);
  return outputs_[i];
}

void KernelContext::set_output(int i, Tensor t) { outputs_[i] = std::move(t); }

OpDef& OpDef::input(std::string name, std::string type_attr) {
  inputs_.push_back({std::move(name), std::move(type_attr), std::nullopt, false});
  return *this;
}
OpDef& OpDef::input(std::string name, DType fixed) {
  inputs_.push_back({std::move(name), "", fixed, false});
  return *this;
}
OpDef& OpDef::variadic_input(std::string name, std::string type_attr) {
  inputs_.push_back({std::move(name), std::move(type_attr), std::nullopt, true});
  if (!find_attr("N")) attr("N", AttrType::kInt);
  return *this;
}
OpDef& OpDef::output(std::string name, std::string type_attr) {
  outputs_.push_back({std::move(name), std::move(type_attr), std::nullopt, false});
  return *this;
}
OpDef& OpDef::output(std::string name, DType fixed) {
  outputs_.push_back({std::move(name), "", fixed, false});
  return *this;
}
OpDef& OpDef::type_attr(std::string name, std::vector<DType> allowed) {
  if (kernel_type_attr_.empty()) kernel_type_attr_ = name;
  attrs_.push_back({std::move(name), AttrType::kType, std::nullopt, std::move(allowed)});
  return *this;
}
OpDef& OpDef::attr(std::string name, AttrType type, std::optional<AttrValue> default_value) {
  attrs_.push_back({std::move(name), type, std::move(default_value), {}});
  return *this;
}
OpDef& OpDef::shape_fn(ShapeFn fn) {
  shape_fn_ = std::move(fn);
  return *this;
}
OpDef& OpDef::kernel(DType dtype, KernelFn fn, DeviceType device) {
  kernels_[static_cast<int>(device)][static_cast<int>(dtype)] = fn;
  return *this;
}
OpDef& OpDef::cpu_kernels(KernelFn (*lookup)(const std::string& op, DType dtype)) {
  const AttrDef* ka = kernel_type_attr_.empty() ? nullptr : find_attr(kernel_type_attr_);
  if (!ka) {
    kernel(float32, lookup(name_, float32));
    return *this;
  }
  for (DType t : ka->allowed) kernel(t, lookup(name_, t));
  return *this;
}
OpDef& OpDef::kernel_type_attr(std::string name) {
  kernel_type_attr_ = std::move(name);
  return *this;
}
OpDef& OpDef::gradient(GradFn fn) {
  grad_ = std::move(fn);
  return *this;
}
OpDef& OpDef::not_differentiable() {
  not_differentiable_ = true;
  return *this;
}
OpDef& OpDef::stateful() {
  stateful_ = true;
  return *this;
}

const AttrDef* OpDef::find_attr(std::string_view name) const {
  for (const auto& a : attrs_) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

}  // namespace tfcc
