// Python <-> tfcc conversions: dtypes, operands, NumPy views.
#include "convert.h"

#include <nanobind/ndarray.h>

#include <cstdint>
#include <limits>
#include <memory>

namespace tfcc::py {
namespace {

nb::object& converter() {
  static nb::object* fn = new nb::object();  // leaked: lives as long as the interpreter
  return *fn;
}

nb::dlpack::dtype dl_dtype(DType d) {
  switch (d) {
    case DType::kFloat32:
    case DType::kBFloat16:
      return nb::dtype<float>();
    case DType::kFloat64:
      return nb::dtype<double>();
    case DType::kInt32:
      return nb::dtype<int32_t>();
    case DType::kInt64:
      return nb::dtype<int64_t>();
    case DType::kUInt8:
      return nb::dtype<uint8_t>();
    case DType::kBool:
      return nb::dtype<bool>();
  }
  return nb::dtype<float>();
}

}  // namespace

void set_converter(nb::object fn) { converter() = std::move(fn); }

DType dtype_arg(nb::handle h) {
  nb::handle v = h;
  nb::object attr;
  if (nb::hasattr(h, "_enum")) {
    attr = h.attr("_enum");
    v = attr;
  }
  int64_t e = nb::cast<int64_t>(v);
  if (e < 0 || e >= kNumDTypes)
    throw InvalidArgumentError(internal::str_cat("unknown dtype enum ", e));
  return static_cast<DType>(e);
}

Tensor to_tensor(nb::handle h) {
  Tensor* t = nullptr;
  if (nb::try_cast<Tensor*>(h, t) && t) return *t;
  Variable* v = nullptr;
  if (nb::try_cast<Variable*>(h, v) && v) return v->read_value();
  if (!converter().is_valid()) throw InternalError("tfcc: the Python converter is not registered");
  nb::object r = converter()(h);
  return nb::cast<Tensor>(r);
}

bool to_operand(nb::handle h, std::optional<Operand>& out) {
  Tensor* t = nullptr;
  if (nb::try_cast<Tensor*>(h, t) && t) {
    out.emplace(*t);
    return true;
  }
  Variable* v = nullptr;
  if (nb::try_cast<Variable*>(h, v) && v) {
    out.emplace(v->read_value());
    return true;
  }
  if (PyBool_Check(h.ptr())) {
    out.emplace(h.ptr() == Py_True);
    return true;
  }
  if (PyLong_CheckExact(h.ptr())) {
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (overflow == 0) {
      if (x >= std::numeric_limits<int32_t>::min() && x <= std::numeric_limits<int32_t>::max()) {
        out.emplace(static_cast<int32_t>(x));
      } else {
        out.emplace(static_cast<int64_t>(x));
      }
      return true;
    }
  }
  if (PyFloat_CheckExact(h.ptr())) {
    out.emplace(PyFloat_AS_DOUBLE(h.ptr()));
    return true;
  }
  if (h.is_none()) return false;
  try {
    out.emplace(to_tensor(h));
  } catch (const nb::python_error&) {
    return false;
  }
  return true;
}

nb::object shape_tuple(const Tensor& t) {
  if (!t.is_symbolic()) {
    const Shape& s = t.shape();
    nb::list dims;
    for (int i = 0; i < s.rank(); ++i) dims.append(s.dim(i));
    return nb::tuple(dims);
  }
  // Inside a trace: unknown dimensions are None, an unknown rank is None.
  PartialShape p = t.partial_shape();
  if (!p.rank_known()) return nb::none();
  nb::list dims;
  for (int64_t d : p.dims()) dims.append(d < 0 ? nb::none() : nb::cast(d));
  return nb::tuple(dims);
}

nb::object view(const Tensor& t) {
  Tensor src = t.dtype() == bfloat16 ? cast(t, float32) : t;
  const Shape& s = src.shape();
  std::vector<size_t> shape(static_cast<size_t>(s.rank()));
  for (int i = 0; i < s.rank(); ++i) shape[i] = static_cast<size_t>(s.dim(i));
  auto* keep = new Tensor(src);
  nb::capsule owner(keep, [](void* p) noexcept { delete static_cast<Tensor*>(p); });
  nb::ndarray<nb::numpy, nb::ro> arr(const_cast<void*>(src.raw_data()), shape.size(), shape.data(),
                                     owner, nullptr, dl_dtype(src.dtype()));
  return arr.cast();
}

Tensor from_numpy(nb::handle array, DType dtype) {
  auto arr = nb::cast<nb::ndarray<nb::c_contig, nb::device::cpu>>(array);
  std::vector<int64_t> dims(arr.ndim());
  for (size_t i = 0; i < arr.ndim(); ++i) dims[i] = static_cast<int64_t>(arr.shape(i));
  Shape shape(dims);
  size_t itemsize = arr.itemsize();
  size_t want = dtype == bfloat16 ? 4 : dtype_size(dtype);
  TFCC_CHECK_ARG(itemsize == want, "from_numpy: a ", itemsize, "-byte array cannot hold ",
                 dtype_name(dtype));
  if (dtype == bfloat16) {
    Tensor f = Tensor::from_bytes(float32, shape, arr.data(), arr.nbytes());
    return cast(f, bfloat16);
  }
  return Tensor::from_bytes(dtype, shape, arr.data(), arr.nbytes());
}

}  // namespace tfcc::py
