// Tensor shapes: Shape (every dimension known) and PartialShape (unknown dimensions or rank,
// for traced functions and input signatures).
//
//   tfcc::Shape s{2, 3};
//   s.num_elements();              // 6
//   std::cout << s;                // (2, 3)
//   tfcc::PartialShape p{-1, 3};   // (None, 3)
//   p.is_compatible_with(s);       // true
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace tfcc {

/// A fully known shape. Dimensions are non-negative.
class Shape {
 public:
  Shape() = default;
  Shape(std::initializer_list<int64_t> dims);
  explicit Shape(std::vector<int64_t> dims);

  int rank() const { return static_cast<int>(dims_.size()); }
  int64_t dim(int i) const { return dims_[static_cast<size_t>(i)]; }
  int64_t operator[](int i) const { return dim(i); }
  const std::vector<int64_t>& dims() const { return dims_; }
  /// Product of the dimensions (1 for a scalar). Overflow was checked at construction.
  int64_t num_elements() const { return num_elements_; }

  bool operator==(const Shape& o) const { return dims_ == o.dims_; }
  bool operator!=(const Shape& o) const { return dims_ != o.dims_; }

  /// Python tuple spelling: "()", "(3,)", "(2, 3)".
  std::string to_string() const;
  /// TensorFlow's error-message spelling: "[2,3]".
  std::string debug_string() const;

 private:
  void validate();
  std::vector<int64_t> dims_;
  int64_t num_elements_ = 1;
};

std::ostream& operator<<(std::ostream& os, const Shape& s);

/// A shape that may have unknown dimensions (-1, printed None) or an unknown rank.
class PartialShape {
 public:
  static constexpr int64_t kUnknown = -1;

  /// Unknown rank.
  PartialShape() = default;
  PartialShape(std::initializer_list<int64_t> dims);
  explicit PartialShape(std::vector<int64_t> dims);
  PartialShape(const Shape& s);  // NOLINT: every Shape is a PartialShape

  static PartialShape unknown_rank() { return PartialShape(); }

  bool rank_known() const { return dims_.has_value(); }
  int rank() const;  ///< throws if the rank is unknown
  int64_t dim(int i) const { return (*dims_)[static_cast<size_t>(i)]; }
  const std::vector<int64_t>& dims() const;
  bool is_fully_defined() const;
  /// The Shape, or InvalidArgumentError if some dimension is unknown.
  Shape to_shape() const;
  /// True if some fully known shape could match both.
  bool is_compatible_with(const PartialShape& other) const;
  /// The most specific shape compatible with both; InvalidArgumentError if they conflict.
  PartialShape merge_with(const PartialShape& other) const;

  bool operator==(const PartialShape& o) const { return dims_ == o.dims_; }
  /// "(None, 3)", or "<unknown>" for an unknown rank.
  std::string to_string() const;

 private:
  std::optional<std::vector<int64_t>> dims_;
};

std::ostream& operator<<(std::ostream& os, const PartialShape& s);

/// Multiplies sizes, throwing InvalidArgumentError instead of overflowing int64.
int64_t checked_mul(int64_t a, int64_t b);

}  // namespace tfcc
#pragma GCC visibility pop
