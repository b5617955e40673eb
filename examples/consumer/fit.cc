// One epoch of model.fit on a small synthetic dataset (two Gaussian blobs, label 1 where
// x0 + x1 > 0), built against an installed tfcc. Exits non-zero if the headers and the library
// disagree on the version or the loss is not a finite number.
#include <tfcc/tfcc.h>
#include <tfcc/version.h>

#include <cmath>
#include <iostream>

namespace tf = tfcc;
using namespace tfcc::keras;

int main() {
  std::cout << "tfcc " << tf::version() << " (headers " << TFCC_VERSION_STRING << ")\n";
  if (tf::version() != TFCC_VERSION_STRING) return 1;

  tf::random::set_seed(7);
  auto x = tf::random::normal({512, 2});
  auto y = tf::cast(tf::greater(tf::reduce_sum(x, 1), 0.0f), tf::int64);

  Sequential model(
      {layers::Dense(16, {.activation = "relu", .input_shape = {2}}), layers::Dense(2)});
  model.compile({.optimizer = optimizers::Adam(0.01),
                 .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
                 .metrics = {"accuracy"}});
  auto history = model.fit(x, y, {.batch_size = 32, .epochs = 1});
  double loss = history["loss"].back();
  std::cout << "loss after one epoch: " << loss << "\n";
  return std::isfinite(loss) ? 0 : 1;
}
