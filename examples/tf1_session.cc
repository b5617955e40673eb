// The seed's eager-versus-graph note (001_89784537667dd1e1.txt): the same sum computed eagerly,
// then with eager execution disabled, as a graph run by a Session. Python it mirrors:
//
//   tf.enable_eager_execution()          # eager: z holds 5 as soon as it is computed
//   x = tf.constant(2); y = tf.constant(3); z = x + y
//   print(z)
//
//   x = tf.constant(2); y = tf.constant(3)   # eager disabled: z is a node of a graph
//   z = tf.add(x, y)
//   with tf.Session() as sess:
//     print(sess.run(z))
#include <iostream>

#include "tfcc/platform/run_main.h"
#include "tfcc/tfcc.h"

namespace tf = tfcc;
namespace v1 = tfcc::compat::v1;

static int example_main() {
  {
    auto x = tf::constant(2);
    auto y = tf::constant(3);
    auto z = x + y;
    std::cout << z << "\n";  // tf.Tensor(5, shape=(), dtype=int32)
  }

  v1::disable_eager_execution();
  auto x = tf::constant(2);
  auto y = tf::constant(3);
  auto z = tf::add(x, y);
  std::cout << "z is symbolic: " << (z.is_symbolic() ? "yes" : "no") << "\n";
  std::cout << v1::get_default_graph().to_string();
  v1::Session sess;
  tf::Tensor result = sess.run(z);
  std::cout << result.values_string() << "\n";  // 5
  v1::enable_eager_execution();
  return result.item<int>() == 5 ? 0 : 1;
}

int main(int argc, char** argv) { return tfcc::run_main(argc, argv, example_main); }
