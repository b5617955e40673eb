// The generic op entry points the Python layer generates tf.raw_ops and TF's module paths from:
// op_defs() describes every registered op; execute() runs one through tfcc::dispatch().
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "convert.h"
#include "tfcc/ops/registry.h"

namespace tfcc::py {
namespace {

std::vector<int64_t> int_list(nb::handle h) {
  std::vector<int64_t> out;
  if (PyLong_Check(h.ptr())) return {nb::cast<int64_t>(h)};
  for (nb::handle e : nb::iter(h)) out.push_back(nb::cast<int64_t>(e));
  return out;
}

AttrValue attr_value(const OpDef& op, const AttrDef& def, nb::handle h) {
  switch (def.type) {
    case AttrType::kInt:
      return nb::cast<int64_t>(h);
    case AttrType::kFloat:
      return nb::cast<double>(h);
    case AttrType::kBool:
      return nb::cast<bool>(h);
    case AttrType::kString:
      return nb::cast<std::string>(h);
    case AttrType::kType:
      return dtype_arg(h);
    case AttrType::kInts:
      return int_list(h);
    case AttrType::kFloats: {
      std::vector<double> out;
      for (nb::handle e : nb::iter(h)) out.push_back(nb::cast<double>(e));
      return out;
    }
    case AttrType::kTensor:
      return to_tensor(h);
    case AttrType::kResource: {
      Variable* v = nullptr;
      if (nb::try_cast<Variable*>(h, v) && v) return v->state_ptr();
      break;
    }
  }
  throw InvalidArgumentError(internal::str_cat(
      "attribute '", def.name, "' of ", op.name(), " cannot be set from a Python ",
      nb::cast<std::string>(nb::str(h.type().attr("__name__")))));
}

// Runs `name` on `inputs` (one entry per declared input; a list for a variadic one) with the
// attributes in `attrs` (missing ones take their defaults; type attributes are inferred).
nb::object execute(const std::string& name, nb::list inputs, nb::dict attrs) {
  const OpDef& op = op_def(name);
  TFCC_CHECK_ARG(inputs.size() == op.inputs().size(), name, " takes ", op.inputs().size(),
                 " inputs, got ", inputs.size());
  std::vector<Tensor> in;
  Attrs a;
  for (size_t i = 0; i < op.inputs().size(); ++i) {
    if (op.inputs()[i].variadic) {
      int64_t n = 0;
      for (nb::handle e : nb::iter(inputs[i])) {
        in.push_back(to_tensor(e));
        ++n;
      }
      a.set("N", n);
    } else {
      in.push_back(to_tensor(inputs[i]));
    }
  }
  for (auto [k, v] : attrs) {
    std::string key = nb::cast<std::string>(k);
    const AttrDef* def = op.find_attr(key);
    TFCC_CHECK_ARG(def != nullptr, name, " has no attribute '", key, "'");
    a.set(key, attr_value(op, *def, v));
  }
  std::vector<Tensor> out = dispatch(op, in, std::move(a));
  if (op.outputs().size() == 1 && !op.outputs()[0].variadic && out.size() == 1) {
    return nb::cast(out[0]);
  }
  nb::list l;
  for (Tensor& t : out) l.append(nb::cast(std::move(t)));
  return nb::tuple(l);
}

nb::list op_defs() {
  nb::list ops;
  for (const OpDef* op : OpRegistry::global().ops()) {
    nb::list inputs, outputs, attrs;
    for (const ArgDef& arg : op->inputs()) inputs.append(nb::make_tuple(arg.name, arg.variadic));
    for (const ArgDef& arg : op->outputs()) outputs.append(arg.name);
    for (const AttrDef& attr : op->attrs()) {
      attrs.append(nb::make_tuple(attr.name, std::string(attr_type_name(attr.type)),
                                  attr.default_value.has_value()));
    }
    nb::dict d;
    d["name"] = op->name();
    d["inputs"] = inputs;
    d["outputs"] = outputs;
    d["attrs"] = attrs;
    d["differentiable"] = op->is_differentiable();
    ops.append(d);
  }
  return ops;
}

// A binary op with TensorFlow's operand rule (a Python scalar adopts the tensor's dtype).
Tensor binary_op(const std::string& name, nb::handle x, nb::handle y) {
  std::optional<Operand> a, b;
  if (!to_operand(x, a) || !to_operand(y, b)) {
    throw InvalidArgumentError(internal::str_cat(name, ": operands must be tensors or numbers"));
  }
  auto [ta, tb] = resolve_operands(*a, *b);
  Tensor in[] = {ta, tb};
  return dispatch1(op_def(name), in, {});
}

// The stateful random ops through tfcc::random, which draws (seed, seed2) from the global seed
// and the op seed by TensorFlow's rules (a raw op call would need them spelled out).
Tensor random_tensor(const std::string& kind, std::vector<int64_t> shape, double a, double b,
                     nb::handle dtype, std::optional<int64_t> seed) {
  DType d = dtype_arg(dtype);
  if (kind == "uniform") return random::uniform(std::move(shape), a, b, d, seed);
  if (kind == "normal") return random::normal(std::move(shape), a, b, d, seed);
  if (kind == "truncated_normal") return random::truncated_normal(std::move(shape), a, b, d, seed);
  throw InvalidArgumentError(internal::str_cat("unknown random kind '", kind, "'"));
}

}  // namespace

void bind_ops(nb::module_& m) {
  m.def("op_defs", &op_defs, "Every registered op: name, inputs, outputs, attrs.");
  m.def("execute", &execute, nb::arg("name"), nb::arg("inputs"), nb::arg("attrs"));
  m.def("binary_op", &binary_op);
  m.def("from_numpy",
        [](nb::handle a, nb::handle dtype) { return from_numpy(a, dtype_arg(dtype)); });
  m.def("from_bytes_list", &from_bytes_list);
  m.def("set_converter", &set_converter);
  m.def("dtype_name", [](nb::handle d) { return std::string(dtype_name(dtype_arg(d))); });
  m.def("cast", [](const Tensor& t, nb::handle d) { return cast(t, dtype_arg(d)); });
  m.def("random_tensor", &random_tensor, nb::arg("kind"), nb::arg("shape"), nb::arg("a"),
        nb::arg("b"), nb::arg("dtype"), nb::arg("seed").none());
  m.def(
      "random_shuffle",
      [](const Tensor& x, std::optional<int64_t> seed) { return random::shuffle(x, seed); },
      nb::arg("x"), nb::arg("seed").none());
  m.def(
      "random_categorical",
      [](const Tensor& logits, int64_t n, std::optional<int64_t> seed) {
        return random::categorical(logits, n, seed);
      },
      nb::arg("logits"), nb::arg("num_samples"), nb::arg("seed").none());
  m.def("set_seed", [](uint64_t seed) { random::set_seed(seed); });
}

}  // namespace tfcc::py
