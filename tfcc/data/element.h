// Elements of a tfcc::data::Dataset: a flat tuple of tensors, and the spec (dtype + static shape)
// of each component.
//
//   tfcc::data::Element e{image, label};          // a (image, label) pair
//   tfcc::data::ElementSpec spec = dataset.element_spec();
//   spec[0].dtype;                                 // uint8
//   spec[0].shape;                                 // (28, 28)
//
// TensorFlow elements may be nested structures; tfcc flattens them to a tuple: the components a
// Python user would unpack (`for x, y in dataset`) are `element[0]`, `element[1]`.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tfcc/core/shape.h"
#include "tfcc/core/tensor.h"

namespace tfcc::data {

/// One element: its components in order.
using Element = std::vector<Tensor>;

/// The type of one component, like tf.TensorSpec.
struct TensorSpec {
  DType dtype = float32;
  PartialShape shape;  ///< unknown dims are -1 (None)
  bool operator==(const TensorSpec& o) const { return dtype == o.dtype && shape == o.shape; }
  /// "TensorSpec(shape=(28, 28), dtype=uint8)".
  std::string to_string() const;
};

/// The type of an element: one spec per component.
using ElementSpec = std::vector<TensorSpec>;

/// "(TensorSpec(...), TensorSpec(...))".
std::string spec_string(const ElementSpec& spec);

/// The spec of a concrete element.
ElementSpec spec_of(const Element& element);

/// The most specific spec compatible with both (dims that differ become unknown). Throws
/// InvalidArgumentError naming `what` if the component counts or dtypes differ.
ElementSpec most_specific_compatible(const ElementSpec& a, const ElementSpec& b,
                                     const std::string& what);

/// Prepends a batch dimension (`batch` or -1 for unknown) to every component.
ElementSpec batched_spec(const ElementSpec& spec, int64_t batch);

/// tfcc has no string dtype: file names and raw records travel as 1-D uint8 tensors holding the
/// bytes. `bytes_tensor("a.csv")` makes one; `tensor_bytes(t)` reads it back.
Tensor bytes_tensor(std::string_view bytes);
/// The bytes of a 1-D uint8 tensor (InvalidArgumentError for any other tensor).
std::string tensor_bytes(const Tensor& t);

namespace internal {

/// Multiplies sizes, throwing InvalidArgumentError on overflow.
int64_t checked_mul(int64_t a, int64_t b, const char* what);

/// Row `i` of `t` along axis 0, copied into a new tensor of shape t.shape[1:].
Tensor slice_row(const Tensor& t, int64_t i);

/// Stacks same-shaped tensors along a new axis 0 (the shapes are checked by the caller).
Tensor stack_rows(const std::vector<Tensor>& rows);

/// Bytes of one row of `t` along axis 0.
size_t row_bytes(const Tensor& t);

}  // namespace internal
}  // namespace tfcc::data
#pragma GCC visibility pop
