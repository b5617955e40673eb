#include "tfcc/core/shape.h"

#include <sstream>

#include "tfcc/platform/errors.h"

namespace tfcc {

int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) {
    throw InvalidArgumentError(
        internal::str_cat("Shape too large: ", a, " * ", b, " overflows int64"));
  }
  return r;
}

Shape::Shape(std::initializer_list<int64_t> dims) : dims_(dims) { validate(); }
Shape::Shape(std::vector<int64_t> dims) : dims_(std::move(dims)) { validate(); }

void Shape::validate() {
  num_elements_ = 1;
  for (int64_t d : dims_) {
    TFCC_CHECK_ARG(d >= 0, "Dimension ", d, " must be >= 0 in shape ", debug_string());
    num_elements_ = checked_mul(num_elements_, d);
  }
}

namespace {
std::string tuple_string(const std::vector<int64_t>& dims) {
  std::ostringstream os;
  os << "(";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) os << ", ";
    if (dims[i] < 0) {
      os << "None";
    } else {
      os << dims[i];
    }
  }
  if (dims.size() == 1) os << ",";
  os << ")";
  return os.str();
}
}  // namespace

std::string Shape::to_string() const { return tuple_string(dims_); }

std::string Shape::debug_string() const {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < dims_.size(); ++i) os << (i ? "," : "") << dims_[i];
  os << "]";
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const Shape& s) { return os << s.to_string(); }

PartialShape::PartialShape(std::initializer_list<int64_t> dims)
    : PartialShape(std::vector<int64_t>(dims)) {}

PartialShape::PartialShape(std::vector<int64_t> dims) : dims_(std::move(dims)) {
  for (int64_t d : *dims_) {
    TFCC_CHECK_ARG(d >= -1, "Dimension ", d, " must be >= 0, or -1 for unknown");
  }
}

PartialShape::PartialShape(const Shape& s) : dims_(s.dims()) {}

int PartialShape::rank() const {
  TFCC_REQUIRE(FailedPreconditionError, dims_.has_value(), "The rank of this shape is unknown");
  return static_cast<int>(dims_->size());
}

const std::vector<int64_t>& PartialShape::dims() const {
  TFCC_REQUIRE(FailedPreconditionError, dims_.has_value(), "The rank of this shape is unknown");
  return *dims_;
}

bool PartialShape::is_fully_defined() const {
  if (!dims_) return false;
  for (int64_t d : *dims_) {
    if (d < 0) return false;
  }
  return true;
}

Shape PartialShape::to_shape() const {
  TFCC_CHECK_ARG(is_fully_defined(), "Shape ", to_string(), " is not fully defined");
  return Shape(*dims_);
}

bool PartialShape::is_compatible_with(const PartialShape& other) const {
  if (!dims_ || !other.dims_) return true;
  if (dims_->size() != other.dims_->size()) return false;
  for (size_t i = 0; i < dims_->size(); ++i) {
    int64_t a = (*dims_)[i], b = (*other.dims_)[i];
    if (a >= 0 && b >= 0 && a != b) return false;
  }
  return true;
}

PartialShape PartialShape::merge_with(const PartialShape& other) const {
  TFCC_CHECK_ARG(is_compatible_with(other), "Shapes ", to_string(), " and ", other.to_string(),
                 " are not compatible");
  if (!dims_) return other;
  if (!other.dims_) return *this;
  std::vector<int64_t> out(*dims_);
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] < 0) out[i] = (*other.dims_)[i];
  }
  return PartialShape(std::move(out));
}

std::string PartialShape::to_string() const {
  return dims_ ? tuple_string(*dims_) : std::string("<unknown>");
}

std::ostream& operator<<(std::ostream& os, const PartialShape& s) { return os << s.to_string(); }

}  // namespace tfcc
