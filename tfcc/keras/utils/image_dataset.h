// keras.utils.image_dataset_from_directory: a tf.data pipeline of (image, label) batches from a
// folder with one sub-folder per class.
//
//   // flowers/daisy/*.jpg, flowers/roses/*.jpg, ...
//   auto train = tfcc::keras::utils::image_dataset_from_directory(
//       "flowers", {.image_size = {180, 180}, .seed = 123, .validation_split = 0.2,
//                   .subset = "training"});
//   train.class_names;                       // {"daisy", "roses", ...}
//   model.fit(train.dataset, {.epochs = 3});  // float32 (batch, 180, 180, 3), int32 (batch,)
//
// As Keras 3: class names are the sub-folders in alphabetical order (or `class_names`, which
// must match them); files are found recursively with the extensions .bmp .gif .jpeg .jpg .png
// (any case), sorted per folder; with `shuffle` the file list is shuffled with NumPy's legacy
// RandomState(seed) permutation, so a seed selects the same training / validation files as
// Keras; images are decoded (decode_image, first frame of a GIF) and resized
// (tfcc::image::resize, or a centre crop to the target aspect ratio first) in the dataset's
// parallel map, then shuffled in a buffer of 8 batches, batched and prefetched.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tfcc/data/dataset.h"

namespace tfcc::keras::utils {

/// Options of image_dataset_from_directory, with Keras 3's defaults.
struct ImageDatasetOptions {
  /// "inferred" (from the sub-folders) or "none" (images only).
  std::string labels = "inferred";
  /// "int" (int32 class index), "categorical" (float32 one-hot), "binary" (float32 (1,), two
  /// classes) or "none" (images only).
  std::string label_mode = "int";
  /// The sub-folders to use, in label order (empty: all, alphabetical).
  std::vector<std::string> class_names;
  /// "rgb" (3 channels), "rgba" (4) or "grayscale" (1).
  std::string color_mode = "rgb";
  /// Images per batch; 0: unbatched elements (Keras' batch_size=None).
  int64_t batch_size = 32;
  std::array<int64_t, 2> image_size = {256, 256};
  bool shuffle = true;
  /// Seed of the file shuffle and of the batch shuffle (required with validation_split and
  /// shuffle, as in Keras). Unset: random.
  std::optional<int64_t> seed;
  /// Fraction of the files held out for validation (the last ones after the shuffle).
  std::optional<double> validation_split;
  /// "training" or "validation" with validation_split ("both": image_datasets_from_directory).
  std::string subset;
  /// Any tfcc::image::resize_method name: "bilinear", "nearest", "bicubic", "area", ...
  std::string interpolation = "bilinear";
  /// Follow symbolic links to folders while searching.
  bool follow_links = false;
  /// Centre-crop each image to the target aspect ratio before resizing.
  bool crop_to_aspect_ratio = false;
  /// Decoding threads (tfcc extension): tf.data AUTOTUNE by default, 1 for sequential.
  int64_t num_parallel_calls = data::AUTOTUNE;
  /// Print "Found N files belonging to K classes." as Keras does.
  bool verbose = true;
};

/// The dataset and what Keras attaches to it.
struct ImageDataset {
  data::Dataset dataset;                 ///< (images, labels) or images
  std::vector<std::string> class_names;  ///< label i is class_names[i]
  std::vector<std::string> file_paths;   ///< in dataset order before the batch shuffle
};

/// keras.utils.image_dataset_from_directory for subset "", "training" or "validation".
/// NotFoundError for a missing folder, InvalidArgumentError for inconsistent options (naming
/// them, as Keras' messages do); a file that does not decode fails the iteration with the
/// decoder's error naming the file.
ImageDataset image_dataset_from_directory(const std::string& directory,
                                          const ImageDatasetOptions& options = {});

/// subset "both": the training and validation datasets.
std::pair<ImageDataset, ImageDataset> image_datasets_from_directory(const std::string& directory,
                                                                    ImageDatasetOptions options);

}  // namespace tfcc::keras::utils
#pragma GCC visibility pop
