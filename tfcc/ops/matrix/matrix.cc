// Definitions of the matrix family: signatures and shape functions of MatrixBandPart and the
// Eigen-backed ops, the typed API, and the norm / l2_normalize composites.
#include "tfcc/ops/matrix/matrix.h"

#include <cmath>
#include <limits>
#include <optional>

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/matrix/matrix_internal.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/registry.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc {
namespace {

using internal::str_cat;

// The shape's batch dims and its last two; fails unless rank >= 2 (and square when asked).
struct MatrixDims {
  std::vector<int64_t> batch;
  int64_t rows = -1, cols = -1;
};

std::optional<MatrixDims> matrix_dims(const InferenceContext& c, int i, bool square) {
  const PartialShape s = c.shape(i);
  if (!s.rank_known()) return std::nullopt;
  if (s.rank() < 2) {
    c.fail(str_cat("Input tensor ", i, " must have rank >= 2, got shape ", s.to_string()));
  }
  MatrixDims d;
  d.batch.assign(s.dims().begin(), s.dims().end() - 2);
  d.rows = s.dim(s.rank() - 2);
  d.cols = s.dim(s.rank() - 1);
  if (square && d.rows >= 0 && d.cols >= 0 && d.rows != d.cols) {
    c.fail("Input matrices must be squares, got shape " + s.to_string());
  }
  return d;
}

std::vector<int64_t> with(std::vector<int64_t> batch, std::initializer_list<int64_t> tail) {
  batch.insert(batch.end(), tail);
  return batch;
}

std::vector<OutputSpec> band_part_shape(const InferenceContext& c) {
  auto d = matrix_dims(c, 0, false);
  const int64_t lower = c.attr<int64_t>("num_lower"), upper = c.attr<int64_t>("num_upper");
  if (d && d->rows >= 0 && lower > d->rows) {
    c.fail(str_cat("num_lower must be negative or less or equal to number of rows (", d->rows,
                   ") got: ", lower));
  }
  if (d && d->cols >= 0 && upper > d->cols) {
    c.fail(str_cat("num_upper must be negative or less or equal to number of columns (", d->cols,
                   ") got: ", upper));
  }
  return {{c.dtype(0), c.shape(0)}};
}

std::vector<OutputSpec> square_shape(const InferenceContext& c) {
  matrix_dims(c, 0, true);
  return {{c.dtype(0), c.shape(0)}};
}

std::vector<OutputSpec> det_shape(const InferenceContext& c) {
  auto d = matrix_dims(c, 0, true);
  if (!d) return {{c.dtype(0), PartialShape::unknown_rank()}};
  return {{c.dtype(0), PartialShape(d->batch)}};
}

std::vector<OutputSpec> qr_shape(const InferenceContext& c) {
  auto d = matrix_dims(c, 0, false);
  const PartialShape unknown = PartialShape::unknown_rank();
  if (!d) return {{c.dtype(0), unknown}, {c.dtype(0), unknown}};
  const bool full = c.attr<bool>("full_matrices");
  const int64_t m = d->rows, n = d->cols;
  const int64_t k = m < 0 || n < 0 ? -1 : std::min(m, n);
  return {{c.dtype(0), PartialShape(with(d->batch, {m, full ? m : k}))},
          {c.dtype(0), PartialShape(with(d->batch, {full ? m : k, n}))}};
}

std::vector<OutputSpec> svd_shape(const InferenceContext& c) {
  auto d = matrix_dims(c, 0, false);
  const PartialShape unknown = PartialShape::unknown_rank();
  if (!d) return {{c.dtype(0), unknown}, {c.dtype(0), unknown}, {c.dtype(0), unknown}};
  const bool full = c.attr<bool>("full_matrices"), uv = c.attr<bool>("compute_uv");
  const int64_t m = d->rows, n = d->cols;
  const int64_t k = m < 0 || n < 0 ? -1 : std::min(m, n);
  const PartialShape none({0});
  return {{c.dtype(0), PartialShape(with(d->batch, {k}))},
          {c.dtype(0), uv ? PartialShape(with(d->batch, {m, full ? m : k})) : none},
          {c.dtype(0), uv ? PartialShape(with(d->batch, {n, full ? n : k})) : none}};
}

std::vector<OutputSpec> eigh_shape(const InferenceContext& c) {
  auto d = matrix_dims(c, 0, true);
  const PartialShape unknown = PartialShape::unknown_rank();
  if (!d) return {{c.dtype(0), unknown}, {c.dtype(0), unknown}};
  const int64_t n = d->rows >= 0 ? d->rows : d->cols;
  return {{c.dtype(0), PartialShape(with(d->batch, {n}))},
          {c.dtype(0),
           c.attr<bool>("compute_v") ? PartialShape(with(d->batch, {n, n})) : PartialShape({0})}};
}

std::vector<OutputSpec> solve_shape(const InferenceContext& c) {
  auto a = matrix_dims(c, 0, true);
  auto b = matrix_dims(c, 1, false);
  if (!a || !b) return {{c.dtype(0), c.shape(1)}};
  const int64_t m = a->rows >= 0 ? a->rows : a->cols;
  if (m >= 0 && b->rows >= 0 && m != b->rows) {
    c.fail("Input matrix and right-hand side must have the same number of rows: " +
           c.shape(0).to_string() + " vs. " + c.shape(1).to_string());
  }
  bool same = a->batch.size() == b->batch.size();
  for (size_t i = 0; same && i < a->batch.size(); ++i) {
    same = a->batch[i] < 0 || b->batch[i] < 0 || a->batch[i] == b->batch[i];
  }
  if (!same) {
    c.fail("The batch dimensions of matrix and rhs must be equal (tfcc does not broadcast them): " +
           c.shape(0).to_string() + " vs. " + c.shape(1).to_string());
  }
  return {{c.dtype(0), c.shape(1)}};
}

OpDef& float_op(OpRegistry& r, const std::string& name) {
  return r.add(name).input("input", "T").type_attr("T", kFloatTypes);
}

Tensor call1(const char* name, std::initializer_list<Tensor> ins, Attrs attrs, Loc loc) {
  std::vector<Tensor> in(ins);
  return dispatch1(op_def(name), in, std::move(attrs), loc);
}

std::vector<Tensor> call(const char* name, const Tensor& x, Attrs attrs, Loc loc) {
  Tensor in[] = {x};
  return dispatch(op_def(name), in, std::move(attrs), loc);
}

// Normalised axes of a norm; fails on out-of-range or repeated axes.
std::vector<int64_t> norm_axes(const Tensor& t, const Axes& axis) {
  const PartialShape s = t.partial_shape();
  if (!s.rank_known()) throw InvalidArgumentError("norm needs a tensor of known rank");
  const int64_t rank = s.rank();
  std::vector<int64_t> out;
  if (!axis.list) return out;
  for (int64_t a : *axis.list) {
    if (a < -rank || a >= rank) {
      throw InvalidArgumentError(str_cat("norm: axis ", a, " is out of range for rank ", rank));
    }
    out.push_back(a < 0 ? a + rank : a);
  }
  if (out.size() > 2 || (out.size() == 2 && out[0] == out[1])) {
    throw InvalidArgumentError(
        "norm: axis must be None, an integer or a pair of distinct integers");
  }
  return out;
}

}  // namespace

void register_matrix_ops(OpRegistry& r) {
  r.add("MatrixBandPart")
      .input("input", "T")
      .output("band", "T")
      .type_attr("T", kAllTypes)
      .attr("num_lower", AttrType::kInt)
      .attr("num_upper", AttrType::kInt)
      .shape_fn(band_part_shape)
      .cpu_kernels(matrix_cpu_kernel)
      .gradient([](const GradContext& g) -> std::vector<Tensor> {
        return {linalg::band_part(g.grads[0], g.attrs.get<int64_t>("num_lower"),
                                  g.attrs.get<int64_t>("num_upper"))};
      });
  float_op(r, "MatrixInverse")
      .output("output", "T")
      .attr("adjoint", AttrType::kBool, false)
      .shape_fn(square_shape)
      .cpu_kernels(matrix_eigen_cpu_kernel)
      .gradient(matrix_inverse_grad);
  float_op(r, "MatrixDeterminant")
      .output("output", "T")
      .shape_fn(det_shape)
      .cpu_kernels(matrix_eigen_cpu_kernel)
      .gradient(matrix_determinant_grad);
  float_op(r, "Cholesky")
      .output("output", "T")
      .shape_fn(square_shape)
      .cpu_kernels(matrix_eigen_cpu_kernel)
      .gradient(cholesky_grad);
  float_op(r, "Qr")
      .output("q", "T")
      .output("r", "T")
      .attr("full_matrices", AttrType::kBool, false)
      .shape_fn(qr_shape)
      .cpu_kernels(matrix_eigen_cpu_kernel)
      .gradient(qr_grad);
  float_op(r, "Svd")
      .output("s", "T")
      .output("u", "T")
      .output("v", "T")
      .attr("compute_uv", AttrType::kBool, true)
      .attr("full_matrices", AttrType::kBool, false)
      .shape_fn(svd_shape)
      .cpu_kernels(matrix_eigen_cpu_kernel)
      .gradient(svd_grad);
  float_op(r, "SelfAdjointEigV2")
      .output("e", "T")
      .output("v", "T")
      .attr("compute_v", AttrType::kBool, true)
      .shape_fn(eigh_shape)
      .cpu_kernels(matrix_eigen_cpu_kernel)
      .gradient(eigh_grad);
  r.add("MatrixSolve")
      .input("matrix", "T")
      .input("rhs", "T")
      .output("output", "T")
      .type_attr("T", kFloatTypes)
      .attr("adjoint", AttrType::kBool, false)
      .shape_fn(solve_shape)
      .cpu_kernels(matrix_eigen_cpu_kernel)
      .gradient(matrix_solve_grad);
  r.add("MatrixTriangularSolve")
      .input("matrix", "T")
      .input("rhs", "T")
      .output("output", "T")
      .type_attr("T", kFloatTypes)
      .attr("lower", AttrType::kBool, true)
      .attr("adjoint", AttrType::kBool, false)
      .shape_fn(solve_shape)
      .cpu_kernels(matrix_eigen_cpu_kernel)
      .gradient(triangular_solve_grad);
}

namespace linalg {

Tensor band_part(const Tensor& input, int64_t num_lower, int64_t num_upper, Loc loc) {
  return call1("MatrixBandPart", {input}, {{"num_lower", num_lower}, {"num_upper", num_upper}},
               loc);
}

Tensor inv(const Tensor& input, bool adjoint, Loc loc) {
  return call1("MatrixInverse", {input}, {{"adjoint", adjoint}}, loc);
}

Tensor det(const Tensor& input, Loc loc) { return call1("MatrixDeterminant", {input}, {}, loc); }

Tensor cholesky(const Tensor& input, Loc loc) { return call1("Cholesky", {input}, {}, loc); }

std::pair<Tensor, Tensor> qr(const Tensor& input, bool full_matrices, Loc loc) {
  auto out = call("Qr", input, {{"full_matrices", full_matrices}}, loc);
  return {out[0], out[1]};
}

std::tuple<Tensor, Tensor, Tensor> svd(const Tensor& tensor, bool full_matrices, bool compute_uv,
                                       Loc loc) {
  auto out =
      call("Svd", tensor, {{"full_matrices", full_matrices}, {"compute_uv", compute_uv}}, loc);
  return {out[0], out[1], out[2]};
}

std::pair<Tensor, Tensor> eigh(const Tensor& tensor, Loc loc) {
  auto out = call("SelfAdjointEigV2", tensor, {{"compute_v", true}}, loc);
  return {out[0], out[1]};
}

Tensor eigvalsh(const Tensor& tensor, Loc loc) {
  return call("SelfAdjointEigV2", tensor, {{"compute_v", false}}, loc)[0];
}

Tensor solve(const Tensor& matrix, const Tensor& rhs, bool adjoint, Loc loc) {
  return call1("MatrixSolve", {matrix, rhs}, {{"adjoint", adjoint}}, loc);
}

Tensor triangular_solve(const Tensor& matrix, const Tensor& rhs, bool lower, bool adjoint,
                        Loc loc) {
  return call1("MatrixTriangularSolve", {matrix, rhs}, {{"lower", lower}, {"adjoint", adjoint}},
               loc);
}

Tensor adjoint(const Tensor& matrix, Loc loc) {
  const PartialShape s = matrix.partial_shape();
  if (!s.rank_known() || s.rank() < 2) {
    throw InvalidArgumentError("adjoint needs a tensor of rank >= 2, got " + s.to_string());
  }
  std::vector<int64_t> perm;
  for (int64_t i = 0; i < s.rank(); ++i) perm.push_back(i);
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  return transpose(matrix, perm, loc);
}

Tensor norm(const Tensor& tensor, const std::string& ord, const Axes& axis, bool keepdims,
            Loc loc) {
  if (ord != "euclidean" && ord != "fro") {
    throw InvalidArgumentError("norm: ord must be \"euclidean\", \"fro\" or a number, got \"" +
                               ord + "\"");
  }
  const std::vector<int64_t> axes = norm_axes(tensor, axis);
  if (ord == "fro" && axes.size() == 1) {
    throw InvalidArgumentError("norm: ord \"fro\" needs two axes (a matrix norm) or none");
  }
  if (!is_floating(tensor.dtype())) {
    throw InvalidArgumentError(
        str_cat("norm needs a float tensor, got ", dtype_name(tensor.dtype())));
  }
  return sqrt(reduce_sum(square(tensor, loc), axes.empty() ? Axes() : Axes(axes), keepdims, loc),
              loc);
}

Tensor norm(const Tensor& tensor, double ord, const Axes& axis, bool keepdims, Loc loc) {
  const std::vector<int64_t> axes = norm_axes(tensor, axis);
  if (!is_floating(tensor.dtype())) {
    throw InvalidArgumentError(
        str_cat("norm needs a float tensor, got ", dtype_name(tensor.dtype())));
  }
  const Axes red = axes.empty() ? Axes() : Axes(axes);
  const bool inf = std::isinf(ord) && ord > 0;
  if (axes.size() == 2) {
    const int64_t rows = axes[0], cols = axes[1];
    if (ord == 1 || inf) {
      // 1: the largest column sum (sum over rows); inf: the largest row sum.
      const int64_t sum_axis = ord == 1 ? rows : cols, max_axis = ord == 1 ? cols : rows;
      Tensor sums = reduce_sum(abs(tensor, loc), sum_axis, true, loc);
      Tensor out = reduce_max(sums, max_axis, true, loc);
      return keepdims ? out : squeeze(out, {rows, cols}, loc);
    }
    if (ord == 2) {
      // The largest singular value: move the two axes last.
      const int64_t rank = tensor.rank();
      std::vector<int64_t> perm;
      for (int64_t i = 0; i < rank; ++i) {
        if (i != rows && i != cols) perm.push_back(i);
      }
      perm.push_back(rows);
      perm.push_back(cols);
      Tensor s = std::get<0>(svd(transpose(tensor, perm, loc), false, false, loc));
      Tensor out = reduce_max(s, -1, false, loc);
      if (!keepdims) return out;
      std::vector<int64_t> dims = out.partial_shape().dims();
      for (int64_t a : {std::min(rows, cols), std::max(rows, cols)}) {
        dims.insert(dims.begin() + a, 1);
      }
      return reshape(out, dims, loc);
    }
    throw InvalidArgumentError(
        str_cat("norm: a matrix norm (two axes) supports ord 1, 2, inf, \"fro\" and "
                "\"euclidean\", got ",
                ord));
  }
  if (!(ord > 0)) throw InvalidArgumentError(str_cat("norm: ord must be > 0, got ", ord));
  if (inf) return reduce_max(abs(tensor, loc), red, keepdims, loc);
  if (ord == 1) return reduce_sum(abs(tensor, loc), red, keepdims, loc);
  if (ord == 2) return sqrt(reduce_sum(square(tensor, loc), red, keepdims, loc), loc);
  Tensor s = reduce_sum(pow(abs(tensor, loc), ord, loc), red, keepdims, loc);
  return pow(s, 1.0 / ord, loc);
}

Tensor l2_normalize(const Tensor& x, const Axes& axis, double epsilon, Loc loc) {
  if (!is_floating(x.dtype())) {
    throw InvalidArgumentError(
        str_cat("l2_normalize needs a float tensor, got ", dtype_name(x.dtype())));
  }
  Tensor sq = reduce_sum(square(x, loc), axis, true, loc);
  return multiply(x, rsqrt(maximum(sq, epsilon, loc), loc), loc);
}

}  // namespace linalg
}  // namespace tfcc
