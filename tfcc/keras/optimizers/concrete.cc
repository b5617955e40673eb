#include "tfcc/keras/optimizers/concrete.h"

#include <algorithm>

namespace tfcc::keras::detail {

Tensor concrete_fill(DType dtype, const Shape& shape, double value) {
  Tensor t = Tensor::empty(dtype, shape);
  visit_dtype(dtype, [&]<typename T>() {
    T* p = t.mutable_data<T>();
    std::fill(p, p + t.num_elements(), convert_element<T>(value));
  });
  return t;
}

}  // namespace tfcc::keras::detail
