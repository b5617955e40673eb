#include "tfcc/core/tensor.h"

#include <atomic>

namespace tfcc {
namespace {
uint64_t next_tensor_id() {
  static std::atomic<uint64_t> counter{1};
  return counter.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

void SymbolicValue::conversion_error(const std::source_location& loc) const {
  throw FailedPreconditionError(internal::str_cat(
      "A symbolic tensor (", origin(), ") was converted to a C++ value at ", loc.file_name(), ":",
      loc.line(),
      "; inside a traced function its value exists only when the function runs. "
      "Use tfcc::cond / tfcc::while_loop for control flow that depends on a tensor's value"));
}

Tensor Tensor::empty(DType dtype, const Shape& shape, Device& device) {
  auto impl = std::make_shared<TensorImpl>();
  impl->dtype = dtype;
  impl->shape = shape;
  size_t bytes = static_cast<size_t>(
      checked_mul(shape.num_elements(), static_cast<int64_t>(dtype_size(dtype))));
  impl->buffer = std::make_shared<Buffer>(device.allocator(), bytes);
  // String elements start as empty strings, so a kernel that leaves one unset cannot hand out a
  // dangling handle.
  if (dtype == DType::kString && bytes) std::memset(impl->buffer->data(), 0, bytes);
  impl->id = next_tensor_id();
  return Tensor(std::move(impl));
}

Tensor Tensor::from_strings(const std::vector<std::string>& values, const Shape& shape) {
  TFCC_CHECK_ARG(static_cast<int64_t>(values.size()) == shape.num_elements(), "Cannot make a ",
                 shape.to_string(), " tensor from ", values.size(), " strings");
  return from_string_storage(std::make_shared<const std::vector<std::string>>(values), shape);
}

Tensor Tensor::from_string_storage(std::shared_ptr<const std::vector<std::string>> storage,
                                   const Shape& shape) {
  TFCC_CHECK_ARG(
      storage != nullptr && static_cast<int64_t>(storage->size()) == shape.num_elements(),
      "Cannot make a ", shape.to_string(), " string tensor from ", storage ? storage->size() : 0,
      " strings");
  Tensor t = empty(DType::kString, shape);
  TString* out = t.mutable_data<TString>();
  for (size_t i = 0; i < storage->size(); ++i) out[i].str = &(*storage)[i];
  t.buffer()->add_owner(std::move(storage));
  return t;
}

Tensor Tensor::with_buffer(DType dtype, const Shape& shape, std::shared_ptr<Buffer> buffer) {
  TFCC_REQUIRE(InternalError, buffer != nullptr, "Tensor::with_buffer needs a buffer");
  TFCC_REQUIRE(InternalError,
               buffer->bytes() >= static_cast<size_t>(shape.num_elements()) * dtype_size(dtype),
               "Buffer of ", buffer->bytes(), " bytes too small for ", dtype_name(dtype), " ",
               shape.to_string());
  auto impl = std::make_shared<TensorImpl>();
  impl->dtype = dtype;
  impl->shape = shape;
  impl->buffer = std::move(buffer);
  impl->id = next_tensor_id();
  return Tensor(std::move(impl));
}

Tensor Tensor::symbolic(DType dtype, std::shared_ptr<const SymbolicValue> value) {
  auto impl = std::make_shared<TensorImpl>();
  impl->dtype = dtype;
  PartialShape ps = value->shape();
  if (ps.is_fully_defined()) impl->shape = ps.to_shape();
  impl->symbolic = std::move(value);
  impl->id = next_tensor_id();
  return Tensor(std::move(impl));
}

Tensor Tensor::from_bytes(DType dtype, const Shape& shape, const void* data, size_t bytes) {
  if (dtype == DType::kString) unsupported_dtype(dtype, "Tensor::from_bytes");
  size_t need = static_cast<size_t>(
      checked_mul(shape.num_elements(), static_cast<int64_t>(dtype_size(dtype))));
  TFCC_CHECK_ARG(bytes == need, "Expected ", need, " bytes for a ", dtype_name(dtype), " ",
                 shape.to_string(), " tensor, got ", bytes);
  Tensor t = empty(dtype, shape);
  if (bytes) std::memcpy(t.mutable_raw_data(), data, bytes);
  return t;
}

const TensorImpl& Tensor::impl() const {
  TFCC_REQUIRE(FailedPreconditionError, impl_ != nullptr,
               "Use of an undefined (default-constructed) Tensor");
  return *impl_;
}

const Shape& Tensor::shape() const {
  const TensorImpl& i = impl();
  if (i.symbolic && !i.symbolic->shape().is_fully_defined()) {
    throw FailedPreconditionError("The shape " + i.symbolic->shape().to_string() +
                                  " of this symbolic tensor is not fully known; use "
                                  "partial_shape() or tfcc::shape(t) for the runtime shape");
  }
  return i.shape;
}

PartialShape Tensor::partial_shape() const {
  const TensorImpl& i = impl();
  return i.symbolic ? i.symbolic->shape() : PartialShape(i.shape);
}

int Tensor::rank() const { return partial_shape().rank(); }

const void* Tensor::raw_data() const {
  const TensorImpl& i = impl();
  TFCC_REQUIRE(FailedPreconditionError, i.buffer != nullptr,
               "This is a symbolic tensor of a function being traced; its value exists only when "
               "the function runs");
  return i.buffer->data();
}

void Tensor::check_dtype(DType expected, const char* what) const {
  TFCC_CHECK_ARG(dtype() == expected, what, " asked for ", dtype_name(expected), " elements of a ",
                 dtype_name(dtype()), " tensor");
}

std::ostream& operator<<(std::ostream& os, const Tensor& t) { return os << t.to_string(); }

}  // namespace tfcc
