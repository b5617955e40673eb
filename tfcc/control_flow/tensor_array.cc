#include "tfcc/control_flow/tensor_array.h"

#include "tfcc/control_flow/control_flow.h"
#include "tfcc/graph/trace/trace_context.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"

namespace tfcc {
namespace {

bool tracing() { return graph::TraceContext::current() != nullptr; }

Tensor as_index(const Tensor& t) {
  TFCC_CHECK_ARG(t.defined(), "TensorArray: the index is an undefined Tensor");
  TFCC_CHECK_ARG(t.dtype() == int32 || t.dtype() == int64,
                 "TensorArray: an index must be an int32 or int64 scalar, got ",
                 dtype_name(t.dtype()));
  return t.dtype() == int32 ? t : cast(t, int32);
}

Tensor rows_of(const Tensor& buffer) { return gather(shape(buffer, int32), constant(0)); }

}  // namespace

TensorArray::TensorArray(DType dtype, const Tensor& size, TensorArrayOptions options)
    : dtype_(dtype), size_(as_index(size)), options_(std::move(options)) {}

TensorArray::TensorArray(DType dtype, int64_t size, TensorArrayOptions options)
    : dtype_(dtype), options_(std::move(options)) {
  TFCC_CHECK_ARG(size >= 0, "TensorArray size must be non-negative, got ", size);
  size_ = Tensor::scalar<int32_t>(static_cast<int32_t>(size));
}

TensorArray TensorArray::with_buffer(Tensor buffer) const {
  TensorArray r = *this;
  r.buffer_ = std::move(buffer);
  r.maybe_empty_ = false;
  return r;
}

TensorArray TensorArray::as_loop_variable(Tensor buffer) const {
  TensorArray r = with_buffer(std::move(buffer));
  r.maybe_empty_ = true;
  return r;
}

std::optional<Shape> TensorArray::fixed_shape() const {
  if (options_.dynamic_size || size_.is_symbolic()) return std::nullopt;
  std::optional<PartialShape> elem = options_.element_shape;
  if (!elem || !elem->is_fully_defined()) elem = *written_;
  if (!elem || !elem->is_fully_defined()) return std::nullopt;
  std::vector<int64_t> dims = {size_.item<int64_t>()};
  for (int64_t d : elem->dims()) dims.push_back(d);
  return Shape(dims);
}

Tensor TensorArray::loop_buffer() const {
  if (buffer_.defined()) return buffer_;
  if (auto fixed = fixed_shape()) {
    graph::InitScope eager;  // a constant, captured by the trace
    return zeros(fixed->dims(), dtype_);
  }
  std::vector<int64_t> dims = {0};
  if (written_->has_value() && (*written_)->rank_known()) {
    dims.assign(static_cast<size_t>((*written_)->rank() + 1), 0);
  }
  return Tensor::from_bytes(dtype_, Shape(dims), nullptr, 0);
}

TensorArray TensorArray::write(int64_t index, const Tensor& value, std::source_location loc) const {
  return write(Tensor::scalar<int32_t>(static_cast<int32_t>(index)), value, loc);
}

TensorArray TensorArray::write(const Tensor& index, const Tensor& value,
                               std::source_location loc) const {
  TFCC_CHECK_ARG(value.defined(), "TensorArray.write: the value is an undefined Tensor");
  if (value.dtype() != dtype_) {
    throw InvalidArgumentError(internal::str_cat("TensorArray dtype is ", dtype_name(dtype_),
                                                 " but Op is trying to write dtype ",
                                                 dtype_name(value.dtype())));
  }
  if (options_.element_shape &&
      !options_.element_shape->is_compatible_with(value.partial_shape())) {
    throw InvalidArgumentError(internal::str_cat(
        "Could not write to TensorArray because the value shape is ",
        value.partial_shape().to_string(), " which is incompatible with the element shape ",
        options_.element_shape->to_string()));
  }
  PartialShape seen = value.partial_shape();
  if (written_->has_value()) {
    seen = graph::most_specific_common_shape(**written_, seen);
  }
  *written_ = seen;
  Tensor i = as_index(index);
  if (!tracing()) return eager_write(i.item<int64_t>(), value, loc);
  return traced_write(i, value, loc);
}

TensorArray TensorArray::eager_write(int64_t i, const Tensor& value, std::source_location) const {
  int64_t n = size_.item<int64_t>();
  TFCC_CHECK_ARG(i >= 0, "TensorArray: index ", i, " is negative");
  Tensor buf = buffer_;
  std::vector<int64_t> elem = value.shape().dims();
  if (buf.defined()) {
    n = std::max<int64_t>(n, buf.shape().dim(0));
    std::vector<int64_t> have(buf.shape().dims().begin() + 1, buf.shape().dims().end());
    if (have != elem) {
      throw InvalidArgumentError(
          internal::str_cat("Could not write to TensorArray index ", i,
                            " because the value shape is ", value.shape().to_string(),
                            " which is incompatible with the TensorArray's inferred "
                            "element shape: ",
                            PartialShape(have).to_string()));
    }
  }
  if (i >= n) {
    if (!options_.dynamic_size) {
      throw InvalidArgumentError(internal::str_cat(
          "Tried to write to index ", i, " but array is not resizeable and size is: ", n));
    }
    n = i + 1;
  }
  std::vector<int64_t> dims = {n};
  dims.insert(dims.end(), elem.begin(), elem.end());
  if (!buf.defined()) {
    buf = zeros(dims, dtype_);
  } else if (buf.shape().dim(0) < n) {
    std::vector<int64_t> extra = dims;
    extra[0] = n - buf.shape().dim(0);
    buf = concat({buf, zeros(extra, dtype_)}, 0);
  }
  Tensor idx = Tensor::from_vector<int32_t>({static_cast<int32_t>(i)}, Shape({1, 1}));
  return with_buffer(tensor_scatter_nd_update(buf, idx, expand_dims(value, 0)));
}

TensorArray TensorArray::traced_write(const Tensor& i, const Tensor& value,
                                      std::source_location loc) const {
  Tensor row = expand_dims(value, 0);
  Tensor at = reshape(i, {1, 1});
  // A known size and element shape: a fixed [size, element...] buffer updated row by row.
  std::optional<Shape> fixed = fixed_shape();
  if (fixed && (!buffer_.defined() || buffer_.partial_shape() == PartialShape(*fixed))) {
    return with_buffer(tensor_scatter_nd_update(loop_buffer(), at, row));
  }
  Tensor buf = loop_buffer();
  // Appending row i when the array holds exactly i rows; gather fails (naming the index) for a
  // write past the end.
  auto append = [&, buf] {
    Tensor n = rows_of(buf);
    return concat({buf, gather(row, reshape(subtract(i, n), {1}))}, 0);
  };
  auto first = [&] { return gather(row, reshape(i, {1})); };
  Tensor updated;
  if (!buffer_.defined() || maybe_empty_ || !buf.partial_shape().rank_known()) {
    // Before the first write the buffer is an empty placeholder of another rank.
    Tensor empty = equal(tfcc::size(buf), 0);
    updated = cond(
        empty, [&] { return first(); },
        [&] {
          return cond(
              less(i, rows_of(buf)), [&] { return tensor_scatter_nd_update(buf, at, row); }, append,
              loc);
        },
        loc);
  } else {
    updated = cond(
        less(i, rows_of(buf)), [&] { return tensor_scatter_nd_update(buf, at, row); }, append, loc);
  }
  return with_buffer(updated);
}

Tensor TensorArray::read(int64_t index, std::source_location loc) const {
  return read(Tensor::scalar<int32_t>(static_cast<int32_t>(index)), loc);
}

Tensor TensorArray::read(const Tensor& index, std::source_location loc) const {
  Tensor i = as_index(index);
  if (!buffer_.defined()) {
    throw InvalidArgumentError(internal::str_cat("Could not read from TensorArray index ",
                                                 i.is_symbolic() ? "i" : i.values_string(),
                                                 " because it has not yet been written to"));
  }
  return gather(buffer_, i, 0, 0, loc);
}

Tensor TensorArray::stack(std::source_location loc) const {
  if (!buffer_.defined()) {
    if (options_.element_shape && options_.element_shape->is_fully_defined() &&
        !size_.is_symbolic()) {
      std::vector<int64_t> dims = {size_.item<int64_t>()};
      for (int64_t d : options_.element_shape->dims()) dims.push_back(d);
      return zeros(dims, dtype_, loc);
    }
    return identity(loop_buffer(), loc);
  }
  return identity(buffer_, loc);
}

TensorArray TensorArray::unstack(const Tensor& value, std::source_location loc) const {
  TFCC_CHECK_ARG(value.defined() && value.dtype() == dtype_, "TensorArray.unstack needs a ",
                 dtype_name(dtype_), " tensor");
  TFCC_CHECK_ARG(!value.partial_shape().rank_known() || value.partial_shape().rank() >= 1,
                 "TensorArray.unstack needs a tensor of rank >= 1");
  TensorArray r = with_buffer(identity(value, loc));
  r.size_ = rows_of(value);
  return r;
}

Tensor TensorArray::size(std::source_location loc) const {
  if (!buffer_.defined()) return identity(size_, loc);
  return maximum(size_, rows_of(buffer_), loc);
}

namespace internal {

bool eager_truth(const Tensor& pred, const char* what, std::source_location loc) {
  TFCC_CHECK_ARG(pred.num_elements() == 1, what, " at ", graph::location_string(loc),
                 " needs a scalar predicate, got shape ", pred.shape().to_string());
  return pred.item<bool>();
}

}  // namespace internal
}  // namespace tfcc
