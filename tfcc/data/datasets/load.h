// tfcc::datasets::load: ready-made datasets, like tensorflow_datasets' tfds.load.
//
//   auto [train, test] = tfcc::datasets::load("fashion_mnist");  // (uint8 [28,28], int64 label)
//   auto [splits, info] = tfcc::datasets::load_with_info("mnist");
//   info.num_classes;          // 10
//   info.splits.at("train");   // 60000
//   splits["test"];            // the test Dataset
//
// Known names: "mnist" and "fashion_mnist". The IDX files (plain or .gz) are looked up in
// LoadOptions::data_dir, then $TFCC_DATASETS_DIR/<name> (also with '-' for '_'), then Debian's
// /usr/share/datasets/<name-with-dashes> (package dataset-fashion-mnist). A dataset found nowhere
// raises NotFoundError naming every place searched and how to install it.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tfcc/data/dataset.h"

namespace tfcc::datasets {

/// The train and test splits; `auto [train, test] = load(...)` or `splits["train"]`.
struct Splits {
  data::Dataset train;
  data::Dataset test;
  /// The split named "train" or "test" (NotFoundError otherwise).
  const data::Dataset& operator[](std::string_view split) const;
};

/// What tfds' DatasetInfo says about a dataset.
struct DatasetInfo {
  std::string name;                       ///< "fashion_mnist"
  std::string description;                ///< one line
  data::ElementSpec features;             ///< (image uint8 (28, 28), label int64 ())
  int64_t num_classes = 0;                ///< 10
  std::vector<std::string> class_names;   ///< "T-shirt/top", "Trouser", ...
  std::map<std::string, int64_t> splits;  ///< {"test": 10000, "train": 60000}
  std::string data_dir;                   ///< where the files were found
  /// A multi-line summary, like printing tfds' info.
  std::string to_string() const;
};

/// Options of load.
struct LoadOptions {
  /// Searched first when not empty: a folder holding the four IDX files.
  std::string data_dir;
};

/// Loads a dataset's train and test splits as (uint8 image [28, 28], int64 label) elements.
Splits load(const std::string& name, const LoadOptions& options = {});

/// load() plus its DatasetInfo (tfds.load(..., with_info=True)).
struct LoadedWithInfo {
  Splits datasets;
  DatasetInfo info;
};
LoadedWithInfo load_with_info(const std::string& name, const LoadOptions& options = {});

/// The splits as whole tensors (what keras.datasets.<name>.load_data() returns): images uint8
/// (N, 28, 28), labels uint8 (N,).
struct Arrays {
  Tensor x_train, y_train, x_test, y_test;
};
/// Reads a dataset's four files into Arrays (same names, search and errors as load).
Arrays load_arrays(const std::string& name, const LoadOptions& options = {});

}  // namespace tfcc::datasets
#pragma GCC visibility pop
