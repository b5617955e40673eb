#include "tfcc/keras/engine/layer.h"

#include <cxxabi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <typeinfo>
#include <utility>

#include "tfcc/graph/trace/trace_context.h"
#include "tfcc/keras/engine/backend.h"
#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/keras/engine/keras_tensor.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"

namespace tfcc::keras {
namespace {
// Depth of nested layer calls on this thread: losses added during a call are cleared when the
// outermost call starts, as Keras does for eager losses.
thread_local int call_depth = 0;
struct DepthGuard {
  DepthGuard() { ++call_depth; }
  ~DepthGuard() { --call_depth; }
};
}  // namespace

Layer::Layer(LayerArgs args, const std::string& default_name)
    : Module(""), args_(std::move(args)), trainable_(args_.trainable), dtype_(args_.dtype) {
  if (!args_.name.empty()) {
    set_name(args_.name);
  } else if (!default_name.empty()) {
    set_name(backend::unique_object_name(default_name));
  }
  if (!args_.input_shape.empty()) {
    std::vector<int64_t> dims = {PartialShape::kUnknown};
    for (int64_t d : args_.input_shape) {
      TFCC_CHECK_ARG(d >= -1, "input_shape dimensions must be non-negative or -1 (None), got ", d);
      dims.push_back(d);
    }
    declared_input_shape_ = PartialShape(dims);
  }
}

void Layer::ensure_name() {
  if (name().empty()) set_name(backend::unique_object_name(backend::to_snake_case(class_name())));
}

std::string Layer::class_name() const {
  const char* mangled = typeid(*this).name();
  int status = 0;
  char* demangled = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string full = status == 0 && demangled ? demangled : mangled;
  std::free(demangled);
  const size_t colon = full.rfind("::");
  return colon == std::string::npos ? full : full.substr(colon + 2);
}

void Layer::build(const PartialShape&) {}

void Layer::build_n(const std::vector<PartialShape>& input_shapes) {
  if (input_shapes.size() == 1) build(input_shapes[0]);
}

Tensor Layer::call(const Tensor&, bool) {
  throw UnimplementedError(internal::str_cat("Layer '", name(), "' (", class_name(),
                                             ") does not override call(inputs, training)"));
}

Tensors Layer::call_n(const Tensors& inputs, bool training) {
  TFCC_CHECK_ARG(inputs.size() == 1, "Layer '", name(), "' (", class_name(),
                 ") expects 1 input, but it received ", inputs.size(), " input tensors");
  return {call(inputs[0], training)};
}

void Layer::maybe_build(const std::vector<PartialShape>& input_shapes) {
  if (built_) return;
  ensure_name();
  NameScope scope(name());
  build_n(input_shapes);
  built_ = true;
}

Tensor Layer::operator()(const Tensor& inputs, CallOptions options) {
  Tensors out = (*this)(Tensors{inputs}, options);
  TFCC_CHECK_ARG(out.size() == 1, "Layer '", name(), "' returned ", out.size(),
                 " outputs; call it with a list of tensors to get them all");
  return out[0];
}

Tensors Layer::operator()(const Tensors& inputs, CallOptions options) {
  const Tensors masks = options.mask.defined() ? Tensors{options.mask} : Tensors{};
  return call_masked(inputs, masks, options).values;
}

MaskedTensors Layer::call_masked(const Tensors& inputs, const Tensors& masks, CallOptions options) {
  ensure_name();
  if (call_depth == 0) clear_losses_recursive();
  DepthGuard depth;
  for (const auto& t : inputs) {
    TFCC_CHECK_ARG(t.defined(), "Layer '", name(), "' was called on an undefined tensor");
  }
  TFCC_CHECK_ARG(masks.size() <= inputs.size(), "Layer '", name(), "' was called with ",
                 masks.size(), " masks for ", inputs.size(), " inputs");
  Tensors in_masks = masks;
  in_masks.resize(inputs.size());
  if (options.mask.defined() && !in_masks.empty() && !in_masks[0].defined()) {
    in_masks[0] = options.mask;
  }
  if (!built_) {
    std::vector<PartialShape> shapes;
    for (const auto& t : inputs) shapes.push_back(t.partial_shape());
    maybe_build(shapes);
  }
  NameScope scope(name());
  MaskedTensors out = call_n_masked(inputs, in_masks, options.training);
  out.masks.resize(out.values.size());
  if (args_.activity_regularizer) {
    // Keras divides the activity penalty by the batch size.
    for (const auto& o : out.values) {
      Tensor penalty = (*args_.activity_regularizer)(o);
      if (o.rank() > 0) penalty = divide(penalty, cast(constant(o.shape()[0]), penalty.dtype()));
      add_loss(penalty);
    }
  }
  return out;
}

MaskedTensors Layer::call_n_masked(const Tensors& inputs, const Tensors& masks, bool training) {
  // The masks stay readable (input_mask) for the duration of this call; a nested call of the
  // same layer restores them.
  struct Restore {
    Tensors& slot;
    Tensors saved;
    ~Restore() { slot = std::move(saved); }
  } restore{call_masks_, std::exchange(call_masks_, masks)};
  MaskedTensors out;
  out.values = call_n(inputs, training);
  out.masks.resize(out.values.size());
  if (supports_masking_) {
    Tensors computed = compute_mask(inputs, masks);
    for (size_t i = 0; i < computed.size() && i < out.masks.size(); ++i) {
      out.masks[i] = computed[i];
    }
  }
  return out;
}

Tensors Layer::compute_mask(const Tensors&, const Tensors& masks) const {
  if (masks.empty()) return {};
  return {masks[0]};
}

KerasTensor Layer::operator()(const KerasTensor& inputs) { return (*this)(KerasTensors{inputs}); }

KerasTensor Layer::operator()(const KerasTensors& inputs) {
  KerasTensors out = apply(inputs);
  TFCC_CHECK_ARG(out.size() == 1, "Layer '", name(), "' has ", out.size(),
                 " outputs; use layer.apply(inputs) to get them all");
  return out[0];
}

KerasTensors Layer::apply(const KerasTensors& inputs) {
  return call_symbolic(shared_handle(), inputs);
}

std::shared_ptr<Layer> Layer::shared_handle() {
  if (auto self = weak_from_this().lock()) return std::static_pointer_cast<Layer>(self);
  return move_to_shared();
}

std::shared_ptr<Layer> Layer::move_to_shared() {
  throw FailedPreconditionError(internal::str_cat(
      "Layer '", name(), "' (", class_name(),
      ") is called on KerasTensors but is not held by a std::shared_ptr: create it with "
      "std::make_shared, or add TFCC_KERAS_LAYER(",
      class_name(), ") to the class so temporaries can be called"));
}

Variable Layer::add_weight(const std::string& weight_name, const Shape& shape,
                           WeightOptions options) {
  ensure_name();
  const DType dtype = options.dtype.value_or(dtype_);
  Variable v;
  {
    // A layer built inside a traced function computes its initial values eagerly
    // (tf.init_scope), so the variables hold concrete tensors.
    graph::InitScope init;
    v = add_variable(weight_name, (*options.initializer)(shape, dtype), options.trainable);
  }
  if (options.regularizer) weight_regularizers_.emplace_back(v, options.regularizer.ptr());
  return v;
}

void Layer::add_loss(const Tensor& loss) {
  TFCC_CHECK_ARG(loss.defined(), "Layer '", name(), "': add_loss needs a defined tensor");
  added_losses_.push_back(loss);
}

std::vector<Tensor> Layer::losses() const {
  std::vector<Tensor> out = added_losses_;
  for (const auto& [v, reg] : weight_regularizers_) out.push_back((*reg)(v.read_value()));
  for (const auto& sub : sublayers()) {
    for (auto& l : sub->losses()) out.push_back(std::move(l));
  }
  return out;
}

void Layer::clear_losses_recursive() {
  added_losses_.clear();
  for (const auto& sub : sublayers()) sub->clear_losses_recursive();
}

std::vector<std::shared_ptr<Layer>> Layer::sublayers() const {
  std::vector<std::shared_ptr<Layer>> out;
  for (const auto& [key, child] : children()) {
    if (auto l = std::dynamic_pointer_cast<Layer>(child)) out.push_back(std::move(l));
  }
  return out;
}

std::vector<Tensor> Layer::get_weights() const {
  std::vector<Tensor> out;
  for (const auto& v : weights()) out.push_back(v.read_value());
  return out;
}

void Layer::set_weights(const std::vector<Tensor>& values) {
  auto ws = weights();
  TFCC_CHECK_ARG(values.size() == ws.size(), "You called `set_weights(weights)` on layer '", name(),
                 "' with a weight list of length ", values.size(),
                 ", but the layer was "
                 "expecting ",
                 ws.size(), " weights");
  for (size_t i = 0; i < ws.size(); ++i) {
    TFCC_CHECK_ARG(values[i].shape() == ws[i].shape(), "Layer '", name(), "' weight shape ",
                   ws[i].shape().to_string(), " is not compatible with provided weight shape ",
                   values[i].shape().to_string());
  }
  for (size_t i = 0; i < ws.size(); ++i) ws[i].assign(cast(values[i], ws[i].dtype()));
}

int64_t Layer::count_params() const {
  int64_t n = 0;
  for (const auto& v : weights()) n += v.shape().num_elements();
  return n;
}

Config Layer::get_config() const {
  Config c = {{"name", config::repr(name())},
              {"trainable", config::repr(trainable_)},
              {"dtype", config::repr(std::string(dtype_name(dtype_)))}};
  if (const config::LayerSchema* s = schema()) s->append_config(*this, c);
  return c;
}

namespace config {
std::string repr(const std::string& s) {
  std::string out = "'";
  out.append(s).append("'");
  return out;
}
std::string repr(bool b) { return b ? "True" : "False"; }
std::string repr(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string s = buf;
  // Python prints floats with the shortest round-trip form; %.17g is close enough for configs
  // but always shows a decimal point.
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) {
      s = buf;
      break;
    }
  }
  if (s.find_first_of(".eEn") == std::string::npos) s.append(".0");
  return s;
}
std::string repr(int64_t v) { return std::to_string(v); }
std::string repr(const std::vector<int64_t>& v) {
  std::string out = "(";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out.append(", ");
    out.append(v[i] < 0 ? "None" : std::to_string(v[i]));
  }
  if (v.size() == 1) out.append(",");
  return out.append(")");
}
std::string repr(const regularizers::Spec& r) {
  if (!r) return "None";
  std::string cls = (*r).class_name();
  std::string cfg;
  if (const auto* l = dynamic_cast<const regularizers::L1L2*>(r.ptr().get())) {
    if (cls == "L1") {
      cfg = internal::str_cat("'l1': ", repr(l->l1()));
    } else if (cls == "L2") {
      cfg = internal::str_cat("'l2': ", repr(l->l2()));
    } else {
      cfg = internal::str_cat("'l1': ", repr(l->l1()), ", 'l2': ", repr(l->l2()));
    }
  }
  return internal::str_cat("{'class_name': ", repr(cls), ", 'config': {", cfg, "}}");
}
}  // namespace config

}  // namespace tfcc::keras
