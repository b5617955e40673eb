// Categorical preprocessing layers, as Keras 3: CategoryEncoding (ids -> one-hot / multi-hot /
// counts), Hashing (values -> hash bins, TensorFlow's FarmHash buckets) and Discretization
// (numbers -> bucket ids, with adapt computing quantile boundaries).
//
//   layers::CategoryEncoding(4, {.output_mode = "count"})(ids);   // (batch, 4) float32
//   layers::Hashing(3)(Tensor::from_strings({"A", "B"}));         // int64 bins in [0, 3)
//   layers::Discretization d({.num_bins = 4});
//   d.adapt(values);                                               // boundaries at quantiles
//   d(values);                                                     // int64 bucket ids
//
// All three run as ops, so they work inside models, traced functions and Dataset::map.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <string>
#include <vector>

#include "tfcc/data/dataset.h"
#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras::layers {

/// Options of CategoryEncoding.
struct CategoryEncodingOptions {
  /// "one_hot" (a new last axis; a last axis of size 1 is replaced), "multi_hot" (1 where an id
  /// occurs in a sample: the last axis, or the whole of a 1-D input) or "count".
  std::string output_mode = "multi_hot";
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// Integer ids in [0, num_tokens) -> float32 encodings. Eager calls reject ids outside the range
/// (InvalidArgumentError), as Keras does.
class CategoryEncoding : public Layer {
  TFCC_KERAS_LAYER(CategoryEncoding)
  TFCC_KERAS_CONFIG(CategoryEncoding)
 public:
  using Options = CategoryEncodingOptions;
  explicit CategoryEncoding(int64_t num_tokens, Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  int64_t num_tokens_;
  Options options_;
};

/// Options of Hashing.
struct HashingOptions {
  /// Values equal to this (compared as text) map to 0 and the others to [1, num_bins).
  std::optional<std::string> mask_value;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// Strings (integers: their decimal text) -> int64 bin = Fingerprint64 % num_bins, the bins of
/// Keras' Hashing (tf.strings.to_hash_bucket_fast). Keras' `salt` (keyed SipHash) is not
/// offered.
class Hashing : public Layer {
  TFCC_KERAS_LAYER(Hashing)
  TFCC_KERAS_CONFIG(Hashing)
 public:
  using Options = HashingOptions;
  explicit Hashing(int64_t num_bins, Options options = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  int64_t num_bins_;
  Options options_;
};

/// Options of Discretization: give bin_boundaries, or num_bins and call adapt (an adapted
/// layer's config holds both: the boundaries are used, num_bins is kept for another adapt).
struct DiscretizationOptions {
  std::optional<std::vector<double>> bin_boundaries;
  std::optional<int64_t> num_bins;
  /// Keras' quantile summary precision: data of n values is summarised to about 1/epsilon
  /// points when n * epsilon >= 1 before the boundaries are read off.
  double epsilon = 0.01;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// Numbers -> int64 bucket: how many boundaries are <= the value (boundaries [0, 1, 2]:
/// -1.5 -> 0, 0 -> 1, 1.0 -> 2, 3.4 -> 3).
class Discretization : public Layer {
  TFCC_KERAS_LAYER(Discretization)
  TFCC_KERAS_CONFIG(Discretization)
 public:
  using Options = DiscretizationOptions;
  explicit Discretization(Options options = {});

  /// Boundaries at the num_bins-quantiles of all values of `data` (Keras' summary method).
  void adapt(const Tensor& data);
  /// The same over every element's first component.
  void adapt(const data::Dataset& data);
  const std::vector<double>& bin_boundaries() const { return boundaries_; }

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  void adapt_values(std::vector<double> values);
  Options options_;
  std::vector<double> boundaries_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
