// keras::datasets: the data sets of keras.datasets that Debian ships, as whole tensors.
//
//   auto [train, test] = tfcc::keras::datasets::fashion_mnist::load_data();
//   auto [x_train, y_train] = train;   // uint8 (60000, 28, 28), uint8 (60000,)
//   auto [x_test, y_test] = test;      // uint8 (10000, 28, 28), uint8 (10000,)
//   Tensor y = tfcc::keras::utils::to_categorical(y_train, 10);    // float32 (60000, 10)
//
// The IDX files are found as tfcc::datasets::load finds them (tfcc/data/datasets/load.h):
// `data_dir`, then $TFCC_DATASETS_DIR, then Debian's /usr/share/datasets (package
// dataset-fashion-mnist). Nothing is downloaded: MNIST's digits, which no Debian package holds,
// must be put in one of those folders; a missing data set is a NotFoundError saying where it was
// looked for.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <string>
#include <utility>

#include "tfcc/core/tensor.h"

namespace tfcc::keras::datasets {

/// (x, y): images and labels of one split.
using XY = std::pair<Tensor, Tensor>;

namespace fashion_mnist {
/// ((x_train, y_train), (x_test, y_test)) of Fashion-MNIST, as keras.datasets.fashion_mnist.
std::pair<XY, XY> load_data(const std::string& data_dir = "");
}  // namespace fashion_mnist

namespace mnist {
/// ((x_train, y_train), (x_test, y_test)) of MNIST, as keras.datasets.mnist.
std::pair<XY, XY> load_data(const std::string& data_dir = "");
}  // namespace mnist

}  // namespace tfcc::keras::datasets
#pragma GCC visibility pop
