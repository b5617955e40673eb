#include "tfcc/keras/utils/np_utils.h"

#include <algorithm>
#include <vector>

#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/platform/errors.h"

namespace tfcc::keras::utils {

Tensor to_categorical(const Tensor& y, std::optional<int64_t> num_classes) {
  TFCC_CHECK_ARG(is_integer(y.dtype()) || is_floating(y.dtype()),
                 "to_categorical: labels must be integers (or reals), got ", dtype_name(y.dtype()));
  std::vector<int64_t> shape = y.shape().dims();
  if (shape.size() > 1 && shape.back() == 1) shape.pop_back();
  const std::vector<int64_t> labels = cast(y, int64).to_vector<int64_t>();
  int64_t classes = 0;
  if (num_classes) {
    classes = *num_classes;
    TFCC_CHECK_ARG(classes > 0, "to_categorical: num_classes must be positive, got ", classes);
  } else {
    TFCC_CHECK_ARG(!labels.empty(), "to_categorical: no labels to infer num_classes from");
    classes = *std::max_element(labels.begin(), labels.end()) + 1;
  }
  for (size_t i = 0; i < labels.size(); ++i) {
    TFCC_CHECK_ARG(labels[i] >= 0 && labels[i] < classes, "to_categorical: label ", labels[i],
                   " at flat index ", i, " is outside [0, ", classes, ")");
  }
  shape.push_back(classes);
  Tensor out = Tensor::empty(float32, Shape(shape));
  float* data = out.mutable_data<float>();
  std::fill(data, data + out.num_elements(), 0.0f);
  for (size_t i = 0; i < labels.size(); ++i) {
    data[static_cast<int64_t>(i) * classes + labels[i]] = 1.0f;
  }
  return out;
}

}  // namespace tfcc::keras::utils
