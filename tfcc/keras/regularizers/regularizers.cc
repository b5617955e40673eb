#include "tfcc/keras/regularizers/regularizers.h"

#include <cmath>

#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"

namespace tfcc::keras::regularizers {

L1L2::L1L2(double l1, double l2) : l1_(l1), l2_(l2) {
  TFCC_CHECK_ARG(std::isfinite(l1) && l1 >= 0,
                 "Value of `l1` must be a non-negative float. Received: l1=", l1);
  TFCC_CHECK_ARG(std::isfinite(l2) && l2 >= 0,
                 "Value of `l2` must be a non-negative float. Received: l2=", l2);
}

Tensor L1L2::operator()(const Tensor& x) const {
  Tensor penalty = zeros({}, x.dtype());
  if (l1_ != 0) penalty = add(penalty, multiply(reduce_sum(abs(x)), l1_));
  if (l2_ != 0) penalty = add(penalty, multiply(reduce_sum(square(x)), l2_));
  return penalty;
}

std::shared_ptr<const Regularizer> get(const std::string& name) {
  if (name == "l1" || name == "L1") return std::make_shared<L1>();
  if (name == "l2" || name == "L2") return std::make_shared<L2>();
  if (name == "l1_l2") return std::make_shared<L1L2>(0.01, 0.01);
  if (name == "L1L2") return std::make_shared<L1L2>();
  throw InvalidArgumentError(
      internal::str_cat("Unknown regularizer: '", name, "'. Known regularizers: l1, l2, l1_l2"));
}

}  // namespace tfcc::keras::regularizers
