// The seed's eager example (001_89784537667dd1e1.txt, "Mode impatient activé"):
//
//   import tensorflow as tf
//   x = tf.constant(2)
//   y = tf.constant(3)
//   z = x + y
//   print(z)
//
// and a few more ops, each printed the way TensorFlow prints tensors.
#include <iostream>

#include "tfcc/platform/run_main.h"
#include "tfcc/tfcc.h"

namespace tf = tfcc;

static int example_main() {
  auto x = tf::constant(2);
  auto y = tf::constant(3);
  auto z = x + y;
  std::cout << z << "\n";

  auto a = tf::constant({{1.f, 2.f}, {3.f, 4.f}});
  std::cout << tf::add(a, 1) << "\n";
  std::cout << tf::exp(tf::constant({-1.f, 0.f, 2.f})) << "\n";
  std::cout << (a > 2) << "\n";
  std::cout << tf::cast(tf::constant({1.7f, -1.7f}), tf::int32) << "\n";
  std::cout << tf::where(a > 2, a, 0) << "\n";
  return 0;
}

int main(int argc, char** argv) { return tfcc::run_main(argc, argv, example_main); }
