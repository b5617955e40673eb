// Conversions between Python objects and tfcc values, shared by the binding's files.
//
//   tfcc::Operand o = tfcc::py::operand(obj);   // Tensor, Variable, bool/int/float or array-like
//   nb::object arr = tfcc::py::view(t);          // a read-only NumPy view sharing t's buffer
#pragma once

#include <nanobind/nanobind.h>

#include <optional>
#include <vector>

#include "tfcc/tfcc.h"

namespace tfcc::py {

namespace nb = nanobind;

/// tfcc::DType from its enum value (the Python DType object carries it as `_enum`) or an int.
DType dtype_arg(nb::handle h);
/// The tensor a Python value stands for: a Tensor, a Variable (read) or anything tf.constant
/// accepts (converted by the Python layer's constant(), registered at import).
Tensor to_tensor(nb::handle h);
/// The operand of a binary operator: Python scalars stay scalars, so they adopt the other
/// side's dtype as in TensorFlow. Returns false when `h` cannot be converted at all.
bool to_operand(nb::handle h, std::optional<Operand>& out);
/// A read-only NumPy array that shares t's buffer (bfloat16: a float32 copy).
nb::object view(const Tensor& t);
/// A concrete tensor copied from a C-contiguous NumPy array of a tfcc dtype.
Tensor from_numpy(nb::handle array, DType dtype);
/// The Python shape tuple (None for dimensions a trace does not know; None for unknown rank).
nb::object shape_tuple(const Tensor& t);
/// Registers the Python-level converter used by to_tensor for non-tensor values.
void set_converter(nb::object fn);

}  // namespace tfcc::py
