// The README's first example, as a program outside tfcc's tree would write it.
#include <tfcc/tfcc.h>
namespace tf = tfcc;

int main() {
  auto x = tf::constant(2);
  auto y = tf::constant(3);
  auto z = x + y;
  std::cout << z << "\n";  // tf.Tensor(5, shape=(), dtype=int32)
}
