// Index markers for tensor indexing in C++, NumPy style:
//
//   x(tfcc::all, tfcc::Slice(1, tfcc::none))   // x[:, 1:]
//   x(0, tfcc::ellipsis, tfcc::newaxis)         // x[0, ..., tf.newaxis]
//   x(tfcc::Slice(tfcc::none, tfcc::none, -1))  // x[::-1]
//
// Tensor::operator() is declared in tensor.h and implemented by the array op family (it
// dispatches StridedSlice), the way TensorFlow's array_ops gives tf.Tensor its __getitem__.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <optional>

namespace tfcc {

/// Index markers for the C++ indexing syntax: x(all, Slice(1, none), 0, newaxis).
struct None {};
inline constexpr None none{};
/// One bound of a Slice: an integer or none.
struct SliceBound {
  std::optional<int64_t> value;
  SliceBound(None) {}                                 // NOLINT: implicit by design
  SliceBound(std::nullopt_t) {}                       // NOLINT
  SliceBound(int v) : value(v) {}                     // NOLINT
  SliceBound(int64_t v) : value(v) {}                 // NOLINT
  SliceBound(std::optional<int64_t> v) : value(v) {}  // NOLINT
};
/// A Python-style slice start:stop:step; any part may be none: Slice(none, none, -1) is ::-1.
struct Slice {
  std::optional<int64_t> start, stop, step;
  Slice(SliceBound start_, SliceBound stop_, SliceBound step_ = none)
      : start(start_.value), stop(stop_.value), step(step_.value) {}
};
/// ":" — the whole axis.
inline const Slice all{none, none};
/// "..." — as many ":" as needed.
struct Ellipsis {};
inline constexpr Ellipsis ellipsis{};
/// np.newaxis — insert a size-1 axis.
struct NewAxis {};
inline constexpr NewAxis newaxis{};

/// One index of x(...): an integer (removes the axis), a Slice, ellipsis or newaxis.
struct Index {
  enum Kind { kInt, kSlice, kEllipsis, kNewAxis } kind;
  int64_t i = 0;
  Slice s{none, none};
  Index(int v) : kind(kInt), i(v) {}      // NOLINT
  Index(int64_t v) : kind(kInt), i(v) {}  // NOLINT
  Index(Slice v) : kind(kSlice), s(v) {}  // NOLINT
  Index(Ellipsis) : kind(kEllipsis) {}    // NOLINT
  Index(NewAxis) : kind(kNewAxis) {}      // NOLINT
};

}  // namespace tfcc
#pragma GCC visibility pop
