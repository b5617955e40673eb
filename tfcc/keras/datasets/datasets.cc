#include "tfcc/keras/datasets/datasets.h"

#include "tfcc/data/datasets/load.h"

namespace tfcc::keras::datasets {
namespace {

std::pair<XY, XY> load(const std::string& name, const std::string& data_dir) {
  tfcc::datasets::Arrays a = tfcc::datasets::load_arrays(name, {.data_dir = data_dir});
  return {{a.x_train, a.y_train}, {a.x_test, a.y_test}};
}

}  // namespace

std::pair<XY, XY> fashion_mnist::load_data(const std::string& data_dir) {
  return load("fashion_mnist", data_dir);
}

std::pair<XY, XY> mnist::load_data(const std::string& data_dir) { return load("mnist", data_dir); }

}  // namespace tfcc::keras::datasets
