#include "tfcc/io/saved_model/tf_export/function_builder.h"

#include <limits>

#include "tfcc/io/saved_model/tf_export/proto_util.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/platform/errors.h"

namespace tfcc::saved_model::tf_export {

using ::tfcc::internal::str_cat;

FunctionBuilder::FunctionBuilder(std::string name) {
  fn_.mutable_signature()->set_name(std::move(name));
}

std::string FunctionBuilder::unique(std::string base, std::set<std::string>& taken) {
  std::string name = base;
  for (int i = 1; taken.count(name); ++i) name = str_cat(base, "_", i);
  taken.insert(name);
  return name;
}

std::string FunctionBuilder::add_arg(std::string_view name, tensorflow::DataType dtype,
                                     const PartialShape& shape) {
  // Argument and node names share one namespace in a function body.
  std::string n = unique(arg_name(name), arg_names_);
  node_names_.insert(n);
  auto* arg = fn_.mutable_signature()->add_input_arg();
  arg->set_name(n);
  arg->set_type(dtype);
  input_shapes_.push_back(shape);
  return n;
}

tensorflow::NodeDef& FunctionBuilder::add_node(const std::string& op, std::string_view base,
                                               std::vector<std::string> inputs) {
  tensorflow::NodeDef* node = fn_.add_node_def();
  std::string n = unique(node_name(base), node_names_);
  arg_names_.insert(n);
  node->set_name(n);
  node->set_op(op);
  for (std::string& in : inputs) node->add_input(std::move(in));
  return *node;
}

std::string FunctionBuilder::add_const(const Tensor& value, std::string_view base) {
  tensorflow::NodeDef& c = add_node("Const", base, {});
  set_tensor(value, (*c.mutable_attr())["value"].mutable_tensor());
  set_type(c, "dtype", value.dtype());
  return ref(c, "output");
}

std::string FunctionBuilder::add_index_const(std::span<const int64_t> values, std::string_view base,
                                             DType* dtype_out) {
  bool fits = true;
  for (int64_t v : values) {
    fits = fits && v >= std::numeric_limits<int32_t>::min() &&
           v <= std::numeric_limits<int32_t>::max();
  }
  const int64_t n = static_cast<int64_t>(values.size());
  Tensor t;
  if (fits) {
    std::vector<int32_t> v32(values.begin(), values.end());
    t = Tensor::from_bytes(int32, Shape({n}), v32.data(), v32.size() * sizeof(int32_t));
  } else {
    t = Tensor::from_bytes(int64, Shape({n}), values.data(), values.size() * sizeof(int64_t));
  }
  if (dtype_out) *dtype_out = t.dtype();
  return add_const(t, base);
}

std::string FunctionBuilder::add_scalar_const(DType dtype, double v, std::string_view base) {
  Tensor f = Tensor::from_bytes(float64, Shape({}), &v, sizeof v);
  return add_const(f.dtype() == dtype ? f : cast(f, dtype), base);
}

void FunctionBuilder::add_ret(std::string_view name, const std::string& ref,
                              tensorflow::DataType dtype) {
  std::string n = unique(arg_name(name), ret_names_);
  auto* out = fn_.mutable_signature()->add_output_arg();
  out->set_name(n);
  out->set_type(dtype);
  (*fn_.mutable_ret())[n] = ref;
}

std::string FunctionBuilder::ref(const tensorflow::NodeDef& node, std::string_view out_arg,
                                 int index) {
  return str_cat(node.name(), ":", out_arg, ":", index);
}

void FunctionBuilder::set_type(tensorflow::NodeDef& node, const std::string& name, DType dtype) {
  (*node.mutable_attr())[name].set_type(tf_dtype(dtype));
}

tensorflow::FunctionDef FunctionBuilder::finish() {
  auto* shapes = (*fn_.mutable_attr())["_input_shapes"].mutable_list();
  for (const PartialShape& s : input_shapes_) set_shape(s, shapes->add_shape());
  return fn_;
}

}  // namespace tfcc::saved_model::tf_export
