// keras.metrics.serialize / deserialize for the metrics that carry a Keras config: the IoU
// family, F1Score / FBetaScore, R2Score, the confusion counts, the rate-at-rate metrics and
// SparseTopKCategoricalAccuracy.
//
//   namespace metrics = tfcc::keras::metrics;
//   metrics::IoU iou(3, {0, 2}, {.ignore_class = 255});
//   saving::Json j = metrics::serialize(iou);   // {"module", "class_name": "IoU", "config", ...}
//   std::shared_ptr<metrics::Metric> back = metrics::deserialize(j);
//   metrics::deserialize(saving::Json::parse(R"({"class_name": "F1Score",
//                                                "config": {"average": "macro"}})", "f1"));
//
// A config key that is missing or None keeps the constructor's default, as Keras' from_config;
// the positional arguments (num_classes, target_class_ids, recall, ...) are required.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <memory>

#include "tfcc/keras/metrics/metric.h"
#include "tfcc/keras/saving/json.h"

namespace tfcc::keras::metrics {

/// {"module": "keras.metrics", "class_name", "config": get_config(), "registered_name": None};
/// InvalidArgumentError for a metric without a Keras config (class_name() empty).
saving::Json serialize(const Metric& metric);
/// A new metric from serialize's form ({"class_name", "config"}); InvalidArgumentError for an
/// unknown class name or a malformed config (naming the key).
std::shared_ptr<Metric> deserialize(const saving::Json& serialized);

}  // namespace tfcc::keras::metrics
#pragma GCC visibility pop
