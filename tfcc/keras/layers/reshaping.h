// Reshaping layers (channels_last): Permute, RepeatVector, UpSampling1D/2D/3D (nearest),
// Cropping1D/2D/3D and ZeroPadding1D/3D. The batch dimension may be unknown; the others must be
// known where a layer changes them.
//
//   layers::Permute({2, 1});              // (b, 10, 64) -> (b, 64, 10)
//   layers::RepeatVector(3);              // (b, 32) -> (b, 3, 32)
//   layers::UpSampling2D({2, 2});         // (b, 4, 4, c) -> (b, 8, 8, c)
//   layers::Cropping2D({{1, 1}, {2, 0}}); // (b, 6, 6, c) -> (b, 4, 4, c)
//   layers::ZeroPadding1D(2);             // (b, 5, c) -> (b, 9, c)
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/keras/engine/layer.h"
#include "tfcc/keras/layers/conv.h"

namespace tfcc::keras::layers {

/// Reorders the non-batch axes: `dims` is a permutation of 1..rank-1 (1-based, as Keras).
class Permute : public Layer {
  TFCC_KERAS_LAYER(Permute)
  TFCC_KERAS_CONFIG(Permute)
 public:
  explicit Permute(std::vector<int64_t> dims, LayerArgs args = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  std::vector<int64_t> dims_;
};

/// (b, f) -> (b, n, f): the input repeated n times.
class RepeatVector : public Layer {
  TFCC_KERAS_LAYER(RepeatVector)
  TFCC_KERAS_CONFIG(RepeatVector)
 public:
  explicit RepeatVector(int64_t n, LayerArgs args = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  int64_t n_;
};

/// Options of UpSampling2D (nearest neighbour only; bilinear: UnimplementedError).
struct UpSampling2DOptions {
  std::string data_format = "channels_last";
  std::string interpolation = "nearest";
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// (b, steps, c) -> (b, steps * size, c): each step repeated `size` times.
class UpSampling1D : public Layer {
  TFCC_KERAS_LAYER(UpSampling1D)
  TFCC_KERAS_CONFIG(UpSampling1D)
 public:
  explicit UpSampling1D(int64_t size = 2, LayerArgs args = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  int64_t size_;
};

/// (b, h, w, c) -> (b, h * size[0], w * size[1], c), nearest neighbour.
class UpSampling2D : public Layer {
  TFCC_KERAS_LAYER(UpSampling2D)
  TFCC_KERAS_CONFIG(UpSampling2D)
 public:
  using Options = UpSampling2DOptions;
  explicit UpSampling2D(IntOrTuple size = 2, Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  std::vector<int64_t> size_;
  Options options_;
};

/// Options of the 3-D reshaping layers (channels_last only).
struct Spatial3DOptions {
  std::string data_format = "channels_last";
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
};

/// (b, d, h, w, c) -> (b, d * size[0], h * size[1], w * size[2], c).
class UpSampling3D : public Layer {
  TFCC_KERAS_LAYER(UpSampling3D)
  TFCC_KERAS_CONFIG(UpSampling3D)
 public:
  using Options = Spatial3DOptions;
  explicit UpSampling3D(IntOrTuple size = 2, Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  std::vector<int64_t> size_;
  Options options_;
};

/// Removes `cropping` = {start, end} steps from axis 1 of (b, steps, c).
class Cropping1D : public Layer {
  TFCC_KERAS_LAYER(Cropping1D)
  TFCC_KERAS_CONFIG(Cropping1D)
 public:
  explicit Cropping1D(IntOrTuple cropping = {1, 1}, LayerArgs args = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  std::vector<int64_t> cropping_;
};

/// Crops height and width: {{top, bottom}, {left, right}} (one int: all four sides).
class Cropping2D : public Layer {
  TFCC_KERAS_LAYER(Cropping2D)
  TFCC_KERAS_CONFIG(Cropping2D)
 public:
  using Options = Spatial3DOptions;
  explicit Cropping2D(std::vector<std::vector<int64_t>> cropping = {{0, 0}, {0, 0}},
                      Options options = {});
  explicit Cropping2D(int64_t cropping, Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  std::vector<std::vector<int64_t>> cropping_;
  Options options_;
};

/// Crops the three spatial axes: {{d0, d1}, {h0, h1}, {w0, w1}} (one int: all six sides).
class Cropping3D : public Layer {
  TFCC_KERAS_LAYER(Cropping3D)
  TFCC_KERAS_CONFIG(Cropping3D)
 public:
  using Options = Spatial3DOptions;
  explicit Cropping3D(std::vector<std::vector<int64_t>> cropping = {{1, 1}, {1, 1}, {1, 1}},
                      Options options = {});
  explicit Cropping3D(int64_t cropping, Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  std::vector<std::vector<int64_t>> cropping_;
  Options options_;
};

/// Pads axis 1 of (b, steps, c) with zeros: {before, after} (one int: both).
class ZeroPadding1D : public Layer {
  TFCC_KERAS_LAYER(ZeroPadding1D)
  TFCC_KERAS_CONFIG(ZeroPadding1D)
 public:
  using Options = Spatial3DOptions;
  explicit ZeroPadding1D(IntOrTuple padding = 1, Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  std::vector<int64_t> padding_;
  Options options_;
};

/// Pads the three spatial axes with zeros: {{d0, d1}, {h0, h1}, {w0, w1}} (one int: all six).
class ZeroPadding3D : public Layer {
  TFCC_KERAS_LAYER(ZeroPadding3D)
  TFCC_KERAS_CONFIG(ZeroPadding3D)
 public:
  using Options = Spatial3DOptions;
  explicit ZeroPadding3D(std::vector<std::vector<int64_t>> padding = {{1, 1}, {1, 1}, {1, 1}},
                         Options options = {});
  explicit ZeroPadding3D(int64_t padding, Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  std::vector<std::vector<int64_t>> padding_;
  Options options_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
