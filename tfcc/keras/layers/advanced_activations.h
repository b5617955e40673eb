// Activation layers with a parameter: LeakyReLU (negative_slope), PReLU (a learned slope per
// element, optionally shared along axes) and ELU (alpha).
//
//   layers::LeakyReLU({.negative_slope = 0.1});   // x if x >= 0 else 0.1 * x
//   layers::PReLU({.shared_axes = {1, 2}});       // one slope per channel of (b, h, w, c)
//   layers::ELU({.alpha = 0.5});                  // x if x > 0 else 0.5 * (exp(x) - 1)
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras::layers {

/// Options of LeakyReLU.
struct LeakyReLUOptions {
  double negative_slope = 0.3;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// x if x >= 0, negative_slope * x otherwise.
class LeakyReLU : public Layer {
  TFCC_KERAS_LAYER(LeakyReLU)
  TFCC_KERAS_CONFIG(LeakyReLU)
 public:
  using Options = LeakyReLUOptions;
  explicit LeakyReLU(Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  Options options_;
};

/// Options of PReLU (Keras' defaults: alpha starts at zero, one alpha per input element).
struct PReLUOptions {
  initializers::Spec alpha_initializer = "zeros";
  regularizers::Spec alpha_regularizer;
  /// 1-based axes (batch excluded) along which alpha is shared: {1, 2} for one per channel.
  std::vector<int64_t> shared_axes;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// max(x, 0) - alpha * max(-x, 0), alpha learned; weight `alpha` of the input's shape without
/// the batch (1 along shared_axes).
class PReLU : public Layer {
  TFCC_KERAS_LAYER(PReLU)
  TFCC_KERAS_CONFIG(PReLU)
 public:
  using Options = PReLUOptions;
  explicit PReLU(Options options = {});

 protected:
  void build(const PartialShape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  Options options_;
  Variable alpha_;
};

/// Options of ELU.
struct ELUOptions {
  double alpha = 1.0;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// x if x > 0, alpha * (exp(x) - 1) otherwise.
class ELU : public Layer {
  TFCC_KERAS_LAYER(ELU)
  TFCC_KERAS_CONFIG(ELU)
 public:
  using Options = ELUOptions;
  explicit ELU(Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  Options options_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
