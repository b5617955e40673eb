// TEMPORARY scaffold: replaced by the real family.
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/registry.h"

namespace tfcc {
namespace detail {
void check_rectangular(bool ok) { TFCC_CHECK_ARG(ok, "ragged"); }
Tensor make_constant(const std::vector<double>& v, const Shape& s, DType d) { Tensor t = Tensor::empty(d, s); visit_dtype(d, [&]<typename T>() { for (size_t i = 0; i < v.size(); ++i) t.mutable_data<T>()[i] = convert_element<T>(v[i]); }); return t; }
}
void register_creation_ops(OpRegistry&) {}
Tensor fill(std::vector<int64_t> shape, double value, DType dtype, Loc loc) {
  throw UnimplementedError("fill is not implemented yet");
}

Tensor zeros(std::vector<int64_t> shape, DType dtype, Loc loc) {
  throw UnimplementedError("zeros is not implemented yet");
}

Tensor ones(std::vector<int64_t> shape, DType dtype, Loc loc) {
  throw UnimplementedError("ones is not implemented yet");
}

Tensor zeros_like(const Tensor& x, std::optional<DType> dtype, Loc loc) {
  throw UnimplementedError("zeros_like is not implemented yet");
}

Tensor ones_like(const Tensor& x, std::optional<DType> dtype, Loc loc) {
  throw UnimplementedError("ones_like is not implemented yet");
}

Tensor range(double start, double limit, double delta, std::optional<DType> dtype, Loc loc) {
  throw UnimplementedError("range is not implemented yet");
}

Tensor range(int64_t limit, Loc loc) {
  throw UnimplementedError("range is not implemented yet");
}

Tensor linspace(double start, double stop, int64_t num, DType dtype, Loc loc) {
  throw UnimplementedError("linspace is not implemented yet");
}

Tensor eye(int64_t num_rows, std::optional<int64_t> num_columns, DType dtype, Loc loc) {
  throw UnimplementedError("eye is not implemented yet");
}

Tensor one_hot(const Tensor& indices, int64_t depth, double on_value, double off_value, DType dtype, Loc loc) {
  throw UnimplementedError("one_hot is not implemented yet");
}
}
