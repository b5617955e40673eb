// keras.utils.text_dataset_from_directory: a Dataset of (text, label) batches from a folder with
// one sub-folder per class holding .txt files.
//
//   auto [train, names] = tfcc::keras::utils::text_dataset_from_directory(
//       "reviews", {.batch_size = 32, .seed = 7, .validation_split = 0.2, .subset = "training"});
//   for (const tfcc::data::Element& b : train) { /* b[0]: (32,) string, b[1]: (32,) int32 */ }
//
// As Keras: classes are the sub-folders in sorted order (or `class_names`, which must name
// them all); files are found recursively, sorted per class; with `shuffle` the file list is
// shuffled by `seed` before the validation split, so "training" and "validation" calls with one
// seed are disjoint. tfcc's shuffle is its own (a seeded Fisher-Yates), so the order for a seed
// differs from Keras'. The texts are read when the dataset is made.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tfcc/data/dataset.h"

namespace tfcc::keras::utils {

/// Options of text_dataset_from_directory (Keras' arguments).
struct TextDatasetOptions {
  /// "inferred" (from the sub-folders) or "" (Keras' None: texts only).
  std::string labels = "inferred";
  /// "int" (int32), "categorical" (float32 one-hot), "binary" (float32, shape (n, 1); exactly
  /// two classes) or "" (no labels).
  std::string label_mode = "int";
  /// The classes to use, in label order; empty: every sub-folder, sorted.
  std::vector<std::string> class_names;
  /// Elements per batch; none: unbatched.
  std::optional<int64_t> batch_size = 32;
  /// Texts are cut to this many bytes.
  std::optional<int64_t> max_length;
  bool shuffle = true;
  std::optional<uint64_t> seed;
  /// Fraction held out for validation (0 < split < 1; needs `subset`).
  std::optional<double> validation_split;
  /// "training", "validation", or "both" (text_dataset_from_directory_both).
  std::string subset;
  bool follow_links = false;
};

/// The dataset and the class names (Keras' dataset.class_names).
struct TextDataset {
  data::Dataset dataset;
  std::vector<std::string> class_names;
};

/// The dataset of `directory` (subset "training" or "validation" with a validation_split).
/// NotFoundError for a missing directory; InvalidArgumentError for invalid options or no files.
TextDataset text_dataset_from_directory(const std::string& directory,
                                        const TextDatasetOptions& options = {});
/// subset "both": (training, validation).
std::pair<TextDataset, TextDataset> text_dataset_from_directory_both(
    const std::string& directory, const TextDatasetOptions& options);

}  // namespace tfcc::keras::utils
#pragma GCC visibility pop
