// The definition of an op: everything tfcc knows about it, in one record.
//
// An op family registers its ops in one function, builder style:
//
//   void register_math_ops(OpRegistry& r) {
//     r.add("AddV2")
//         .input("x", "T").input("y", "T").output("z", "T")
//         .type_attr("T", kNumericTypes)
//         .shape_fn(broadcast_binary_shape)
//         .kernel<float, double, int32_t, int64_t>(add_kernel)   // CPU kernel per dtype
//         .gradient(add_grad);                                    // or .not_differentiable()
//   }
//
// The registry's start-up check (OpRegistry::check) rejects an op missing a shape function, a
// kernel for an allowed dtype, or a gradient decision.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <array>
#include <functional>
#include <optional>
#include <source_location>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tfcc/core/device.h"
#include "tfcc/core/tensor.h"
#include "tfcc/ops/attrs.h"

namespace tfcc {

class OpDef;

/// Dtype sets used in type constraints.
inline const std::vector<DType> kFloatTypes = {float32, float64};
inline const std::vector<DType> kNumericTypes = {float32, float64, int32, int64, uint8};
inline const std::vector<DType> kSignedNumericTypes = {float32, float64, int32, int64};
inline const std::vector<DType> kAllTypes = {float32, float64, int32,   int64,
                                             uint8,   bool_,   bfloat16};
inline const std::vector<DType> kIndexTypes = {int32, int64};
/// kAllTypes and string: for ops that only move elements (reshape, gather, concat, slicing).
inline const std::vector<DType> kAllTypesAndString = {float32, float64, int32,    int64,
                                                      uint8,   bool_,   bfloat16, string};

/// A tensor input or output of an op.
struct ArgDef {
  std::string name;
  std::string type_attr;       ///< dtype given by this type attribute ("T"), or
  std::optional<DType> fixed;  ///< a fixed dtype
  bool variadic = false;       ///< a list of tensors whose length is attribute "N"
};

/// An attribute of an op, with its default (absent: required).
struct AttrDef {
  std::string name;
  AttrType type;
  std::optional<AttrValue> default_value;
  std::vector<DType> allowed;  ///< for type attributes
};

/// What shape inference says about one output.
struct OutputSpec {
  DType dtype;
  PartialShape shape;
};

/// One op call: what dispatch hands to an execution context.
struct OpCall {
  const OpDef& op;
  std::span<const Tensor> inputs;
  const Attrs& attrs;  ///< complete: defaults filled, types checked, type attributes bound
  std::source_location location;
};

/// Raises InvalidArgumentError with the op name appended, TensorFlow style: "... [Op:AddV2]".
[[noreturn]] void op_error(const OpDef& op, const std::string& message);

/// Inputs to shape inference: dtypes and static shapes of the inputs, and the attributes.
class InferenceContext {
 public:
  explicit InferenceContext(const OpCall& call) : call_(call) {}
  const OpDef& op() const { return call_.op; }
  const Attrs& attrs() const { return call_.attrs; }
  int num_inputs() const { return static_cast<int>(call_.inputs.size()); }
  DType dtype(int i) const { return call_.inputs[i].dtype(); }
  PartialShape shape(int i) const { return call_.inputs[i].partial_shape(); }
  /// The input's value when it is known now (always in eager mode), else nullptr.
  const Tensor* value(int i) const {
    return call_.inputs[i].is_symbolic() ? nullptr : &call_.inputs[i];
  }
  template <typename T>
  const T& attr(std::string_view name) const {
    return call_.attrs.get<T>(name);
  }
  [[noreturn]] void fail(const std::string& message) const { op_error(op(), message); }

 private:
  const OpCall& call_;
};

/// What a kernel sees: concrete inputs, attributes, and the outputs it must set.
class KernelContext {
 public:
  KernelContext(const OpCall& call, std::vector<OutputSpec> specs)
      : call_(call), specs_(std::move(specs)), outputs_(specs_.size()) {}
  const OpDef& op() const { return call_.op; }
  const Attrs& attrs() const { return call_.attrs; }
  int num_inputs() const { return static_cast<int>(call_.inputs.size()); }
  const Tensor& input(int i) const { return call_.inputs[i]; }
  std::span<const Tensor> inputs() const { return call_.inputs; }
  template <typename T>
  const T& attr(std::string_view name) const {
    return call_.attrs.get<T>(name);
  }
  const OutputSpec& spec(int i) const { return specs_[i]; }
  int num_outputs() const { return static_cast<int>(outputs_.size()); }

  /// Allocates output i with its inferred (fully known) shape.
  Tensor& allocate_output(int i);
  /// Allocates output i with a shape found at run time.
  Tensor& allocate_output(int i, const Shape& shape);
  /// Sets output i to an existing tensor (aliasing is fine: buffers are immutable).
  void set_output(int i, Tensor t);
  [[noreturn]] void fail(const std::string& message) const { op_error(op(), message); }

