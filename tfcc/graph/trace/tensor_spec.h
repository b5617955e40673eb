// TensorSpec: the dtype and (partial) shape a traced function accepts for one tensor argument.
//
//   auto f = tfcc::function(fn, {.input_signature = {{tfcc::PartialShape({-1, 3})}}});
//   f.get_concrete_function(tfcc::TensorSpec{{-1, -1, 3}, tfcc::float32});
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <string>

#include "tfcc/core/dtype.h"
#include "tfcc/core/shape.h"

namespace tfcc {

/// Describes a tensor argument: unknown dimensions are -1 (None), an unknown rank is
/// PartialShape::unknown_rank().
struct TensorSpec {
  PartialShape shape;
  DType dtype = float32;
  std::string name;

  /// TensorFlow's form: TensorSpec(shape=(None, 3), dtype=tf.float32, name=None).
  std::string to_string() const;
  bool operator==(const TensorSpec&) const = default;
};

}  // namespace tfcc
#pragma GCC visibility pop
