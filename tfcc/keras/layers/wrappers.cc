#include "tfcc/keras/layers/wrappers.h"

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/keras/saving/layer_registry.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"

namespace tfcc::keras::layers {
namespace {

// A wrapped layer as Keras' config holds it: {'class_name': ..., 'config': {...}}; read back
// through the layer registry (so a registered custom layer works too).
template <typename L>
struct LayerCodec {
  static std::string repr(const std::shared_ptr<L>& layer) {
    if (!layer) return "None";
    std::string out =
        "{'class_name': " + keras::config::repr(layer->class_name()) + ", 'config': {";
    bool first = true;
    for (auto& [key, value] : layer->get_config()) {
      out += (first ? "" : ", ") + keras::config::repr(key) + ": " + value;
      first = false;
    }
    return out + "}}";
  }
  static void read(const saving::Json& v, std::shared_ptr<L>& out, std::string_view what) {
    if (v.is_null()) return;
    const std::string cls = v.at("class_name", what).as_string("class_name");
    out = std::dynamic_pointer_cast<L>(saving::layer_from_config(cls, v.at("config", what)));
    TFCC_CHECK_ARG(out != nullptr, "The layer '", cls, "' in `", what, "` cannot be wrapped here",
                   std::is_same_v<L, RNN> ? " (Bidirectional needs a recurrent layer)" : "");
  }
};

// merge_mode: a string, or None (written "none" in C++).
struct MergeModeCodec {
  static std::string repr(const std::string& v) {
    return v == "none" ? "None" : keras::config::repr(v);
  }
  static void read(const saving::Json& v, std::string& out, std::string_view what) {
    out = v.is_null() ? "none" : v.as_string(what);
  }
};

std::string without_prefix(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0 ? s.substr(prefix.size()) : s;
}

// Keras recreates the wrapped layer from its config, renamed (and for the backward copy with
// go_backwards).
std::shared_ptr<RNN> copy_of(const RNN& layer, const std::string& prefix, bool go_backwards) {
  saving::Json c = saving::layer_config(layer);
  c.set("name", saving::Json(prefix + without_prefix(layer.name(), prefix)));
  if (go_backwards) c.set("go_backwards", saving::Json(true));
  auto copy = std::dynamic_pointer_cast<RNN>(saving::layer_from_config(layer.class_name(), c));
  TFCC_CHECK_ARG(copy != nullptr, "Bidirectional: the copy of layer '", layer.name(),
                 "' is not a recurrent layer");
  return copy;
}

}  // namespace

Bidirectional::Bidirectional(std::shared_ptr<RNN> layer, Options options)
    : Layer({.name = options.name,
             .trainable = options.trainable,
             .input_shape = options.input_shape,
             .dtype = layer ? layer->dtype() : float32},
            "bidirectional"),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(layer != nullptr, "Bidirectional needs a recurrent layer");
  const std::string& m = options_.merge_mode;
  TFCC_CHECK_ARG(m == "concat" || m == "sum" || m == "mul" || m == "ave" || m == "none",
                 "Invalid merge mode. Received: ", m,
                 ". Merge mode should be one of {\"sum\", \"mul\", \"ave\", \"concat\", \"none\"}");
  forward_ = copy_of(*layer, "forward_", false);
  if (!options_.backward_layer) options_.backward_layer = copy_of(*layer, "backward_", true);
  const RNN& f = *forward_;
  const RNN& b = *options_.backward_layer;
  TFCC_CHECK_ARG(f.go_backwards() != b.go_backwards(),
                 "Forward layer and backward layer should have different `go_backwards` value. "
                 "Received: forward_layer.go_backwards ",
                 f.go_backwards(), ", backward_layer.go_backwards=", b.go_backwards());
  TFCC_CHECK_ARG(
      f.return_sequences() == b.return_sequences() && f.return_state() == b.return_state(),
      "Forward layer and backward layer are expected to have the same "
      "return_sequences and return_state (layers '",
      f.name(), "' and '", b.name(), "')");
  // Keras: masked steps of returned sequences are zeros in both directions.
  forward_->set_zero_output_for_mask(f.return_sequences());
  options_.backward_layer->set_zero_output_for_mask(b.return_sequences());
  track_module(forward_, "forward_layer");  // Keras' attribute names (weights.h5 groups)
  track_module(options_.backward_layer, "backward_layer");
  set_supports_masking(true);
}

void Bidirectional::build(const PartialShape& input_shape) { build_n({input_shape}); }

void Bidirectional::build_n(const std::vector<PartialShape>& input_shapes) {
  TFCC_CHECK_ARG(!input_shapes.empty(), "Bidirectional '", name(), "' needs an input");
  forward_->maybe_build({input_shapes[0]});
  options_.backward_layer->maybe_build({input_shapes[0]});
}

Tensors Bidirectional::compute_mask(const Tensors&, const Tensors& masks) const {
  const Tensor mask = masks.empty() ? Tensor() : masks[0];
  const bool seq = forward_->return_sequences();
  Tensors out = {seq ? mask : Tensor()};
  if (options_.merge_mode == "none") out.push_back(out[0]);
  return out;  // the states' masks: none (Layer::call_masked pads the list)
}