  std::vector<Tensor>& outputs() { return outputs_; }

 private:
  const OpCall& call_;
  std::vector<OutputSpec> specs_;
  std::vector<Tensor> outputs_;
};

/// What a gradient rule sees. Rules are written with ops (never raw buffers), so they also run
/// inside traced functions and can be differentiated again.
struct GradContext {
  const OpDef& op;
  std::span<const Tensor> inputs;
  std::span<const Tensor> outputs;
  const Attrs& attrs;
  std::span<const Tensor> grads;  ///< one per output; undefined where no gradient flows
  /// Which inputs' gradients the caller will use (TensorFlow's skip_input_indices); null: all.
  /// Rules with costly parts (MatMul's two products) may leave an unused one undefined.
  const std::vector<bool>* inputs_needed = nullptr;
  bool input_needed(size_t i) const {
    return inputs_needed == nullptr || i >= inputs_needed->size() || (*inputs_needed)[i];
  }
};

using ShapeFn = std::function<std::vector<OutputSpec>(const InferenceContext&)>;
using KernelFn = void (*)(KernelContext&);
/// Returns one gradient per input (undefined Tensor: none).
using GradFn = std::function<std::vector<Tensor>(const GradContext&)>;

/// The complete definition of one op.
class OpDef {
 public:
  explicit OpDef(std::string name) : name_(std::move(name)) {}

  // Builder methods.
  OpDef& input(std::string name, std::string type_attr);
  OpDef& input(std::string name, DType fixed);
  OpDef& variadic_input(std::string name, std::string type_attr);
  OpDef& output(std::string name, std::string type_attr);
  OpDef& output(std::string name, DType fixed);
  OpDef& type_attr(std::string name, std::vector<DType> allowed);
  OpDef& attr(std::string name, AttrType type, std::optional<AttrValue> default_value = {});
  OpDef& shape_fn(ShapeFn fn);
  /// Registers `fn` as the CPU kernel for the dtypes of the kernel type attribute (the first
  /// type attribute unless kernel_type_attr() says otherwise).
  OpDef& kernel(DType dtype, KernelFn fn, DeviceType device = DeviceType::kCPU);
  template <typename... Ts, typename F>
  OpDef& kernels(F fn) {
    (kernel(dtype_of<Ts>(), fn.template operator()<Ts>()), ...);
    return *this;
  }
  /// Registers, for every allowed dtype of the kernel type attribute, the CPU kernel that
  /// `lookup(op_name, dtype)` returns (nullptr leaves that dtype without a kernel, which the
  /// registry check reports). Kernel files export one such lookup per family.
  OpDef& cpu_kernels(KernelFn (*lookup)(const std::string& op, DType dtype));
  OpDef& kernel_type_attr(std::string name);
  OpDef& gradient(GradFn fn);
  OpDef& not_differentiable();
  /// Marks ops whose result is not a function of inputs and attributes alone (random ops):
  /// never folded or deduplicated by graph passes.
  OpDef& stateful();

  // Queries.
  const std::string& name() const { return name_; }
  const std::vector<ArgDef>& inputs() const { return inputs_; }
  const std::vector<ArgDef>& outputs() const { return outputs_; }
  const std::vector<AttrDef>& attrs() const { return attrs_; }
  const AttrDef* find_attr(std::string_view name) const;
  const ShapeFn& shape_function() const { return shape_fn_; }
  KernelFn find_kernel(DeviceType device, DType dtype) const {
    return kernels_[static_cast<int>(device)][static_cast<int>(dtype)];
  }
  const std::string& kernel_type_attribute() const { return kernel_type_attr_; }
  const GradFn& gradient_fn() const { return grad_; }
  bool is_differentiable() const { return static_cast<bool>(grad_); }
  bool marked_not_differentiable() const { return not_differentiable_; }
  bool is_stateful() const { return stateful_; }

 private:
  std::string name_;
  std::vector<ArgDef> inputs_, outputs_;
  std::vector<AttrDef> attrs_;
  ShapeFn shape_fn_;
  std::array<std::array<KernelFn, kNumDTypes>, kNumDeviceTypes> kernels_{};
  std::string kernel_type_attr_;
  GradFn grad_;
  bool not_differentiable_ = false;
  bool stateful_ = false;
};

/// The op named `name` in the op registry; NotFoundError if no such op is registered. (The
/// registry itself, tfcc/ops/registry.h, is internal to the library.)
const OpDef& op_def(std::string_view name);

}  // namespace tfcc
#pragma GCC visibility pop
