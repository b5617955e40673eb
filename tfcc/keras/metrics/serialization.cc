// metrics::serialize / deserialize: Keras 3's metric configs, key for key.
#include "tfcc/keras/metrics/serialization.h"

#include <functional>
#include <map>
#include <string>

#include "tfcc/keras/metrics/accuracy.h"
#include "tfcc/keras/metrics/config_util.h"
#include "tfcc/keras/metrics/confusion_counts.h"
#include "tfcc/keras/metrics/fbeta.h"
#include "tfcc/keras/metrics/iou.h"
#include "tfcc/keras/metrics/r2_score.h"
#include "tfcc/keras/metrics/sensitivity_specificity.h"
#include "tfcc/keras/saving/layer_registry.h"

namespace tfcc::keras::metrics {
namespace {

using saving::Json;
namespace cu = config_util;

std::optional<std::string> name_of(const Json& c) { return cu::read_optional_string(c, "name"); }

DType dtype_of(const Json& c, DType def) {
  std::optional<std::string> d = cu::read_optional_string(c, "dtype");
  return d ? saving::dtype_from_name(*d) : def;
}

IoUOptions iou_options(const Json& c) {
  return {.name = name_of(c),
          .dtype = dtype_of(c, int64),
          .ignore_class = cu::read_optional_int(c, "ignore_class"),
          .sparse_y_true = cu::read_bool(c, "sparse_y_true", true),
          .sparse_y_pred = cu::read_bool(c, "sparse_y_pred", true),
          .axis = cu::read_optional_int(c, "axis").value_or(-1)};
}

OneHotIoUOptions one_hot_options(const Json& c) {
  return {.name = name_of(c),
          .dtype = dtype_of(c, int64),
          .ignore_class = cu::read_optional_int(c, "ignore_class"),
          .sparse_y_pred = cu::read_bool(c, "sparse_y_pred", false),
          .axis = cu::read_optional_int(c, "axis").value_or(-1)};
}

ConfusionCountOptions count_options(const Json& c) {
  return {.thresholds = cu::read_numbers(c, "thresholds"),
          .name = name_of(c),
          .dtype = dtype_of(c, float32)};
}

SensitivitySpecificityOptions rate_options(const Json& c) {
  return {.num_thresholds = cu::read_optional_int(c, "num_thresholds").value_or(200),
          .class_id = cu::read_optional_int(c, "class_id"),
          .name = name_of(c),
          .dtype = dtype_of(c, float32)};
}

double required_number(const Json& c, const char* key) { return c.at(key).as_number(key); }

FScoreAverage average_of(const Json& c) {
  const Json* v = c.find("average");
  return v == nullptr ? FScoreAverage::kNone : fscore_average_from_json(*v);
}

using Maker = std::function<std::shared_ptr<Metric>(const Json&)>;

const std::map<std::string, Maker>& makers() {
  static const std::map<std::string, Maker> kMakers = {
      {"IoU",
       [](const Json& c) {
         return std::make_shared<IoU>(c.at("num_classes").as_int("num_classes"),
                                      cu::read_ints(c, "target_class_ids"), iou_options(c));
       }},
      {"MeanIoU",
       [](const Json& c) {
         return std::make_shared<MeanIoU>(c.at("num_classes").as_int("num_classes"),
                                          iou_options(c));
       }},
      {"OneHotIoU",
       [](const Json& c) {
         return std::make_shared<OneHotIoU>(c.at("num_classes").as_int("num_classes"),
                                            cu::read_ints(c, "target_class_ids"),
                                            one_hot_options(c));
       }},
      {"OneHotMeanIoU",
       [](const Json& c) {
         return std::make_shared<OneHotMeanIoU>(c.at("num_classes").as_int("num_classes"),
                                                one_hot_options(c));
       }},
      {"BinaryIoU",
       [](const Json& c) {
         BinaryIoUOptions o{.name = name_of(c), .dtype = dtype_of(c, int64)};
         if (const Json* ids = c.find("target_class_ids"); ids && !ids->is_null()) {
           o.target_class_ids = cu::read_ints(c, "target_class_ids");
         }
         o.threshold = cu::read_number(c, "threshold", o.threshold);
         return std::make_shared<BinaryIoU>(std::move(o));
       }},
      {"FBetaScore",
       [](const Json& c) {
         return std::make_shared<FBetaScore>(
             FBetaScoreOptions{.average = average_of(c),
                               .beta = cu::read_number(c, "beta", 1.0),
                               .threshold = cu::read_optional_number(c, "threshold"),
                               .name = name_of(c),
                               .dtype = dtype_of(c, float32)});
       }},
      {"F1Score",
       [](const Json& c) {
         return std::make_shared<F1Score>(
             F1ScoreOptions{.average = average_of(c),
                            .threshold = cu::read_optional_number(c, "threshold"),
                            .name = name_of(c),
                            .dtype = dtype_of(c, float32)});
       }},
      {"R2Score",
       [](const Json& c) {
         R2ScoreOptions o{.name = name_of(c), .dtype = dtype_of(c, float32)};
         if (const Json* a = c.find("class_aggregation")) {
           o.class_aggregation = r2_aggregation_from_json(*a);
         }
         o.num_regressors = cu::read_optional_int(c, "num_regressors").value_or(0);
         return std::make_shared<R2Score>(std::move(o));
       }},
      {"TruePositives",
       [](const Json& c) { return std::make_shared<TruePositives>(count_options(c)); }},
      {"TrueNegatives",
       [](const Json& c) { return std::make_shared<TrueNegatives>(count_options(c)); }},
      {"FalsePositives",
       [](const Json& c) { return std::make_shared<FalsePositives>(count_options(c)); }},
      {"FalseNegatives",
       [](const Json& c) { return std::make_shared<FalseNegatives>(count_options(c)); }},
      {"SensitivityAtSpecificity",
       [](const Json& c) {
         return std::make_shared<SensitivityAtSpecificity>(required_number(c, "specificity"),
                                                           rate_options(c));
       }},
      {"SpecificityAtSensitivity",
       [](const Json& c) {
         return std::make_shared<SpecificityAtSensitivity>(required_number(c, "sensitivity"),
                                                           rate_options(c));
       }},
      {"PrecisionAtRecall",
       [](const Json& c) {
         return std::make_shared<PrecisionAtRecall>(required_number(c, "recall"), rate_options(c));
       }},
      {"RecallAtPrecision",
       [](const Json& c) {
         return std::make_shared<RecallAtPrecision>(required_number(c, "precision"),
                                                    rate_options(c));
       }},
      {"SparseTopKCategoricalAccuracy",
       [](const Json& c) {
         return std::make_shared<SparseTopKCategoricalAccuracy>(
             TopKOptions{.k = cu::read_optional_int(c, "k").value_or(5),
                         .name = name_of(c),
                         .dtype = dtype_of(c, float32),
                         .from_sorted_ids = cu::read_bool(c, "from_sorted_ids", false)});
       }},
  };
  return kMakers;
}

}  // namespace

Json serialize(const Metric& metric) {
  std::string cls = metric.class_name();
  TFCC_CHECK_ARG(!cls.empty(), "Metric '", metric.name(),
                 "' has no Keras config to serialize (metrics::serialize supports ",
                 "the IoU family, F1Score, FBetaScore, R2Score, the confusion counts, the ",
                 "*At* metrics and SparseTopKCategoricalAccuracy)");
  Json out = Json::object();
  out.set("module", Json("keras.metrics"));
  out.set("class_name", Json(cls));
  out.set("config", metric.get_config());
  out.set("registered_name", Json());
  return out;
}

std::shared_ptr<Metric> deserialize(const Json& serialized) {
  const std::string& cls = serialized.at("class_name", "serialized metric").as_string("class_name");
  auto it = makers().find(cls);
  if (it == makers().end()) {
    throw InvalidArgumentError(internal::str_cat(
        "metrics::deserialize: unknown metric class '", cls,
        "' (known: IoU, MeanIoU, OneHotIoU, OneHotMeanIoU, BinaryIoU, FBetaScore, F1Score, "
        "R2Score, TruePositives, TrueNegatives, FalsePositives, FalseNegatives, "
        "SensitivityAtSpecificity, SpecificityAtSensitivity, PrecisionAtRecall, "
        "RecallAtPrecision, SparseTopKCategoricalAccuracy)"));
  }
  const Json* config = serialized.find("config");
  return it->second(config != nullptr && !config->is_null() ? *config : Json::object());
}

}  // namespace tfcc::keras::metrics
