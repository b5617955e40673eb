// The helpers the array family's definition files share (declared in array_internal.h).
#include "tfcc/ops/array/array_internal.h"

#include <sstream>

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/registry.h"

namespace tfcc {

std::string dims_str(const std::vector<int64_t>& dims) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < dims.size(); ++i) os << (i ? "," : "") << dims[i];
  os << "]";
  return os.str();
}

std::vector<int64_t> static_dims(const Tensor& t, const char* what) {
  PartialShape p = t.partial_shape();
  if (!p.is_fully_defined()) {
    throw UnimplementedError(
        internal::str_cat(what, " needs a shape known at trace time, got ", p.to_string()));
  }
  return p.dims();
}

int64_t checked_axis(const InferenceContext& c, int64_t axis, int64_t rank, const char* what) {
  if (axis < -rank || axis >= rank) {
    c.fail(internal::str_cat(what, " ", axis, " is out of range for a tensor of rank ", rank,
                             "; expected a value in [", -rank, ", ", rank, ")"));
  }
  return axis < 0 ? axis + rank : axis;
}

Tensor call1(const char* name, std::initializer_list<Tensor> ins, Attrs attrs, Loc loc) {
  const OpDef& op = op_def(name);
  std::vector<Tensor> in(ins);
  return dispatch1(op, in, std::move(attrs), loc);
}

OpDef& unary_array(OpRegistry& r, const std::string& name, bool strings) {
  return r.add(name)
      .input("input", "T")
      .output("output", "T")
      .type_attr("T", strings ? kAllTypesAndString : kAllTypes)
      .cpu_kernels(array_cpu_kernel);
}

}  // namespace tfcc
