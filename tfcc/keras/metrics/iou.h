// Intersection-over-union metrics (Keras 3's IoU, MeanIoU, BinaryIoU, OneHotIoU, OneHotMeanIoU):
// a weighted confusion matrix total_cm[label, prediction] accumulates over batches, and
// result() is the mean over the target classes of tp / (row + column - tp), counting only the
// classes whose denominator is > 1e-9.
//
//   namespace metrics = tfcc::keras::metrics;
//   metrics::MeanIoU miou(21, {.ignore_class = 255});       // labels and predicted class ids
//   miou.update_state(label_map, argmax(logits, -1));
//   metrics::OneHotMeanIoU onehot(3);                       // one-hot labels, class scores
//   metrics::BinaryIoU biou({.target_class_ids = {1}, .threshold = 0.3});
//   float value = miou.result().item<float>();
//
// As in Keras 3 the confusion matrix is int64 by default (dtype "int"): sample weights are then
// truncated to integers. Pass `.dtype = tfcc::float32` for fractional weights. Labels or
// predictions outside [0, num_classes) and labels equal to ignore_class are not counted.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <string>
#include <vector>

#include "tfcc/keras/metrics/metric.h"

namespace tfcc::keras::metrics {

/// Options of IoU and MeanIoU.
struct IoUOptions {
  std::optional<std::string> name;  ///< default "io_u" / "mean_io_u"
  DType dtype = int64;              ///< the confusion matrix's dtype (Keras 3: "int")
  std::optional<int64_t> ignore_class;
  bool sparse_y_true = true;  ///< false: labels are class scores, argmax over `axis`
  bool sparse_y_pred = true;  ///< false: predictions are class scores, argmax over `axis`
  int64_t axis = -1;
};

/// tf.keras.metrics.IoU: the mean IoU of the classes in target_class_ids.
class IoU : public Metric {
 public:
  IoU(int64_t num_classes, std::vector<int64_t> target_class_ids, IoUOptions options = {});
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight = {}) override;
  /// float32: sum of the valid target classes' IoUs / (their number + 1e-7).
  Tensor result() const override;
  std::string class_name() const override { return "IoU"; }
  saving::Json get_config() const override;
  /// The number of classes.
  int64_t num_classes() const { return num_classes_; }
  /// The classes whose IoUs are averaged.
  const std::vector<int64_t>& target_class_ids() const { return target_class_ids_; }
  /// The options it was made with.
  const IoUOptions& options() const { return options_; }

 protected:
  /// The accumulated confusion matrix [num_classes, num_classes] (rows: labels).
  const Variable& total_cm() const { return total_cm_; }

 private:
  int64_t num_classes_;
  std::vector<int64_t> target_class_ids_;
  IoUOptions options_;
  Variable total_cm_;
};

/// tf.keras.metrics.MeanIoU: IoU over every class.
class MeanIoU : public IoU {
 public:
  explicit MeanIoU(int64_t num_classes, IoUOptions options = {});
  std::string class_name() const override { return "MeanIoU"; }
  saving::Json get_config() const override;
};

/// Options of OneHotIoU and OneHotMeanIoU (labels are always one-hot).
struct OneHotIoUOptions {
  std::optional<std::string> name;  ///< default "one_hot_io_u" / "one_hot_mean_io_u"
  DType dtype = int64;
  std::optional<int64_t> ignore_class;
  bool sparse_y_pred = false;
  int64_t axis = -1;
};

/// tf.keras.metrics.OneHotIoU: IoU with one-hot labels and class scores as predictions.
class OneHotIoU : public IoU {
 public:
  OneHotIoU(int64_t num_classes, std::vector<int64_t> target_class_ids,
            OneHotIoUOptions options = {});
  std::string class_name() const override { return "OneHotIoU"; }
  saving::Json get_config() const override;
};

/// tf.keras.metrics.OneHotMeanIoU: MeanIoU with one-hot labels and class scores.
class OneHotMeanIoU : public IoU {
 public:
  explicit OneHotMeanIoU(int64_t num_classes, OneHotIoUOptions options = {});
  std::string class_name() const override { return "OneHotMeanIoU"; }
  saving::Json get_config() const override;
};

/// Options of BinaryIoU.
struct BinaryIoUOptions {
  std::vector<int64_t> target_class_ids = {0, 1};  ///< [0], [1] or [0, 1]
  double threshold = 0.5;           ///< predictions >= threshold are class 1, the others class 0
  std::optional<std::string> name;  ///< default "binary_io_u"
  DType dtype = int64;
};

/// tf.keras.metrics.BinaryIoU: IoU of two classes after thresholding the predictions.
class BinaryIoU : public IoU {
 public:
  explicit BinaryIoU(BinaryIoUOptions options = {});
  void update_state(const Tensor& y_true, const Tensor& y_pred,
                    const Tensor& sample_weight = {}) override;
  std::string class_name() const override { return "BinaryIoU"; }
  saving::Json get_config() const override;

 private:
  double threshold_;
};

}  // namespace tfcc::keras::metrics
#pragma GCC visibility pop
