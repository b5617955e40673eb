// Per-example normalization layers: GroupNormalization (the channels split into groups, each
// normalised over its channels and the spatial axes, then scaled and shifted per channel) and
// UnitNormalization (each example scaled to unit L2 norm along axes).
//
//   layers::GroupNormalization({.groups = 8});      // (b, h, w, 32): 8 groups of 4 channels
//   layers::GroupNormalization({.groups = -1});     // instance normalization (one per channel)
//   layers::UnitNormalization();                    // x / ||x|| along the last axis
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras::layers {

/// Options of GroupNormalization (Keras' defaults). Only the channels axis -1 is supported.
struct GroupNormalizationOptions {
  int64_t groups = 32;  ///< -1: one group per channel
  int64_t axis = -1;
  double epsilon = 1e-3;
  bool center = true;
  bool scale = true;
  initializers::Spec beta_initializer = "zeros";
  initializers::Spec gamma_initializer = "ones";
  regularizers::Spec beta_regularizer;
  regularizers::Spec gamma_regularizer;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// (x - mean) / sqrt(var + epsilon) * gamma + beta, mean and var per example and group; weights
/// gamma then beta, each (channels,).
class GroupNormalization : public Layer {
  TFCC_KERAS_LAYER(GroupNormalization)
  TFCC_KERAS_CONFIG(GroupNormalization)
 public:
  using Options = GroupNormalizationOptions;
  explicit GroupNormalization(Options options = {});

 protected:
  void build(const PartialShape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  Options options_;
  int64_t groups_ = 0;  // resolved at build
  Variable gamma_, beta_;
};

/// Options of UnitNormalization.
struct UnitNormalizationOptions {
  std::vector<int64_t> axis = {-1};
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// x / sqrt(max(sum(x^2, axis), 1e-12)).
class UnitNormalization : public Layer {
  TFCC_KERAS_LAYER(UnitNormalization)
  TFCC_KERAS_CONFIG(UnitNormalization)
 public:
  using Options = UnitNormalizationOptions;
  explicit UnitNormalization(Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  Options options_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