Tensors Bidirectional::call_n(const Tensors& inputs, bool training) {
  TFCC_CHECK_ARG(!inputs.empty(), "Bidirectional '", name(), "' needs an input");
  // Initial states after the sequence: half for each direction, forward first.
  const size_t n_states = inputs.size() - 1;
  TFCC_CHECK_ARG(n_states % 2 == 0, "Bidirectional '", name(),
                 "': initial states come in pairs (forward, backward), got ", n_states);
  Tensors fwd_in = {inputs[0]}, bwd_in = {inputs[0]};
  fwd_in.insert(fwd_in.end(), inputs.begin() + 1, inputs.begin() + 1 + long(n_states / 2));
  bwd_in.insert(bwd_in.end(), inputs.begin() + 1 + long(n_states / 2), inputs.end());
  const Tensors mask = {input_mask(0)};
  Tensors y = forward_->call_masked(fwd_in, mask, {training}).values;
  Tensors y_rev = options_.backward_layer->call_masked(bwd_in, mask, {training}).values;
  Tensor out = y[0], out_rev = y_rev[0];
  if (forward_->return_sequences()) out_rev = reverse(out_rev, {1});
  Tensors result;
  const std::string& m = options_.merge_mode;
  if (m == "concat") {
    result = {concat({out, out_rev}, -1)};
  } else if (m == "sum") {
    result = {add(out, out_rev)};
  } else if (m == "ave") {
    result = {divide(add(out, out_rev), 2.0)};
  } else if (m == "mul") {
    result = {multiply(out, out_rev)};
  } else {
    result = {out, out_rev};
  }
  result.insert(result.end(), y.begin() + 1, y.end());
  result.insert(result.end(), y_rev.begin() + 1, y_rev.end());
  return result;
}

const keras::config::LayerSchema& Bidirectional::config_schema() {
  static const keras::config::LayerSchema schema =
      keras::config::schema<Bidirectional>(&Bidirectional::options_)
          .option<MergeModeCodec>("merge_mode", &Options::merge_mode)
          .arg<LayerCodec<RNN>>("layer", &Bidirectional::forward_)
          .option<LayerCodec<RNN>>("backward_layer", &Options::backward_layer);
  return schema;
}

TimeDistributed::TimeDistributed(std::shared_ptr<Layer> layer, Options options)
    : Layer({.name = options.name,
             .trainable = options.trainable,
             .input_shape = options.input_shape,
             .dtype = layer ? layer->dtype() : float32},
            "time_distributed"),
      layer_(std::move(layer)),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(layer_ != nullptr, "TimeDistributed needs a layer");
  track_module(layer_, "layer");  // Keras' attribute name (weights.h5 group)
  set_supports_masking(true);
}

namespace {
// (batch, time, d...) -> (batch * time, d...), for a shape with known d... and a known batch or
// time.
std::vector<int64_t> folded_dims(const PartialShape& s, const std::string& layer) {
  TFCC_CHECK_ARG(s.rank_known() && s.rank() >= 3, "TimeDistributed '", layer,
                 "' expects inputs of rank 3 or more (batch, time, ...), got ", s.to_string());
  std::vector<int64_t> dims = {s.dim(0) >= 0 && s.dim(1) >= 0 ? s.dim(0) * s.dim(1) : -1};
  for (int i = 2; i < s.rank(); ++i) dims.push_back(s.dim(i));
  return dims;
}
}  // namespace

void TimeDistributed::build(const PartialShape& input_shape) {
  std::vector<int64_t> dims = folded_dims(input_shape, name());
  dims[0] = PartialShape::kUnknown;
  layer_->maybe_build({PartialShape(dims)});
}

Tensor TimeDistributed::call(const Tensor& inputs, bool training) {
  const PartialShape s = inputs.partial_shape();
  std::vector<int64_t> dims = folded_dims(s, name());
  TFCC_CHECK_ARG(s.dim(0) >= 0 || s.dim(1) >= 0, "TimeDistributed '", name(),
                 "' needs a known batch size or number of steps, got ", s.to_string());
  for (size_t i = 1; i < dims.size(); ++i) {
    TFCC_CHECK_ARG(dims[i] >= 0, "TimeDistributed '", name(),
                   "' needs known feature dimensions, got ", s.to_string());
  }
  // The inner layer sees one mask entry per folded step (Keras passes mask[:, t]).
  Tensor mask = input_mask(0);
  if (mask.defined()) {
    std::vector<int64_t> mask_dims = {-1};
    for (int i = 2; i < mask.rank(); ++i) mask_dims.push_back(mask.partial_shape().dim(i));
    mask = reshape(mask, mask_dims);
  }
  Tensor y = layer_->call_masked({reshape(inputs, dims)}, {mask}, {training}).values.at(0);
  const PartialShape ys = y.partial_shape();
  std::vector<int64_t> out = {s.dim(0) >= 0 ? s.dim(0) : -1, s.dim(0) >= 0 ? -1 : s.dim(1)};
  if (s.dim(0) >= 0 && s.dim(1) >= 0) out[1] = s.dim(1);
  for (int i = 1; i < ys.rank(); ++i) out.push_back(ys.dim(i));
  return reshape(y, out);
}

const keras::config::LayerSchema& TimeDistributed::config_schema() {
  static const keras::config::LayerSchema schema =
      keras::config::schema<TimeDistributed>(&TimeDistributed::options_)
          .arg<LayerCodec<Layer>>("layer", &TimeDistributed::layer_);
  return schema;
}

}  // namespace tfcc::keras::layers
