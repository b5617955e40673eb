// tfcc::Tensor: a cheap, value-semantic handle to an immutable n-dimensional array.
//
//   tfcc::Tensor t = tfcc::Tensor::from_vector<float>({1, 2, 3, 4}, {2, 2});
//   t.shape();                 // (2, 2)
//   t.dtype();                 // float32
//   t.to_vector<float>();      // {1, 2, 3, 4}
//   std::cout << t;            // tf.Tensor(
//                              // [[1. 2.]
//                              //  [3. 4.]], shape=(2, 2), dtype=float32)
//
//   tfcc::Tensor s = tfcc::Tensor::from_strings({"ab", "c"});   // dtype string, shape (2,)
//   s.to_vector<std::string>();   // {"ab", "c"}; std::cout << s prints [b'ab' b'c']
//
// Ownership (the one model for every user-facing tfcc object): copying a Tensor copies a handle;
// both copies see the same elements, which never change. Ops return new tensors. Variables are the
// only mutable state.
//
// A tensor is either concrete (it has a buffer) or symbolic: a placeholder for a value inside a
// function being traced. Symbolic tensors carry a SymbolicValue supplied by the graph layer.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstring>
#include <memory>
#include <ostream>
#include <source_location>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "tfcc/core/buffer.h"
#include "tfcc/core/device.h"
#include "tfcc/core/dtype.h"
#include "tfcc/core/index.h"
#include "tfcc/core/shape.h"
#include "tfcc/platform/errors.h"

namespace tfcc {

/// What a symbolic tensor stands for; implemented by the graph layer.
class SymbolicValue {
 public:
  virtual ~SymbolicValue() = default;
  /// The static shape known at trace time.
  virtual PartialShape shape() const = 0;
  /// Where the value came from, for error messages ("created at f.cc:12 in the trace of
  /// function 'f'"); may be empty.
  virtual std::string origin() const { return {}; }
  /// Raises the error for converting this value to a C++ value at `loc` (item(), to_vector()):
  /// a trace has no value yet. The graph layer names the user's line and says what to use.
  [[noreturn]] virtual void conversion_error(const std::source_location& loc) const;
};

/// Shared state behind a Tensor handle.
struct TensorImpl {
  DType dtype = DType::kFloat32;
  Shape shape;
  std::shared_ptr<Buffer> buffer;                 ///< null for symbolic tensors
  std::shared_ptr<const SymbolicValue> symbolic;  ///< null for concrete tensors
  uint64_t id = 0;                                ///< unique per tensor, for tapes and traces
};

/// A handle to an immutable n-dimensional array.
class Tensor {
 public:
  /// A null handle; `defined()` is false.
  Tensor() = default;

  /// An uninitialised concrete tensor (kernels fill it before anyone else sees it).
  static Tensor empty(DType dtype, const Shape& shape, Device& device = cpu_device());
  /// A concrete tensor that shares `buffer` (reshape uses this).
  static Tensor with_buffer(DType dtype, const Shape& shape, std::shared_ptr<Buffer> buffer);
  /// A symbolic tensor for tracing.
  static Tensor symbolic(DType dtype, std::shared_ptr<const SymbolicValue> value);

  /// A tensor holding a copy of `values` with `shape` (default: 1-D of values.size()).
  template <typename T>
  static Tensor from_vector(const std::vector<T>& values, const Shape& shape);
  template <typename T>
  static Tensor from_vector(const std::vector<T>& values) {
    return from_vector(values, Shape{static_cast<int64_t>(values.size())});
  }
  /// A rank-0 tensor.
  template <typename T>
  static Tensor scalar(T value) {
    return from_vector(std::vector<T>{value}, Shape{});
  }
  /// A string tensor holding copies of `values` with `shape` (default: 1-D of values.size()).
  static Tensor from_strings(const std::vector<std::string>& values, const Shape& shape);
  static Tensor from_strings(const std::vector<std::string>& values) {
    return from_strings(values, Shape{static_cast<int64_t>(values.size())});
  }
  /// A string tensor whose elements point into `storage` (which the tensor keeps alive);
  /// kernels producing strings use this to avoid a copy.
  static Tensor from_string_storage(std::shared_ptr<const std::vector<std::string>> storage,
                                    const Shape& shape);
  /// A tensor holding a copy of `bytes` of raw element data (numeric dtypes only).
  static Tensor from_bytes(DType dtype, const Shape& shape, const void* data, size_t bytes);

  bool defined() const { return impl_ != nullptr; }
  bool is_symbolic() const { return impl().symbolic != nullptr; }
  DType dtype() const { return impl().dtype; }
  /// The full shape; for a symbolic tensor with unknown dimensions, FailedPreconditionError.
  const Shape& shape() const;
  /// The shape as known statically (always works; symbolic tensors may have unknown dims).
  PartialShape partial_shape() const;
  int rank() const;
  int64_t num_elements() const { return shape().num_elements(); }
  size_t nbytes() const { return static_cast<size_t>(num_elements()) * dtype_size(dtype()); }
  uint64_t id() const { return impl().id; }
  const std::shared_ptr<Buffer>& buffer() const { return impl().buffer; }
  const std::shared_ptr<const SymbolicValue>& symbolic_value() const { return impl().symbolic; }

