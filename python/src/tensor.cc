// tfcc.Tensor: the eager tensor type, with TensorFlow's Python operators and indexing. The
// operators call tfcc's C++ operators directly, so x + y costs one dispatch and no Python frame.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <optional>
#include <vector>

#include "convert.h"

namespace tfcc::py {
namespace {

using BinaryFn = Tensor (*)(const Operand&, const Operand&);

// A binary operator slot: converts the other operand, returns NotImplemented when it cannot.
template <BinaryFn fn, bool reflected>
nb::object binary(const Tensor& self, nb::handle other) {
  std::optional<Operand> o;
  if (!to_operand(other, o)) return nb::borrow(Py_NotImplemented);
  if (reflected) return nb::cast(fn(*o, Operand(self)));
  return nb::cast(fn(Operand(self), *o));
}

Tensor op_add(const Operand& x, const Operand& y) { return add(x, y); }
Tensor op_sub(const Operand& x, const Operand& y) { return subtract(x, y); }
Tensor op_mul(const Operand& x, const Operand& y) { return multiply(x, y); }
Tensor op_div(const Operand& x, const Operand& y) { return divide(x, y); }
Tensor op_floordiv(const Operand& x, const Operand& y) { return floordiv(x, y); }
Tensor op_mod(const Operand& x, const Operand& y) { return floormod(x, y); }
Tensor op_pow(const Operand& x, const Operand& y) { return pow(x, y); }
Tensor op_lt(const Operand& x, const Operand& y) { return less(x, y); }
Tensor op_le(const Operand& x, const Operand& y) { return less_equal(x, y); }
Tensor op_gt(const Operand& x, const Operand& y) { return greater(x, y); }
Tensor op_ge(const Operand& x, const Operand& y) { return greater_equal(x, y); }
Tensor op_and(const Operand& x, const Operand& y) { return logical_and(x, y); }
Tensor op_or(const Operand& x, const Operand& y) { return logical_or(x, y); }
Tensor op_xor(const Operand& x, const Operand& y) { return logical_xor(x, y); }
Tensor op_matmul(const Operand& x, const Operand& y) {
  return matmul(x.as_tensor(), y.as_tensor());
}

// == and != are element-wise (TF2); operands that do not broadcast compare unequal, and
// values that are not tensors at all (None, objects) give Python's False / True, as in TF.
template <bool equal_op>
nb::object compare(const Tensor& self, nb::handle other) {
  std::optional<Operand> o;
  if (!to_operand(other, o)) return nb::bool_(!equal_op);
  try {
    return nb::cast(equal_op ? equal(Operand(self), *o) : not_equal(Operand(self), *o));
  } catch (const InvalidArgumentError&) {
    return nb::bool_(!equal_op);
  }
}

int64_t index_int(nb::handle h) {
  Tensor* t = nullptr;
  if (nb::try_cast<Tensor*>(h, t) && t) {
    TFCC_CHECK_ARG(is_integer(t->dtype()) && t->rank() == 0,
                   "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
                   "tf.int32/tf.int64 tensors are valid indices, got ",
                   t->to_string());
    return t->item<int64_t>();
  }
  if (!PyIndex_Check(h.ptr()) || PyBool_Check(h.ptr())) {
    throw nb::type_error(
        "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
        "tf.int32/tf.int64 tensors are valid indices");
  }
  return nb::cast<int64_t>(nb::handle(PyNumber_Index(h.ptr())));
}

std::optional<int64_t> slice_part(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  return index_int(h);
}

Index to_index(nb::handle h) {
  if (h.is_none()) return Index(newaxis);
  if (h.ptr() == Py_Ellipsis) return Index(ellipsis);
  if (PySlice_Check(h.ptr())) {
    auto* s = reinterpret_cast<PySliceObject*>(h.ptr());
    return Index(Slice(slice_part(s->start), slice_part(s->stop), slice_part(s->step)));
  }
  return Index(index_int(h));
}

Tensor getitem(const Tensor& self, nb::handle key) {
  std::vector<Index> idx;
  if (PyTuple_Check(key.ptr())) {
    for (nb::handle h : nb::borrow<nb::tuple>(key)) idx.push_back(to_index(h));
  } else {
    idx.push_back(to_index(key));
  }
  return self.index_impl(idx);
}

}  // namespace

void bind_tensor(nb::module_& m) {
  nb::class_<Tensor>(m, "Tensor", nb::dynamic_attr())
      .def_prop_ro("_dtype", [](const Tensor& t) { return static_cast<int>(t.dtype()); })
      .def_prop_ro("_shape", &shape_tuple)
      .def_prop_ro("ndim", [](const Tensor& t) { return t.partial_shape().rank(); })
      .def("_view", &view)
      .def("__str__", &Tensor::to_string)
      .def("_id", &Tensor::id)
      .def("__add__", &binary<op_add, false>, nb::arg("other").none())
      .def("__radd__", &binary<op_add, true>, nb::arg("other").none())
      .def("__sub__", &binary<op_sub, false>, nb::arg("other").none())
      .def("__rsub__", &binary<op_sub, true>, nb::arg("other").none())
      .def("__mul__", &binary<op_mul, false>, nb::arg("other").none())
      .def("__rmul__", &binary<op_mul, true>, nb::arg("other").none())
      .def("__truediv__", &binary<op_div, false>, nb::arg("other").none())
      .def("__rtruediv__", &binary<op_div, true>, nb::arg("other").none())
      .def("__floordiv__", &binary<op_floordiv, false>, nb::arg("other").none())
      .def("__rfloordiv__", &binary<op_floordiv, true>, nb::arg("other").none())
      .def("__mod__", &binary<op_mod, false>, nb::arg("other").none())
      .def("__rmod__", &binary<op_mod, true>, nb::arg("other").none())
      .def("__pow__", &binary<op_pow, false>, nb::arg("other").none())
      .def("__rpow__", &binary<op_pow, true>, nb::arg("other").none())
      .def("__matmul__", &binary<op_matmul, false>, nb::arg("other").none())
      .def("__rmatmul__", &binary<op_matmul, true>, nb::arg("other").none())
      .def("__lt__", &binary<op_lt, false>, nb::arg("other").none())
      .def("__le__", &binary<op_le, false>, nb::arg("other").none())
      .def("__gt__", &binary<op_gt, false>, nb::arg("other").none())
      .def("__ge__", &binary<op_ge, false>, nb::arg("other").none())
      .def("__and__", &binary<op_and, false>, nb::arg("other").none())
      .def("__rand__", &binary<op_and, true>, nb::arg("other").none())
      .def("__or__", &binary<op_or, false>, nb::arg("other").none())
      .def("__ror__", &binary<op_or, true>, nb::arg("other").none())
      .def("__xor__", &binary<op_xor, false>, nb::arg("other").none())
      .def("__rxor__", &binary<op_xor, true>, nb::arg("other").none())
      .def("__eq__", &compare<true>, nb::arg("other").none())
      .def("__ne__", &compare<false>, nb::arg("other").none())
      .def("__neg__", [](const Tensor& t) { return negative(t); })
      .def("__pos__", [](const Tensor& t) { return t; })
      .def("__abs__", [](const Tensor& t) { return abs(t); })
      .def("__invert__", [](const Tensor& t) { return logical_not(t); })
      .def("__getitem__", &getitem);
}

}  // namespace tfcc::py
