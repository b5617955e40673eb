// Creating tensors: constants from C++ values, fills, ranges, identity matrices, one-hot.
//
//   auto x = tfcc::constant(2);                         // tf.Tensor(2, shape=(), dtype=int32)
//   auto m = tfcc::constant({{1.f, 2.f}, {3.f, 4.f}});  // float32 (2, 2)
//   auto z = tfcc::zeros({2, 3});                       // float32 zeros
//   auto r = tfcc::range(0, 10, 2);                     // [0 2 4 6 8]
//   auto h = tfcc::one_hot(tfcc::constant({0, 2}), 3);  // [[1. 0. 0.] [0. 0. 1.]]
//
// C++ scalars map to dtypes like Python values do in TensorFlow: int -> int32, int64_t -> int64,
// float and double -> float32, bool -> bool. Pass a dtype to choose another.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <initializer_list>
#include <optional>
#include <source_location>
#include <vector>

#include "tfcc/core/tensor.h"

namespace tfcc {

using Loc = std::source_location;

namespace detail {
/// A nested initializer list flattened with its shape.
template <typename T>
struct Nested {
  std::vector<T> values;
  std::vector<int64_t> dims;
};
template <typename T>
DType default_constant_dtype() {
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>)
    return float32;
  else if constexpr (std::is_same_v<T, bool>)
    return bool_;
  else if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, long long>)
    return int64;
  else if constexpr (std::is_same_v<T, uint8_t>)
    return uint8;
  else
    return int32;
}
/// Makes a tensor of `dtype` from doubles/ints (checked conversion).
Tensor make_constant(const std::vector<double>& values, const Shape& shape, DType dtype);
template <typename T>
Tensor make_constant_typed(const std::vector<T>& values, const Shape& shape,
                           std::optional<DType> dtype) {
  std::vector<double> d(values.begin(), values.end());
  return make_constant(d, shape, dtype.value_or(default_constant_dtype<T>()));
}
/// Throws InvalidArgumentError for ragged nested lists.
void check_rectangular(bool ok);
}  // namespace detail

/// A scalar constant.
template <typename T>
requires std::is_arithmetic_v<T> Tensor constant(T value,
                                                 std::optional<DType> dtype = std::nullopt) {
  return detail::make_constant_typed(std::vector<T>{value}, Shape{}, dtype);
}
/// A 1-D constant.
template <typename T>
Tensor constant(std::initializer_list<T> values, std::optional<DType> dtype = std::nullopt) {
  return detail::make_constant_typed(std::vector<T>(values),
                                     Shape{static_cast<int64_t>(values.size())}, dtype);
}
/// A 2-D constant; rows must have equal length.
template <typename T>
Tensor constant(std::initializer_list<std::initializer_list<T>> rows,
                std::optional<DType> dtype = std::nullopt) {
  std::vector<T> v;
  int64_t cols = rows.size() ? static_cast<int64_t>(rows.begin()->size()) : 0;
  for (auto& r : rows) {
    detail::check_rectangular(static_cast<int64_t>(r.size()) == cols);
    v.insert(v.end(), r.begin(), r.end());
  }
  return detail::make_constant_typed(v, Shape{static_cast<int64_t>(rows.size()), cols}, dtype);
}
/// A 3-D constant.
template <typename T>
Tensor constant(std::initializer_list<std::initializer_list<std::initializer_list<T>>> blocks,
                std::optional<DType> dtype = std::nullopt) {
  std::vector<T> v;
  int64_t rows = blocks.size() ? static_cast<int64_t>(blocks.begin()->size()) : 0;
  int64_t cols = rows ? static_cast<int64_t>(blocks.begin()->begin()->size()) : 0;
  for (auto& b : blocks) {
    detail::check_rectangular(static_cast<int64_t>(b.size()) == rows);
    for (auto& r : b) {
      detail::check_rectangular(static_cast<int64_t>(r.size()) == cols);
      v.insert(v.end(), r.begin(), r.end());
    }
  }
  return detail::make_constant_typed(v, Shape{static_cast<int64_t>(blocks.size()), rows, cols},
                                     dtype);
}
/// A constant from a vector and a shape (default 1-D).
template <typename T>
Tensor constant(const std::vector<T>& values, std::optional<std::vector<int64_t>> shape = {},
                std::optional<DType> dtype = std::nullopt) {
  Shape s = shape ? Shape(*shape) : Shape{static_cast<int64_t>(values.size())};
  return detail::make_constant_typed(values, s, dtype);
}

/// A tensor of `shape` filled with `value`, of `dtype` (default float32).
Tensor fill(std::vector<int64_t> shape, double value, DType dtype = float32,
            Loc loc = Loc::current());
/// Zeros of `shape`.
Tensor zeros(std::vector<int64_t> shape, DType dtype = float32, Loc loc = Loc::current());
/// Ones of `shape`.
Tensor ones(std::vector<int64_t> shape, DType dtype = float32, Loc loc = Loc::current());
/// Zeros shaped like `x` (its dtype unless given).
Tensor zeros_like(const Tensor& x, std::optional<DType> dtype = std::nullopt,
                  Loc loc = Loc::current());
/// Ones shaped like `x`.
Tensor ones_like(const Tensor& x, std::optional<DType> dtype = std::nullopt,
                 Loc loc = Loc::current());
/// [start, limit) in steps of delta; int32 for integer arguments, float32 otherwise.
Tensor range(double start, double limit, double delta = 1, std::optional<DType> dtype = {},
             Loc loc = Loc::current());
/// [0, limit).
Tensor range(int64_t limit, Loc loc = Loc::current());
/// `num` evenly spaced values from start to stop inclusive (float32).
Tensor linspace(double start, double stop, int64_t num, DType dtype = float32,
                Loc loc = Loc::current());
/// Identity matrix with `num_rows` rows (and `num_columns`, default square).
Tensor eye(int64_t num_rows, std::optional<int64_t> num_columns = {}, DType dtype = float32,
           Loc loc = Loc::current());
/// One-hot encoding along a new last axis; out-of-range indices give all-off rows.
Tensor one_hot(const Tensor& indices, int64_t depth, double on_value = 1, double off_value = 0,
               DType dtype = float32, Loc loc = Loc::current());

}  // namespace tfcc
#pragma GCC visibility pop
