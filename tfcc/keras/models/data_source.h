// Batches for fit / evaluate / predict: from tensors (sliced, optionally reshuffled every epoch)
// or from a tfcc::data::Dataset. Internal to the training loop.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "tfcc/data/dataset.h"

namespace tfcc::keras {

/// Samples given as tensors whose first dimension indexes samples.
struct TensorData {
  Tensor x, y, sample_weight;
  /// InvalidArgumentError unless x, y and sample_weight agree on the number of samples.
  void check(const char* what) const;
  int64_t size() const { return x.shape()[0]; }
  /// (first 1 - fraction, last fraction), as Keras' validation_split.
  std::pair<TensorData, TensorData> split(double fraction) const;
};

/// A sequence of batches, restartable per epoch.
class BatchSource {
 public:
  virtual ~BatchSource() = default;
  /// Starts an epoch (reshuffles tensors, restarts a finite dataset).
  virtual void start_epoch() = 0;
  /// The next batch (x, y[, sample_weight]), or nullopt at the end of the epoch.
  virtual std::optional<data::Element> next() = 0;
  /// Batches per epoch, when known.
  virtual std::optional<int64_t> steps() const = 0;
  /// The position in the data (epoch order, cursor, iterator state) as bytes.
  virtual std::string save_state() = 0;
  /// Continues from a save_state() of the same source; DataLossError if it does not parse.
  virtual void restore_state(const std::string& state) = 0;
};

/// Batches of `batch_size` samples (the last may be smaller). With `shuffle_seed`, epoch e's
/// order is a Philox permutation of (seed, e): the same in every process (distributed fit).
std::shared_ptr<BatchSource> make_tensor_source(const TensorData& data, int64_t batch_size,
                                                bool shuffle,
                                                const std::map<int64_t, double>& class_weight,
                                                std::optional<uint64_t> shuffle_seed = {});
/// The dataset's elements; with `steps_per_epoch` one iterator continues across epochs.
std::shared_ptr<BatchSource> make_dataset_source(const data::Dataset& dataset,
                                                 const std::map<int64_t, double>& class_weight,
                                                 std::optional<int64_t> steps_per_epoch);

}  // namespace tfcc::keras
