// metrics::serialize / deserialize round trips with Keras 3.15's config keys, and the strings
// metrics::get accepts for the new metrics; SparseTopKCategoricalAccuracy(from_sorted_ids)
// against values printed by testdata/keras3_metric_values.py (Keras 3.15.1).
#include "tfcc/keras/metrics/serialization.h"

#include <gtest/gtest.h>

#include "tests/unit/keras/metrics/metric_steps.h"
#include "tfcc/keras/metrics/metrics.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras::metrics {
namespace {

using saving::Json;

// The config as text, and the config after a trip through serialize, JSON text and deserialize.
void expect_round_trip(const Metric& m, const std::string& keras_config) {
  Json s = serialize(m);
  EXPECT_EQ(s.at("class_name").as_string(), m.class_name());
  EXPECT_EQ(s.at("config").dump(), keras_config) << m.class_name();
  std::shared_ptr<Metric> back = deserialize(Json::parse(s.dump(), "round trip"));
  EXPECT_EQ(back->class_name(), m.class_name());
  EXPECT_EQ(back->get_config().dump(), keras_config) << m.class_name();
}

// The expected strings are Keras 3.15's get_config() of the same objects, as json.dumps writes
// them (None as null, Python floats as numbers).
TEST(MetricSerializationTest, KerasConfigsRoundTrip) {
  expect_round_trip(IoU(3, {0, 2}, {.ignore_class = 255}),
                    R"({"name": "io_u", "dtype": "int64", "num_classes": 3, )"
                    R"("target_class_ids": [0, 2], "ignore_class": 255, "sparse_y_true": true, )"
                    R"("sparse_y_pred": true, "axis": -1})");
  expect_round_trip(MeanIoU(4, {.dtype = float32, .sparse_y_pred = false}),
                    R"({"num_classes": 4, "name": "mean_io_u", "dtype": "float32", )"
                    R"("ignore_class": null, "sparse_y_true": true, "sparse_y_pred": false, )"
                    R"("axis": -1})");
  expect_round_trip(BinaryIoU({.target_class_ids = {1}, .threshold = 0.25}),
                    R"({"target_class_ids": [1], "threshold": 0.25, "name": "binary_io_u", )"
                    R"("dtype": "int64"})");
  expect_round_trip(OneHotIoU(3, {1}), R"({"num_classes": 3, "target_class_ids": [1], )"
                                       R"("name": "one_hot_io_u", "dtype": "int64", )"
                                       R"("ignore_class": null, "sparse_y_pred": false, )"
                                       R"("axis": -1})");
  expect_round_trip(OneHotMeanIoU(3, {.name = "miou"}),
                    R"({"num_classes": 3, "name": "miou", "dtype": "int64", )"
                    R"("ignore_class": null, "sparse_y_pred": false, "axis": -1})");
  expect_round_trip(FBetaScore({.average = FScoreAverage::kWeighted, .beta = 2.0}),
                    R"({"name": "fbeta_score", "dtype": "float32", "average": "weighted", )"
                    R"("beta": 2.0, "threshold": null})");
  expect_round_trip(F1Score({.average = FScoreAverage::kMicro, .threshold = 0.5}),
                    R"({"name": "f1_score", "dtype": "float32", "average": "micro", )"
                    R"("threshold": 0.5})");
  expect_round_trip(R2Score({.class_aggregation = R2Aggregation::kNone, .num_regressors = 2}),
                    R"({"name": "r2_score", "dtype": "float32", "class_aggregation": null, )"
                    R"("num_regressors": 2})");
  expect_round_trip(TruePositives(),
                    R"({"name": "true_positives", "dtype": "float32", "thresholds": null})");
  expect_round_trip(FalseNegatives({.thresholds = {0.25, 0.75}}),
                    R"({"name": "false_negatives", "dtype": "float32", )"
                    R"("thresholds": [0.25, 0.75]})");
  expect_round_trip(PrecisionAtRecall(0.5),
                    R"({"name": "precision_at_recall", "dtype": "float32", "class_id": null, )"
                    R"("num_thresholds": 200, "recall": 0.5})");
  expect_round_trip(SpecificityAtSensitivity(0.25, {.num_thresholds = 10, .class_id = 1}),
                    R"({"name": "specificity_at_sensitivity", "dtype": "float32", )"
                    R"("class_id": 1, "num_thresholds": 10, "sensitivity": 0.25})");
  expect_round_trip(SparseTopKCategoricalAccuracy({.k = 3, .from_sorted_ids = true}),
                    R"({"name": "sparse_top_k_categorical_accuracy", "dtype": "float32", )"
                    R"("k": 3, "from_sorted_ids": true})");
}

TEST(MetricSerializationTest, DefaultsAndErrors) {
  // Missing keys keep the defaults; the positional arguments are required.
  auto f1 = deserialize(Json::parse(R"({"class_name": "F1Score"})", "test"));
  EXPECT_EQ(f1->name(), "f1_score");
  EXPECT_THROW(deserialize(Json::parse(R"({"class_name": "MeanIoU", "config": {}})", "test")),
               Error);
  EXPECT_THROW(deserialize(Json::parse(R"({"class_name": "Nope", "config": {}})", "test")),
               InvalidArgumentError);
  EXPECT_THROW(
      deserialize(Json::parse(R"({"class_name": "F1Score", "config": {"average": "x"}})", "t")),
      InvalidArgumentError);
  EXPECT_THROW(serialize(Mean()), InvalidArgumentError);  // no Keras config in tfcc yet
}

TEST(MetricRegistryTest, NewStringsAndClassNames) {
  for (const char* id :
       {"true_positives", "TruePositives", "true_negatives", "false_positives", "FalseNegatives",
        "f1_score", "F1Score", "f_beta_score", "FBetaScore", "r2_score", "R2Score"}) {
    std::shared_ptr<Metric> m = get(id);
    ASSERT_NE(m, nullptr) << id;
    EXPECT_EQ(m->name(), id);
    EXPECT_FALSE(m->class_name().empty()) << id;
  }
  EXPECT_EQ(get("R2Score")->class_name(), "R2Score");
  EXPECT_THROW(get("mean_io_u"), InvalidArgumentError);  // needs num_classes, as in Keras
}

TEST(SparseTopKSortedIdsTest, FirstKIdsAgainstKeras) {
  Tensor y = constant({2, 0, 3, 1});
  Tensor ids = constant({{2, 1, 0, 3}, {1, 3, 0, 2}, {0, 1, 2, 3}, {1, 1, 2, 0}});
  SparseTopKCategoricalAccuracy top2({.k = 2, .from_sorted_ids = true});
  testing::expect_values(
      testing::run(top2, {{y, ids, constant({1.f, 2.f, 1.f, 0.5f})}, {y, ids, {}}}),
      {0.333333343, 0.411764711}, "sparse_top2_sorted");
  SparseTopKCategoricalAccuracy top3({.k = 3, .from_sorted_ids = true});
  testing::expect_values(testing::run(top3, {{y, ids, {}}}), {0.75}, "sparse_top3_sorted");
}

}  // namespace
}  // namespace tfcc::keras::metrics
