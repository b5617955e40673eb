// keras::Layer: the base of every Keras layer and model. A layer creates its weights lazily, the
// first time it is called (build(input_shape)), then computes call(inputs, training).
//
//   class Scale : public tfcc::keras::Layer {
//    public:
//     Scale() : Layer({}, "scale") {}
//    protected:
//     void build(const tfcc::PartialShape& input_shape) override {
//       w_ = add_weight("w", {input_shape.dim(input_shape.rank() - 1)}, {.initializer = "ones"});
//     }
//     tfcc::Tensor call(const tfcc::Tensor& x, bool) override { return x * w_; }
//    private:
//     tfcc::Variable w_;
//   };
//   Scale s;
//   auto y = s(tfcc::ones({2, 3}));        // builds: w has shape (3,)
//   s.trainable_variables();                // [scale/w]
//
// Layers with several inputs or outputs override build_n / call_n instead (lists of shapes and
// tensors).
//
// Masks (Keras' `_keras_mask`): a layer call may carry a bool mask per input (true = a valid
// step; for sequences of shape (batch, time)). Layers that read it call input_mask() in call();
// the output masks come from compute_mask (layers with supports_masking(); others drop the mask,
// as Keras does). Eagerly, call_masked returns the outputs with their masks; functional and
// Sequential models carry masks from layer to layer themselves:
//
//   layers::Embedding emb(100, 8, {.mask_zero = true});
//   auto [h, m] = emb.call_masked({ids});       // m[0]: ids != 0
//   auto y = lstm(h[0], {.mask = m[0]});        // padded steps keep the previous state Calling a
//   layer on KerasTensors (from keras::Input) records a node of the functional
// API instead of computing values; see keras_tensor.h.
//
// Ownership: see tfcc/module/module.h. Containers take layers by value (moved into a
// std::shared_ptr) or as std::shared_ptr; built-in layers may also be called on KerasTensors as
// temporaries (`layers::Dense(64)(inputs)`): the temporary moves into a shared_ptr that the
// functional graph keeps.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "tfcc/keras/activations/activations.h"
#include "tfcc/keras/initializers/initializers.h"
#include "tfcc/keras/regularizers/regularizers.h"
#include "tfcc/module/module.h"

namespace tfcc::keras {

using Tensors = std::vector<Tensor>;
class KerasTensor;
using KerasTensors = std::vector<KerasTensor>;
class Layer;
namespace saving {
class Json;
}
namespace config {
class LayerSchema;
/// A new layer from `config` by `schema` (config_schema.h).
std::shared_ptr<Layer> from_config(const LayerSchema& schema, const saving::Json& config);
}  // namespace config

/// Options of a layer call: `layer(x, {.training = true})`.
struct CallOptions {
  bool training = false;
  /// The Keras mask of the (first) input, Keras' `mask=`: bool, true = valid; undefined: none.
  Tensor mask;
};

/// A layer call's outputs with their Keras masks (undefined: no mask), as Keras keeps them on
/// the tensors (`_keras_mask`).
struct MaskedTensors {
  Tensors values;
  Tensors masks;
};

/// Arguments every layer accepts (each layer's options struct repeats them for designated
/// initialisers and passes them on).
struct LayerArgs {
  std::string name;  ///< default: a unique snake_case name ("dense", "dense_1", ...)
  bool trainable = true;
  /// Shape of one example (no batch dimension; -1 for unknown). Lets a Sequential build at once.
  std::vector<int64_t> input_shape;
  DType dtype = float32;
  regularizers::Spec activity_regularizer;
};

/// Options of Layer::add_weight.
struct WeightOptions {
  initializers::Spec initializer = "glorot_uniform";
  regularizers::Spec regularizer;
  bool trainable = true;
  std::optional<DType> dtype;  ///< default: the layer's dtype
};

/// A layer's configuration: (key, Python-literal value) pairs in Keras' order.
using Config = std::vector<std::pair<std::string, std::string>>;

/// The base of all layers and models.
class Layer : public Module {
 public:
  /// `default_name` is the snake_case base used when args.name is empty.
  explicit Layer(LayerArgs args = {}, const std::string& default_name = "");