  /// Raw element memory (concrete tensors only).
  const void* raw_data() const;
  /// Writable memory, for kernels filling a tensor they just created.
  void* mutable_raw_data() const { return const_cast<void*>(raw_data()); }
  /// Typed element pointer; T must be the tensor's C++ element type exactly.
  template <typename T>
  const T* data() const;
  template <typename T>
  T* mutable_data() const {
    return const_cast<T*>(data<T>());
  }

  /// The single element of a one-element tensor, converted to T. On a symbolic tensor (inside a
  /// trace) this is the C++ `if (x > 0)` mistake: the error names the caller's line and says to
  /// use tfcc::cond / tfcc::while_loop.
  template <typename T>
  T item(std::source_location loc = std::source_location::current()) const;
  /// All elements in row-major order, converted to T (symbolic tensors: as item()). T =
  /// std::string (or std::string_view, valid while the tensor lives) for string tensors.
  template <typename T>
  std::vector<T> to_vector(std::source_location loc = std::source_location::current()) const;

  /// x[indices...]: x(0), x(all, Slice(1, none)), x(ellipsis, newaxis). Implemented by the
  /// array op family (StridedSlice), so it traces and differentiates like any op.
  template <typename... I>
  Tensor operator()(I&&... indices) const {
    return index_impl({Index(std::forward<I>(indices))...});
  }
  Tensor index_impl(const std::vector<Index>& indices) const;

  /// TensorFlow's print form: tf.Tensor(5, shape=(), dtype=int32).
  std::string to_string() const;
  /// Just the values, as NumPy prints them: [[1. 2.] [3. 4.]].
  std::string values_string() const;

 private:
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}
  const TensorImpl& impl() const;
  void check_dtype(DType expected, const char* what) const;

  std::shared_ptr<TensorImpl> impl_;
};

std::ostream& operator<<(std::ostream& os, const Tensor& t);

template <>
inline Tensor Tensor::from_vector<std::string>(const std::vector<std::string>& values,
                                               const Shape& shape) {
  return from_strings(values, shape);
}

/// Converts one element of any dtype to T.
template <typename T, typename S>
T convert_element(S v) {
  if constexpr (std::is_same_v<S, BFloat16>) {
    return convert_element<T>(static_cast<float>(v));
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return BFloat16(static_cast<float>(v));
  } else if constexpr (std::is_same_v<T, bool>) {
    return v != S{};
  } else {
    return static_cast<T>(v);
  }
}

template <typename T>
Tensor Tensor::from_vector(const std::vector<T>& values, const Shape& shape) {
  TFCC_CHECK_ARG(static_cast<int64_t>(values.size()) == shape.num_elements(), "Cannot make a ",
                 shape.to_string(), " tensor from ", values.size(), " values");
  Tensor t = empty(dtype_of<T>(), shape);
  T* out = t.mutable_data<T>();
  for (size_t i = 0; i < values.size(); ++i) out[i] = values[i];
  return t;
}

template <typename T>
const T* Tensor::data() const {
  check_dtype(dtype_of<T>(), "data<T>()");
  return static_cast<const T*>(raw_data());
}

template <typename T>
T Tensor::item(std::source_location loc) const {
  if (defined() && is_symbolic()) symbolic_value()->conversion_error(loc);
  TFCC_CHECK_ARG(num_elements() == 1, "item() needs a tensor with exactly one element, got shape ",
                 shape().to_string());
  if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, std::string_view>) {
    check_dtype(DType::kString, "item<std::string>()");
    return T(data<TString>()[0].view());
  } else {
    return visit_dtype(
        dtype(),
        [&]<typename S>() { return convert_element<T>(static_cast<const S*>(raw_data())[0]); },
        "item()");
  }
}

template <typename T>
std::vector<T> Tensor::to_vector(std::source_location loc) const {
  if (defined() && is_symbolic()) symbolic_value()->conversion_error(loc);
  std::vector<T> out(static_cast<size_t>(num_elements()));
  if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, std::string_view>) {
    check_dtype(DType::kString, "to_vector<std::string>()");
    const TString* in = data<TString>();
    for (size_t i = 0; i < out.size(); ++i) out[i] = T(in[i].view());
  } else {
    visit_dtype(
        dtype(),
        [&]<typename S>() {
          const S* in = static_cast<const S*>(raw_data());
          for (size_t i = 0; i < out.size(); ++i) out[i] = convert_element<T>(in[i]);
        },
        "to_vector()");
  }
  return out;
}

}  // namespace tfcc
#pragma GCC visibility pop
