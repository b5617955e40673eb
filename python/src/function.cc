// tf.function on a Python callable: tfcc::function over a C++ callable that calls back into
// Python with the trace's symbolic tensors. The Python layer (python/tfcc/_function.py) flattens
// a call into its tensors plus a key string for everything else (the structure and non-tensor
// values), so tfcc's cache key is (tensors by dtype and shape, the key by value).
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <functional>
#include <string>
#include <vector>

#include "convert.h"

namespace tfcc::py {
namespace {

using Callable = std::function<std::vector<Tensor>(std::vector<Tensor>, std::string)>;

class PyFunction {
 public:
  PyFunction(nb::object trace, std::string name, bool reduce_retracing,
             std::optional<std::vector<std::pair<std::vector<int64_t>, int>>> signature)
      : fn_(make(std::move(trace)), options(std::move(name), reduce_retracing, signature)) {}

  std::vector<Tensor> call(nb::list tensors, const std::string& key) {
    std::vector<Tensor> flat;
    for (nb::handle h : tensors) flat.push_back(to_tensor(h));
    return fn_(flat, key);
  }
  int tracing_count() const { return fn_.tracing_count(); }
  std::string last_retrace_reason() const { return fn_.last_retrace_reason(); }

 private:
  static Callable make(nb::object trace) {
    return [trace = std::move(trace)](std::vector<Tensor> tensors, std::string key) {
      nb::list in;
      for (Tensor& t : tensors) in.append(nb::cast(std::move(t)));
      nb::object out = trace(in, key);
      std::vector<Tensor> result;
      for (nb::handle h : out) result.push_back(to_tensor(h));
      return result;
    };
  }
  static FunctionOptions options(
      std::string name, bool reduce_retracing,
      const std::optional<std::vector<std::pair<std::vector<int64_t>, int>>>& signature) {
    FunctionOptions o;
    o.name = std::move(name);
    o.reduce_retracing = reduce_retracing;
    if (signature) {
      std::vector<TensorSpec> specs;
      for (const auto& [dims, dtype] : *signature) {
        TensorSpec s;
        s.shape = PartialShape(dims);
        s.dtype = static_cast<DType>(dtype);
        specs.push_back(std::move(s));
      }
      o.input_signature = std::move(specs);
    }
    return o;
  }

  Function<Callable> fn_;
};

}  // namespace

void bind_function(nb::module_& m) {
  nb::class_<PyFunction>(m, "Function")
      .def(nb::init<nb::object, std::string, bool,
                    std::optional<std::vector<std::pair<std::vector<int64_t>, int>>>>(),
           nb::arg("trace"), nb::arg("name"), nb::arg("reduce_retracing"),
           nb::arg("signature").none())
      .def("call", &PyFunction::call)
      .def_prop_ro("tracing_count", &PyFunction::tracing_count)
      .def_prop_ro("last_retrace_reason", &PyFunction::last_retrace_reason);
  m.def("run_functions_eagerly", [](bool on) { config::run_functions_eagerly(on); });
  m.def("functions_run_eagerly", [] { return config::functions_run_eagerly(); });
  m.def("executing_eagerly", [] { return graph::TraceContext::current() == nullptr; });
  m.def("is_symbolic", [](const Tensor& t) { return t.is_symbolic(); });
}

}  // namespace tfcc::py
