// The op conformance table: one row per public op, run against a float64 reference for every
// dtype it supports, with invalid inputs that must raise the right tfcc::Error.
//
// A row for an element-wise op:
//
//   rows.push_back(unary_row("exp", "Exp", kFloat, [](const Tensor& x) { return tfcc::exp(x); },
//                            [](double x) { return std::exp(x); }));
//
// Every registered op must appear in some row's `ops` (the coverage test enforces it).
// Later columns (traced parity, float64 gradient checks) run over the same rows.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tfcc/tfcc.h"

namespace tfcc::conformance {

/// A reference value: shape and float64 elements; `dtype` pins an input's dtype (indices,
/// conditions), otherwise the input takes the dtype under test.
struct Ref {
  std::vector<int64_t> shape;
  std::vector<double> values;
  std::optional<DType> dtype;
};

/// A scalar / vector / matrix reference, for brevity.
Ref scalar(double v, std::optional<DType> dtype = std::nullopt);
Ref vec(std::vector<double> v, std::optional<DType> dtype = std::nullopt);
Ref mat(std::vector<std::vector<double>> rows, std::optional<DType> dtype = std::nullopt);
Ref shaped(std::vector<int64_t> shape, std::vector<double> v,
           std::optional<DType> dtype = std::nullopt);
/// `n` deterministic pseudo-random values in [lo, hi) with `shape`.
Ref filled(std::vector<int64_t> shape, double lo, double hi, uint64_t seed = 1,
           std::optional<DType> dtype = std::nullopt);

/// One set of sample inputs.
struct Case {
  std::string label;
  std::vector<Ref> inputs;
  std::vector<DType> only;  ///< restrict to these dtypes (empty: every dtype of the row)
  bool grad = true;         ///< false where the gradient is ill-defined (say why at the case)
};

/// An invalid call and the error it must raise.
struct BadCase {
  std::string label;
  std::function<void()> call;
  ErrorCode code = ErrorCode::kInvalidArgument;
  std::string message_contains;  ///< empty: any message
};

using ApiFn = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;
using RefFn = std::function<std::vector<Ref>(const std::vector<Ref>&, DType)>;

/// One row of the table.
struct OpRow {
  std::string name;              ///< the API function, e.g. "add"
  std::vector<std::string> ops;  ///< registry ops this row covers ("AddV2"); none for composites
  std::vector<DType> dtypes;     ///< dtypes the row runs
  std::vector<Case> cases;
  ApiFn fn;         ///< calls the public API
  RefFn reference;  ///< float64 reference; receives inputs as the tested dtype holds them
  /// The dtype of every output for a tested dtype (default: the same).
  std::function<DType(DType)> out_dtype;
  double rtol32 = 2e-6, atol32 = 1e-6;  ///< tolerances for float32 (and bfloat16 x 100)
  double rtol64 = 1e-12, atol64 = 1e-12;
  std::vector<BadCase> invalid;
  /// Replaces the reference check where values cannot be predicted (random ops): gets the
  /// dtype and must assert properties with gtest macros.
  std::function<void(DType)> property_check;

  // Gradient column: float64 central differences against the tape, on the row's cases with the
  // non-pinned inputs redrawn uniformly from grad_domain (avoiding kinks such as 0 for abs).
  bool grad_check = true;  ///< false only with a reason (documented at the row)
  std::pair<double, double> grad_domain = {-2.0, 2.0};
  bool second_order = false;  ///< also check the gradient of the gradient
  /// The property check compares tape gradients with finite differences itself (ops such as
  /// ReadVariableOp, whose inputs are not tensors).
  bool property_checks_gradient = false;
};

/// True if the row's op is differentiable for float64 (every op it covers has a gradient rule,
/// the row runs float64, and its outputs are floating).
bool row_is_differentiable(const OpRow& row);

/// Runs the float64 gradient check (and the second-order one where asked).
void run_gradient_check(const OpRow& row);

/// Traced-parity column: every case run inside a tfcc::function gives the eager result
/// (bitwise; rows with property checks, whose values are random, compare dtypes and shapes).
void run_traced_parity(const OpRow& row);

/// Traced gradient column: for float64-differentiable rows, the gradient computed by a tape
/// inside a traced function agrees with the eager tape's to 1e-10 relative.
void run_traced_gradient_parity(const OpRow& row);

/// Every row of the table (all families).
std::vector<OpRow> all_rows();

// Row builders for common shapes of ops.
OpRow unary_row(std::string name, std::string op, std::vector<DType> dtypes,
                std::function<Tensor(const Tensor&)> fn, std::function<double(double)> ref,
                std::vector<Case> extra_cases = {});
OpRow binary_row(std::string name, std::string op, std::vector<DType> dtypes,
                 std::function<Tensor(const Tensor&, const Tensor&)> fn,
                 std::function<double(double, double)> ref, std::vector<Case> extra_cases = {});

/// f applied element by element with NumPy broadcasting (the reference of binary_row).
Ref broadcast_ref(const Ref& a, const Ref& b, const std::function<double(double, double)>& f);

/// Runs a row: reference check over every dtype and case, then each invalid case. Reports
/// failures through gtest.
void run_row(const OpRow& row);

/// Converts a reference to a tensor of `dtype`.
Tensor to_tensor(const Ref& r, DType dtype);
/// Reads a tensor back as a reference.
Ref from_tensor(const Tensor& t);

/// Dtype sets.
inline const std::vector<DType> kFloat = {float32, float64};
inline const std::vector<DType> kSigned = {float32, float64, int32, int64};
inline const std::vector<DType> kNumeric = {float32, float64, int32, int64, uint8};

}  // namespace tfcc::conformance