  /// Calls the layer on one tensor (builds it first if needed).
  Tensor operator()(const Tensor& inputs, CallOptions options = {});
  /// Calls the layer on a list of tensors; returns all outputs.
  Tensors operator()(const Tensors& inputs, CallOptions options = {});
  /// Functional API: records a call on symbolic inputs; the layer must have one output.
  KerasTensor operator()(const KerasTensor& inputs);
  KerasTensor operator()(const KerasTensors& inputs);
  /// Functional API with any number of outputs.
  KerasTensors apply(const KerasTensors& inputs);
  /// Calls the layer with a mask per input (fewer masks than inputs, or undefined ones: none) and
  /// returns the outputs with their masks.
  MaskedTensors call_masked(const Tensors& inputs, const Tensors& masks = {},
                            CallOptions options = {});

  /// Keras' compute_mask: the output masks (one per output; undefined: none) for `inputs` with
  /// `masks`. Default: the first input's mask passes through (Keras' previous_mask).
  virtual Tensors compute_mask(const Tensors& inputs, const Tensors& masks) const;
  /// Whether compute_mask runs after a call; a layer without it drops its inputs' masks.
  bool supports_masking() const { return supports_masking_; }
  void set_supports_masking(bool supports) { supports_masking_ = supports; }

  /// Creates a weight named "<layer name>/<name>" and tracks it (and its regularizer).
  Variable add_weight(const std::string& name, const Shape& shape, WeightOptions options = {});
  /// Adds a loss tensor (cleared at the start of each outermost call, as Keras' eager losses).
  void add_loss(const Tensor& loss);
  /// Losses of this layer and its sublayers: added losses, then weight-regularizer penalties
  /// computed now (so gradients flow to the weights).
  std::vector<Tensor> losses() const;

  /// The weights, like variables() (Keras' layer.weights).
  std::vector<Variable> weights() const { return variables(); }
  std::vector<Variable> trainable_weights() const { return trainable_variables(); }
  std::vector<Variable> non_trainable_weights() const { return non_trainable_variables(); }
  /// Values of the weights.
  std::vector<Tensor> get_weights() const;
  /// Assigns values to the weights, in weights() order (count, shapes and dtypes must match).
  void set_weights(const std::vector<Tensor>& values);
  /// Total number of weight elements.
  int64_t count_params() const;

  bool trainable() const override { return trainable_; }
  void set_trainable(bool trainable) { trainable_ = trainable; }
  bool built() const { return built_; }
  DType dtype() const { return dtype_; }
  /// The C++ class name without namespaces ("Dense").
  std::string class_name() const;
  /// The layer's configuration (name, trainable, dtype, then layer-specific keys): by default
  /// the keys its config schema declares (TFCC_KERAS_CONFIG).
  virtual Config get_config() const;

  /// Direct sublayers, in tracking order.
  std::vector<std::shared_ptr<Layer>> sublayers() const;
  /// Shape of one example declared with `input_shape`, with a None batch dimension in front.
  const std::optional<PartialShape>& declared_input_shape() const { return declared_input_shape_; }
  /// Output shapes of the last functional (symbolic) call, for summaries; empty if none.
  const std::vector<PartialShape>& output_shapes() const { return output_shapes_; }

  /// Builds the layer for `input_shapes` if it is not built yet.
  void maybe_build(const std::vector<PartialShape>& input_shapes);
  /// Records the output shapes of a symbolic call (the functional API sets this).
  void set_output_shapes(std::vector<PartialShape> shapes) { output_shapes_ = std::move(shapes); }
  /// The shared handle of this layer (after move_to_shared if needed).
  std::shared_ptr<Layer> shared_handle();
  /// The next node index of this layer in the functional API (0 for its first symbolic call).
  int add_inbound_node() { return inbound_nodes_++; }

