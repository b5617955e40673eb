// The seed's debugging section (000_2f49370e33ffcc66.txt, "Débogage"): a traced function with
// data-dependent C++ control flow cannot be traced, and the error says where and what to do;
// tf.config.run_functions_eagerly(True) runs it eagerly so it can be stepped through in a
// debugger (the seed's pdb.set_trace()). Python it mirrors:
//
//   @tf.function
//   def f(x):
//     if x > 0:
//       import pdb
//       pdb.set_trace()
//       x = x + 1
//     return x
//
//   tf.config.run_functions_eagerly(True)
//   f(tf.constant(1))
//
//   class CustomModel(tf.keras.models.Model):
//     @tf.function
//     def call(self, input_data):
//       if tf.reduce_mean(input_data) > 0:
//         return input_data
//       else:
//         import pdb
//         pdb.set_trace()
//         return input_data // 2
//
//   tf.config.run_functions_eagerly(True)
//   model = CustomModel()
//   model(tf.constant([-2, -4]))
#include <iostream>

#include "tfcc/platform/run_main.h"
#include "tfcc/tfcc.h"

namespace tf = tfcc;

static int example_main() {
  auto f = tf::function([](tf::Tensor x) {
    if (x.item<int>() > 0) {
      // A breakpoint here stops with x's value in hand when functions run eagerly.
      std::cout << "in f: x = " << x << "\n";
      x = x + 1;
    }
    return x;
  });

  // Traced, `if (x > 0)` on a tensor has no value to test: a clear error names this file's line.
  try {
    f(tf::constant(1));
  } catch (const tf::FailedPreconditionError& e) {
    std::cout << "Traced: " << e.what() << "\n\n";
  }

  tf::config::run_functions_eagerly(true);
  std::cout << "f(1) = " << f(tf::constant(1)) << "\n";

  auto call = tf::function([](tf::Tensor input_data) {
    if (tf::reduce_mean(input_data).item<int>() > 0) {
      return input_data;
    }
    std::cout << "in call: input_data = " << input_data << "\n";  // the seed's breakpoint
    return tf::floordiv(input_data, 2);
  });
  std::cout << "model([-2, -4]) = " << call(tf::constant({-2, -4})) << "\n";
  tf::config::run_functions_eagerly(false);

  // The traced way to write the same branch: tf::cond.
  auto traced = tf::function([](tf::Tensor input_data) {
    return tf::cond(
        tf::reduce_mean(input_data) > 0, [&] { return input_data; },
        [&] { return tf::floordiv(input_data, 2); });
  });
  std::cout << "traced with tf::cond: " << traced(tf::constant({-2, -4})) << "\n";
  return 0;
}

int main(int argc, char** argv) { return tfcc::run_main(argc, argv, example_main); }
