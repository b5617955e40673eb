// Keras metrics: every metric object, and metrics::get for the strings compile accepts.
//
//   namespace metrics = tfcc::keras::metrics;
//   auto acc = metrics::get("accuracy");     // picks binary / sparse / categorical from shapes
//   auto m = metrics::get("mse");             // MeanSquaredError named "mse"
//   metrics::Mean loss_tracker({.name = "loss"});
//
// A metric obtained from a string is named exactly by that string, as in tf.keras' compile
// (metrics=["acc", "accuracy"] gives history keys "acc" and "accuracy").
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <memory>
#include <string>

#include "tfcc/keras/metrics/accuracy.h"
#include "tfcc/keras/metrics/confusion.h"
#include "tfcc/keras/metrics/confusion_counts.h"
#include "tfcc/keras/metrics/fbeta.h"
#include "tfcc/keras/metrics/iou.h"
#include "tfcc/keras/metrics/loss_metrics.h"
#include "tfcc/keras/metrics/metric.h"
#include "tfcc/keras/metrics/r2_score.h"
#include "tfcc/keras/metrics/sensitivity_specificity.h"
#include "tfcc/keras/metrics/serialization.h"

namespace tfcc::keras::metrics {

/// A new metric object for a Keras metric string: "accuracy" / "acc" (AutoAccuracy),
/// "binary_accuracy", "categorical_accuracy", "sparse_categorical_accuracy",
/// "top_k_categorical_accuracy", "sparse_top_k_categorical_accuracy", "mean_squared_error" /
/// "mse", "mean_absolute_error" / "mae", "precision", "recall", "auc", "mean", "sum", the loss
/// metrics (loss_metrics.h), "true_positives" / "true_negatives" / "false_positives" /
/// "false_negatives", "f1_score", "f_beta_score", "r2_score", or a class name
/// ("SparseCategoricalAccuracy", "AUC", "F1Score", ...). The metric is named `identifier`.
/// InvalidArgumentError for an unknown name.
std::shared_ptr<Metric> get(const std::string& identifier);

}  // namespace tfcc::keras::metrics
#pragma GCC visibility pop
