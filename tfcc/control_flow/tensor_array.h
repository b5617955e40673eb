// TensorArray: a list of same-dtype tensors written one index at a time, typically inside a loop
// (tf.TensorArray). Like TF2's, it is a value: write() and unstack() return a new TensorArray,
// which a loop carries as a loop variable.
//
//   tfcc::TensorArray ta(tfcc::float32, 3);
//   for (int i = 0; i < 3; ++i) ta = ta.write(i, tfcc::fill({2}, i));
//   ta.stack();   // [[0 0] [1 1] [2 2]]
//   ta.read(1);   // [1 1]
//   ta.size();    // 3
//
// The elements live in one tensor of shape [rows, element...]. With a size known when the first
// element is written, writes update that tensor in place of a row; inside a traced loop whose
// element shape is only known at run time, the first write makes it and later writes append or
// replace rows (writes must then come in index order the first time, as the usual loop does).
// dynamic_size lets writes past the end grow the array. Gradients flow through write / read /
// stack / unstack; through a traced loop they need the fixed-shape form (size and element shape
// known at trace time), since the backward loop replays iterations from per-iteration copies of
// the loop tensors, which must keep one shape.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <source_location>

#include "tfcc/core/tensor.h"
#include "tfcc/graph/trace/nest.h"

namespace tfcc {

/// Options of a TensorArray.
struct TensorArrayOptions {
  /// Writes past the end grow the array (otherwise InvalidArgumentError).
  bool dynamic_size = false;
  /// The elements' shape, when known in advance.
  std::optional<PartialShape> element_shape;
};

/// A functional list of tensors for loops.
class TensorArray {
 public:
  TensorArray() = default;
  /// An array of `size` elements of `dtype` (`size` an int32 scalar, maybe symbolic).
  TensorArray(DType dtype, const Tensor& size, TensorArrayOptions options = {});
  TensorArray(DType dtype, int64_t size, TensorArrayOptions options = {});

  /// A new array with element `index` set to `value`.
  TensorArray write(const Tensor& index, const Tensor& value,
                    std::source_location loc = std::source_location::current()) const;
  TensorArray write(int64_t index, const Tensor& value,
                    std::source_location loc = std::source_location::current()) const;
  /// Element `index`.
  Tensor read(const Tensor& index,
              std::source_location loc = std::source_location::current()) const;
  Tensor read(int64_t index, std::source_location loc = std::source_location::current()) const;
  /// All elements stacked along a new first axis.
  Tensor stack(std::source_location loc = std::source_location::current()) const;
  /// A new array holding value[0], value[1], ... as its elements.
  TensorArray unstack(const Tensor& value,
                      std::source_location loc = std::source_location::current()) const;
  /// The number of elements (int32 scalar).
  Tensor size(std::source_location loc = std::source_location::current()) const;
  DType dtype() const { return dtype_; }
  bool dynamic_size() const { return options_.dynamic_size; }

  /// The tensor holding the elements (undefined before the first write); for Nest.
  const Tensor& buffer() const { return buffer_; }
  /// This array with another element tensor; for Nest.
  TensorArray with_buffer(Tensor buffer) const;
  /// The element tensor a loop carries: the buffer, or an empty placeholder before any write
  /// (of the elements' rank plus one once a write has shown it, else of rank 1).
  Tensor loop_buffer() const;
  /// The element shape seen by writes so far (shared by the copies of one array).
  std::optional<PartialShape> written_element_shape() const { return *written_; }
  /// Marks an array whose buffer may still be the empty placeholder (a loop variable).
  TensorArray as_loop_variable(Tensor buffer) const;
  /// The [size, element...] shape of the buffer when size and element shape are known now and
  /// the array cannot grow (it is then one fixed-shape tensor).
  std::optional<Shape> fixed_shape() const;

 private:
  TensorArray traced_write(const Tensor& index, const Tensor& value,
                           std::source_location loc) const;
  TensorArray eager_write(int64_t index, const Tensor& value, std::source_location loc) const;

  DType dtype_ = float32;
  Tensor size_;    // int32 scalar
  Tensor buffer_;  // [rows, element...]
  TensorArrayOptions options_;
  bool maybe_empty_ = false;  // buffer_ may be the placeholder (carried by a loop)
  std::shared_ptr<std::optional<PartialShape>> written_ =
      std::make_shared<std::optional<PartialShape>>();
};

/// TensorArrays in loop variables and results: one tensor each (its elements); across loop
/// iterations its row count and, before the first write, its rank may change.
template <>
struct Nest<TensorArray> {
  static void flatten(const TensorArray& ta, std::vector<Tensor>& out) {
    out.push_back(ta.loop_buffer());
  }
  static void invariants(const TensorArray& ta, std::vector<PartialShape>& out) {
    PartialShape s = ta.loop_buffer().partial_shape();
    if (!ta.buffer().defined() && ta.fixed_shape()) {
      out.push_back(*ta.fixed_shape());
      return;
    }
    if (!ta.buffer().defined()) {
      // Before the first write: any shape of the elements' rank (once a write has shown it).
      auto w = ta.written_element_shape();
      if (!w || !w->rank_known()) {
        out.push_back(PartialShape::unknown_rank());
      } else {
        out.push_back(PartialShape(std::vector<int64_t>(static_cast<size_t>(w->rank() + 1), -1)));
      }
      return;
    }
    if (!s.rank_known()) {
      out.push_back(PartialShape::unknown_rank());
      return;
    }
    std::vector<int64_t> dims = s.dims();
    dims[0] = -1;
    out.push_back(PartialShape(dims));
  }
  static TensorArray unflatten(const TensorArray& like, std::span<const Tensor>& in) {
    Tensor t = Nest<Tensor>::unflatten(Tensor(), in);
    return like.buffer().defined() || like.fixed_shape() ? like.with_buffer(t)
                                                         : like.as_loop_variable(t);
  }
};

}  // namespace tfcc
#pragma GCC visibility pop