 protected:
  /// Creates the weights for one input's shape (default: nothing).
  virtual void build(const PartialShape& input_shape);
  /// Creates the weights for several inputs (default: build(input_shapes[0]) for one input).
  virtual void build_n(const std::vector<PartialShape>& input_shapes);
  /// The computation for one input (default: InvalidArgumentError).
  virtual Tensor call(const Tensor& inputs, bool training);
  /// The computation for several inputs or outputs (default: call on the single input).
  virtual Tensors call_n(const Tensors& inputs, bool training);
  /// A call with masks: by default call_n, then compute_mask when supports_masking(). Models
  /// override it to carry masks between their layers.
  virtual MaskedTensors call_n_masked(const Tensors& inputs, const Tensors& masks, bool training);
  /// The masks of the current call, one per input (undefined: none), for call() to read.
  const Tensors& input_masks() const { return call_masks_; }
  /// The mask of input `i` of the current call (undefined: none).
  Tensor input_mask(size_t i = 0) const {
    return i < call_masks_.size() ? call_masks_[i] : Tensor();
  }
  /// The declared config of this layer's class (TFCC_KERAS_CONFIG), or null.
  virtual const config::LayerSchema* schema() const { return nullptr; }
  /// Moves this layer into a new shared_ptr of its dynamic type (TFCC_KERAS_LAYER defines it);
  /// used when a temporary layer is called on KerasTensors.
  virtual std::shared_ptr<Layer> move_to_shared();
  /// Registers a sublayer; returns the handle.
  template <typename L>
  std::shared_ptr<L> track_layer(std::shared_ptr<L> layer) {
    return track_module(std::move(layer), "");
  }

  LayerArgs args_;

 private:
  friend class Model;
  friend class Sequential;
  void clear_losses_recursive();
  void ensure_name();

  bool trainable_ = true;
  bool built_ = false;
  DType dtype_ = float32;
  std::optional<PartialShape> declared_input_shape_;
  std::vector<PartialShape> output_shapes_;
  int inbound_nodes_ = 0;
  bool supports_masking_ = false;
  Tensors call_masks_;
  std::vector<Tensor> added_losses_;
  std::vector<std::pair<Variable, std::shared_ptr<const regularizers::Regularizer>>>
      weight_regularizers_;
};

/// Declares the move_to_shared override of a layer class (one line in each layer's body).
#define TFCC_KERAS_LAYER(Type)                                            \
 protected:                                                               \
  std::shared_ptr<::tfcc::keras::Layer> move_to_shared() override {       \
    /* A subclass without its own TFCC_KERAS_LAYER must not be sliced. */ \
    if (typeid(*this) != typeid(Type)) return Layer::move_to_shared();    \
    return std::make_shared<Type>(std::move(*this));                      \
  }                                                                       \
                                                                          \
 public:

/// Declares a layer's config (config_schema.h): get_config and the static from_config (the
/// factory saving::register_layer takes) both come from `Type::config_schema()`, which the
/// layer's .cc defines with config::schema. One line in the class body, after TFCC_KERAS_LAYER.
#define TFCC_KERAS_CONFIG(Type)                                                                    \
 public:                                                                                           \
  static const ::tfcc::keras::config::LayerSchema& config_schema();                                \
  static std::shared_ptr<::tfcc::keras::Layer> from_config(const ::tfcc::keras::saving::Json& c) { \
    return ::tfcc::keras::config::from_config(config_schema(), c);                                 \
  }                                                                                                \
                                                                                                   \
 protected:                                                                                        \
  const ::tfcc::keras::config::LayerSchema* schema() const override { return &config_schema(); }   \
                                                                                                   \
 public:

/// Python repr helpers for get_config values.
namespace config {
std::string repr(const std::string& s);
std::string repr(bool b);
std::string repr(double v);
std::string repr(int64_t v);
std::string repr(const std::vector<int64_t>& v);
/// None, or Keras' serialized regularizer: {'class_name': 'L2', 'config': {'l2': 0.02}}.
std::string repr(const regularizers::Spec& r);
}  // namespace config

}  // namespace tfcc::keras
#pragma GCC visibility pop
