// Axes: the axis argument of reductions and similar ops: none (all axes), one, or several.
//
//   tfcc::reduce_sum(x);             // all axes
//   tfcc::reduce_sum(x, 1);          // axis 1
//   tfcc::reduce_sum(x, {0, -1});    // axes 0 and the last
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

namespace tfcc {

/// An optional list of axes; empty optional means "every axis".
struct Axes {
  std::optional<std::vector<int64_t>> list;
  Axes() = default;
  Axes(int axis) : list(std::vector<int64_t>{axis}) {}      // NOLINT: implicit by design
  Axes(int64_t axis) : list(std::vector<int64_t>{axis}) {}  // NOLINT
  Axes(std::initializer_list<int64_t> axes) : list(std::vector<int64_t>(axes)) {}  // NOLINT
  Axes(std::vector<int64_t> axes) : list(std::move(axes)) {}                       // NOLINT
  bool all() const { return !list.has_value(); }
};

}  // namespace tfcc
#pragma GCC visibility pop
