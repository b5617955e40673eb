// The functional API's symbolic tensors: keras::Input makes one; calling a layer on KerasTensors
// records a node (which layer, which inputs) and returns the outputs' shapes, computed by running
// the layer once on a small placeholder batch. keras::Model(inputs, outputs) then replays the
// nodes on real tensors.
//
//   auto inputs = keras::Input({784});                       // shape (None, 784)
//   auto h = layers::Dense(64, {.activation = "relu"})(inputs);
//   auto outputs = layers::Dense(10)(h);
//   keras::Model model(inputs, outputs);
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tfcc/core/shape.h"
#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras {

/// One recorded layer call of the functional API.
struct Node {
  std::shared_ptr<Layer> layer;
  std::vector<KerasTensor> inputs;
  std::vector<PartialShape> output_shapes;
  std::vector<DType> output_dtypes;
  /// The shape of each output's Keras mask; nullopt: the output carries no mask.
  std::vector<std::optional<PartialShape>> output_mask_shapes;
  int node_index = 0;  ///< which call of `layer` this is (Keras' node index)
};

/// A symbolic tensor: output `index` of a recorded node.
class KerasTensor {
 public:
  KerasTensor(std::shared_ptr<Node> node, int index) : node_(std::move(node)), index_(index) {}
  /// The static shape (batch dimension None).
  const PartialShape& shape() const { return node_->output_shapes[static_cast<size_t>(index_)]; }
  DType dtype() const { return node_->output_dtypes[static_cast<size_t>(index_)]; }
  /// Whether the tensor carries a Keras mask (Keras' `_keras_mask` is not None), and its shape.
  bool has_mask() const { return mask_shape().has_value(); }
  std::optional<PartialShape> mask_shape() const {
    const auto& m = node_->output_mask_shapes;
    return static_cast<size_t>(index_) < m.size() ? m[static_cast<size_t>(index_)] : std::nullopt;
  }
  const std::shared_ptr<Node>& node() const { return node_; }
  int index() const { return index_; }
  /// "KerasTensor(type_spec=TensorSpec(shape=(None, 64), dtype=tf.float32), ...)" shortened to
  /// the shape, dtype and producing layer.
  std::string to_string() const;

 private:
  std::shared_ptr<Node> node_;
  int index_;
};

/// Options of keras::Input.
struct InputOptions {
  std::optional<int64_t> batch_size;  ///< default None
  std::string name;                   ///< default "input_1", "input_2", ...
  DType dtype = float32;
};

/// A symbolic input of shape (batch, *shape); -1 in `shape` means unknown.
KerasTensor Input(std::vector<int64_t> shape, InputOptions options = {});

/// Options of an InputLayer.
struct InputLayerOptions {
  std::string name;
  std::optional<int64_t> batch_size;
  DType dtype = float32;
};

/// The InputLayer behind a keras::Input; also accepted as the first layer of a Sequential.
class InputLayer : public Layer {
  TFCC_KERAS_LAYER(InputLayer)
 public:
  using Options = InputLayerOptions;
  /// An input of shape (batch, *input_shape).
  explicit InputLayer(std::vector<int64_t> input_shape, Options options = {});
  /// The full shape including the batch dimension.
  const PartialShape& batch_shape() const { return batch_shape_; }
  /// batch_input_shape, dtype, sparse, ragged, name: the one config not declared with
  /// config::schema (its shape argument and batch size share one key); from_config is its
  /// inverse.
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const saving::Json& config);

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  PartialShape batch_shape_;
};

/// Runs `layer` on placeholder tensors shaped like `inputs` and returns the KerasTensors of a
/// new node (the functional API's shape inference).
KerasTensors call_symbolic(const std::shared_ptr<Layer>& layer, const KerasTensors& inputs);

}  // namespace tfcc::keras

namespace tfcc::keras {
/// The KerasTensor an existing InputLayer produces (a new node of that layer).
KerasTensor input_tensor_of(const std::shared_ptr<InputLayer>& layer);
}  // namespace tfcc::keras
#pragma GCC visibility pop
