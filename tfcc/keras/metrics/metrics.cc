// metrics::get: Keras' metric strings.
#include "tfcc/keras/metrics/metrics.h"

#include <functional>
#include <map>

namespace tfcc::keras::metrics {

std::shared_ptr<Metric> get(const std::string& identifier) {
  using Factory = std::function<std::shared_ptr<Metric>(const std::string&)>;
  static const std::map<std::string, Factory> kFactories = {
      {"accuracy", [](const std::string& n) { return std::make_shared<AutoAccuracy>(n); }},
      {"binary_accuracy",
       [](const std::string& n) {
         return std::make_shared<BinaryAccuracy>(BinaryAccuracyOptions{.name = n});
       }},
      {"categorical_accuracy",
       [](const std::string& n) {
         return std::make_shared<CategoricalAccuracy>(MetricOptions{.name = n});
       }},
      {"sparse_categorical_accuracy",
       [](const std::string& n) {
         return std::make_shared<SparseCategoricalAccuracy>(MetricOptions{.name = n});
       }},
      {"top_k_categorical_accuracy",
       [](const std::string& n) {
         return std::make_shared<TopKCategoricalAccuracy>(TopKOptions{.name = n});
       }},
      {"sparse_top_k_categorical_accuracy",
       [](const std::string& n) {
         return std::make_shared<SparseTopKCategoricalAccuracy>(TopKOptions{.name = n});
       }},
      {"mean_squared_error",
       [](const std::string& n) {
         return std::make_shared<MeanSquaredError>(MetricOptions{.name = n});
       }},
      {"mean_absolute_error",
       [](const std::string& n) {
         return std::make_shared<MeanAbsoluteError>(MetricOptions{.name = n});
       }},
      {"precision",
       [](const std::string& n) {
         return std::make_shared<Precision>(PrecisionRecallOptions{.name = n});
       }},
      {"recall",
       [](const std::string& n) {
         return std::make_shared<Recall>(PrecisionRecallOptions{.name = n});
       }},
      {"auc", [](const std::string& n) { return std::make_shared<AUC>(AUCOptions{.name = n}); }},
      {"mean",
       [](const std::string& n) { return std::make_shared<Mean>(MetricOptions{.name = n}); }},
      {"sum", [](const std::string& n) { return std::make_shared<Sum>(MetricOptions{.name = n}); }},
      {"kl_divergence",
       [](const std::string& n) {
         return std::make_shared<KLDivergence>(MetricOptions{.name = n});
       }},
      {"poisson",
       [](const std::string& n) { return std::make_shared<Poisson>(MetricOptions{.name = n}); }},
      {"hinge",
       [](const std::string& n) { return std::make_shared<Hinge>(MetricOptions{.name = n}); }},
      {"squared_hinge",
       [](const std::string& n) {
         return std::make_shared<SquaredHinge>(MetricOptions{.name = n});
       }},
      {"categorical_hinge",
       [](const std::string& n) {
         return std::make_shared<CategoricalHinge>(MetricOptions{.name = n});
       }},
      {"mean_squared_logarithmic_error",
       [](const std::string& n) {
         return std::make_shared<MeanSquaredLogarithmicError>(MetricOptions{.name = n});
       }},
      {"mean_absolute_percentage_error",
       [](const std::string& n) {
         return std::make_shared<MeanAbsolutePercentageError>(MetricOptions{.name = n});
       }},
      {"logcosh",
       [](const std::string& n) {
         return std::make_shared<LogCoshError>(MetricOptions{.name = n});
       }},
      {"root_mean_squared_error",
       [](const std::string& n) {
         return std::make_shared<RootMeanSquaredError>(MetricOptions{.name = n});
       }},
      {"binary_crossentropy",
       [](const std::string& n) {
         return std::make_shared<BinaryCrossentropy>(CrossentropyOptions{.name = n});
       }},
      {"categorical_crossentropy",
       [](const std::string& n) {
         return std::make_shared<CategoricalCrossentropy>(CrossentropyOptions{.name = n});
       }},
      {"sparse_categorical_crossentropy",
       [](const std::string& n) {
         return std::make_shared<SparseCategoricalCrossentropy>(CrossentropyOptions{.name = n});
       }},
      {"cosine_similarity",
       [](const std::string& n) {
         return std::make_shared<CosineSimilarity>(CosineSimilarityOptions{.name = n});
       }},
      {"true_positives",
       [](const std::string& n) {
         return std::make_shared<TruePositives>(ConfusionCountOptions{.name = n});
       }},
      {"true_negatives",
       [](const std::string& n) {
         return std::make_shared<TrueNegatives>(ConfusionCountOptions{.name = n});
       }},
      {"false_positives",
       [](const std::string& n) {
         return std::make_shared<FalsePositives>(ConfusionCountOptions{.name = n});
       }},
      {"false_negatives",
       [](const std::string& n) {
         return std::make_shared<FalseNegatives>(ConfusionCountOptions{.name = n});
       }},
      {"f1_score",
       [](const std::string& n) { return std::make_shared<F1Score>(F1ScoreOptions{.name = n}); }},
      {"f_beta_score",
       [](const std::string& n) {
         return std::make_shared<FBetaScore>(FBetaScoreOptions{.name = n});
       }},
      {"r2_score",
       [](const std::string& n) { return std::make_shared<R2Score>(R2ScoreOptions{.name = n}); }},
  };
  static const std::map<std::string, std::string> kAliases = {
      {"acc", "accuracy"},
      {"Accuracy", "accuracy_exact"},
      {"BinaryAccuracy", "binary_accuracy"},
      {"CategoricalAccuracy", "categorical_accuracy"},
      {"SparseCategoricalAccuracy", "sparse_categorical_accuracy"},
      {"TopKCategoricalAccuracy", "top_k_categorical_accuracy"},
      {"SparseTopKCategoricalAccuracy", "sparse_top_k_categorical_accuracy"},
      {"MeanSquaredError", "mean_squared_error"},
      {"mse", "mean_squared_error"},
      {"MSE", "mean_squared_error"},
      {"MeanAbsoluteError", "mean_absolute_error"},
      {"mae", "mean_absolute_error"},
      {"MAE", "mean_absolute_error"},
      {"Precision", "precision"},
      {"Recall", "recall"},
      {"AUC", "auc"},
      {"Mean", "mean"},
      {"Sum", "sum"},
      {"KLDivergence", "kl_divergence"},
      {"kld", "kl_divergence"},
      {"Poisson", "poisson"},
      {"Hinge", "hinge"},
      {"SquaredHinge", "squared_hinge"},
      {"CategoricalHinge", "categorical_hinge"},
      {"MeanSquaredLogarithmicError", "mean_squared_logarithmic_error"},
      {"msle", "mean_squared_logarithmic_error"},
      {"MeanAbsolutePercentageError", "mean_absolute_percentage_error"},
      {"mape", "mean_absolute_percentage_error"},
      {"LogCoshError", "logcosh"},
      {"RootMeanSquaredError", "root_mean_squared_error"},
      {"BinaryCrossentropy", "binary_crossentropy"},
      {"CategoricalCrossentropy", "categorical_crossentropy"},
      {"SparseCategoricalCrossentropy", "sparse_categorical_crossentropy"},
      {"CosineSimilarity", "cosine_similarity"},
      {"TruePositives", "true_positives"},
      {"TrueNegatives", "true_negatives"},
      {"FalsePositives", "false_positives"},
      {"FalseNegatives", "false_negatives"},
      {"F1Score", "f1_score"},
      {"FBetaScore", "f_beta_score"},
      {"R2Score", "r2_score"},
  };
  std::string key = identifier;
  if (auto a = kAliases.find(key); a != kAliases.end()) key = a->second;
  // The class name "Accuracy" is the exact-equality metric, not compile's shape-based choice.
  if (key == "accuracy_exact") return std::make_shared<Accuracy>(MetricOptions{.name = identifier});
  auto f = kFactories.find(key);
  if (f == kFactories.end()) {
    throw InvalidArgumentError(internal::str_cat(
        "Unknown metric function: '", identifier,
        "'. Known metrics: accuracy (acc), binary_accuracy, categorical_accuracy, "
        "sparse_categorical_accuracy, top_k_categorical_accuracy, "
        "sparse_top_k_categorical_accuracy, mean_squared_error (mse), mean_absolute_error (mae), "
        "precision, recall, auc, mean, sum, kl_divergence, poisson, hinge, squared_hinge, "
        "categorical_hinge, mean_squared_logarithmic_error (msle), "
        "mean_absolute_percentage_error (mape), logcosh, root_mean_squared_error, "
        "binary_crossentropy, categorical_crossentropy, sparse_categorical_crossentropy, "
        "cosine_similarity, true_positives, true_negatives, false_positives, false_negatives, "
        "f1_score, f_beta_score, r2_score, or their class names. Metrics with required "
        "arguments (MeanIoU, PrecisionAtRecall, ...) are passed as objects."));
  }
  return f->second(identifier);
}

}  // namespace tfcc::keras::metrics
