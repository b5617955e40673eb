// tf.Variable and tf.GradientTape over tfcc::Variable and tfcc::GradientTape.
//
// A Python tape records only inside its `with` block: __enter__ registers the C++ tape as an op
// observer of this thread, __exit__ removes it (gradient() keeps working afterwards).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <optional>

#include "convert.h"

namespace tfcc::py {
namespace {

class PyTape {
 public:
  PyTape(bool persistent, bool watch_accessed)
      : tape_(std::make_unique<GradientTape>(GradientTapeOptions{persistent, watch_accessed})) {
    remove_op_observer(tape_.get());  // records only between enter() and exit()
  }
  ~PyTape() {
    pause_.reset();
    exit();
  }

  void enter() {
    if (!recording_) add_op_observer(tape_.get());
    recording_ = true;
  }
  void exit() {
    if (recording_) remove_op_observer(tape_.get());
    recording_ = false;
  }
  void pause() { pause_.emplace(*tape_); }
  void resume() { pause_.reset(); }
  void reset() { tape_->reset(); }

  void watch(nb::handle h) {
    Variable* v = nullptr;
    if (nb::try_cast<Variable*>(h, v) && v) {
      tape_->watch(*v);
      return;
    }
    tape_->watch(to_tensor(h));
  }

  nb::list watched_variables() {
    nb::list out;
    for (Variable& v : tape_->watched_variables()) out.append(nb::cast(v));
    return out;
  }

  // Sources are all tensors or all variables (TF also mixes them; that needs a persistent
  // tape here, since each kind is one backward pass).
  nb::list gradient(nb::handle target, nb::list sources, nb::object output_gradients, bool zero) {
    GradientOptions opts;
    opts.unconnected_gradients = zero ? UnconnectedGradients::kZero : UnconnectedGradients::kNone;
    if (!output_gradients.is_none()) opts.output_gradients = {to_tensor(output_gradients)};
    Tensor y = to_tensor(target);
    std::vector<Tensor> tensors;
    std::vector<Variable> vars;
    std::vector<bool> is_var;
    for (nb::handle s : sources) {
      Variable* v = nullptr;
      if (nb::try_cast<Variable*>(s, v) && v) {
        vars.push_back(*v);
        is_var.push_back(true);
      } else {
        tensors.push_back(to_tensor(s));
        is_var.push_back(false);
      }
    }
    std::vector<Tensor> gt, gv;
    if (!tensors.empty()) gt = tape_->gradient(y, tensors, opts);
    if (!vars.empty()) gv = tape_->gradient(y, vars, opts);
    nb::list out;
    size_t it = 0, iv = 0;
    for (bool var : is_var) {
      const Tensor& g = var ? gv[iv++] : gt[it++];
      out.append(g.defined() ? nb::cast(g) : nb::none());
    }
    return out;
  }

  nb::object jacobian(nb::handle target, nb::handle source, bool zero, bool batch) {
    auto u = zero ? UnconnectedGradients::kZero : UnconnectedGradients::kNone;
    Tensor y = to_tensor(target), x = to_tensor(source);
    Tensor j = batch ? tape_->batch_jacobian(y, x, u) : tape_->jacobian(y, x, u);
    return j.defined() ? nb::cast(j) : nb::none();
  }

 private:
  std::unique_ptr<GradientTape> tape_;
  std::optional<GradientTape::Pause> pause_;
  bool recording_ = false;
};

}  // namespace

void bind_autodiff(nb::module_& m) {
  nb::class_<Variable>(m, "Variable", nb::dynamic_attr())
      .def(
          "__init__",
          [](Variable* self, nb::handle initial, const std::string& name, bool trainable) {
            new (self) Variable(to_tensor(initial), VariableOptions{name, trainable});
          },
          nb::arg("initial_value"), nb::arg("name") = "Variable", nb::arg("trainable") = true)
      .def("read_value", &Variable::read_value)
      .def("value", &Variable::read_value)
      .def("assign", [](const Variable& v, nb::handle x) { return v.assign(to_tensor(x)); })
      .def("assign_add", [](const Variable& v, nb::handle x) { return v.assign_add(to_tensor(x)); })
      .def("assign_sub", [](const Variable& v, nb::handle x) { return v.assign_sub(to_tensor(x)); })
      .def_prop_ro("_name", &Variable::name)
      .def_prop_ro("trainable", &Variable::trainable)
      .def_prop_ro("_dtype", [](const Variable& v) { return static_cast<int>(v.dtype()); })
      .def_prop_ro("_id", &Variable::id)
      .def("__repr__", &Variable::to_string);

  nb::class_<PyTape>(m, "Tape")
      .def(nb::init<bool, bool>())
      .def("enter", &PyTape::enter)
      .def("exit", &PyTape::exit)
      .def("pause", &PyTape::pause)
      .def("resume", &PyTape::resume)
      .def("reset", &PyTape::reset)
      .def("watch", &PyTape::watch)
      .def("watched_variables", &PyTape::watched_variables)
      .def("gradient", &PyTape::gradient, nb::arg("target"), nb::arg("sources"),
           nb::arg("output_gradients").none(), nb::arg("zero"))
      .def("jacobian", &PyTape::jacobian);
}

}  // namespace tfcc::py
