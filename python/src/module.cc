// The extension module tfcc._tfcc: the C++ half of the Python package (python/tfcc holds the
// rest). Each bind_* lives in the file named after what it binds.
#include <nanobind/nanobind.h>

#include "convert.h"
#include "tfcc/ops/registry.h"

namespace tfcc::py {
void bind_tensor(nb::module_& m);
void bind_ops(nb::module_& m);
void bind_errors(nb::module_& m);
void bind_autodiff(nb::module_& m);
void bind_function(nb::module_& m);
void bind_data(nb::module_& m);
void bind_keras(nb::module_& m);
}  // namespace tfcc::py

NB_MODULE(_tfcc, m) {
  m.doc() = "tfcc's C++ engine (use the tfcc package, not this module)";
  // A dataset's map function can reach the dataset again through its globals (the seed's
  // `scale` and `train_data` share a module), a cycle through C++ that Python's GC cannot see,
  // so such objects live until exit; nanobind's report of them at exit would be noise.
  nanobind::set_leak_warnings(false);
  tfcc::OpRegistry::global();  // registers and checks every op once, at import
  tfcc::py::bind_errors(m);
  tfcc::py::bind_tensor(m);
  tfcc::py::bind_ops(m);
  tfcc::py::bind_autodiff(m);
  tfcc::py::bind_function(m);
  tfcc::py::bind_data(m);
  tfcc::py::bind_keras(m);
}
