// tfcc's typed exceptions become the Python classes of tfcc.errors (InvalidArgumentError, ...,
// subclasses of tf.errors.OpError), which the Python layer defines and registers here by code.
#include <nanobind/nanobind.h>

#include <map>

#include "convert.h"

namespace tfcc::py {
namespace {

std::map<int, nb::object>& classes() {
  static auto* m = new std::map<int, nb::object>();  // leaked: lives as long as the interpreter
  return *m;
}

void translate(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const Error& e) {
    auto it = classes().find(static_cast<int>(e.code()));
    if (it == classes().end()) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
      return;
    }
    nb::object exc = it->second(nb::none(), nb::none(), e.what());
    PyErr_SetObject(it->second.ptr(), exc.ptr());
  }
}

}  // namespace

void bind_errors(nb::module_& m) {
  m.def("register_errors", [](nb::dict by_code) {
    for (auto [k, v] : by_code) classes()[nb::cast<int>(k)] = nb::borrow(v);
  });
  nb::register_exception_translator(&translate);
}

}  // namespace tfcc::py
