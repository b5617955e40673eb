// The seed's low-level training loop without Keras (000_2f49370e33ffcc66.txt, "train_step" with
// tf.GradientTape): a small model held in variables, a tape to collect gradients, and a
// hand-written SGD update. Python it mirrors:
//
//   w1 = tf.Variable(tf.random.normal([4, 32], stddev=0.5)); b1 = tf.Variable(tf.zeros([32]))
//   w2 = tf.Variable(tf.random.normal([32, 1], stddev=0.5)); b2 = tf.Variable(tf.zeros([1]))
//   for epoch in range(NUM_EPOCHS):
//     with tf.GradientTape() as tape:
//       pred = tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2) + b2
//       loss = tf.reduce_mean(tf.square(pred - y))
//     grads = tape.gradient(loss, [w1, b1, w2, b2])
//     for v, g in zip([w1, b1, w2, b2], grads): v.assign_sub(learning_rate * g)
//     print("Epoch", epoch, "loss", loss.numpy())
#include <cstdio>

#include "tfcc/platform/run_main.h"
#include "tfcc/tfcc.h"

namespace tf = tfcc;

static int example_main() {
  tf::random::set_seed(42);
  // Synthetic regression data: y = sum(sin(x)) over 4 features.
  auto x = tf::random::uniform({256, 4}, -2, 2);
  auto y = tf::reduce_sum(tf::sin(x), 1, /*keepdims=*/true);

  tf::Variable w1(tf::random::normal({4, 32}, 0, 0.5), {.name = "w1"});
  tf::Variable b1(tf::zeros({32}), {.name = "b1"});
  tf::Variable w2(tf::random::normal({32, 1}, 0, 0.5), {.name = "w2"});
  tf::Variable b2(tf::zeros({1}), {.name = "b2"});
  std::vector<tf::Variable> params = {w1, b1, w2, b2};
  const float learning_rate = 0.05f;

  float first = 0, last = 0;
  for (int epoch = 0; epoch < 200; ++epoch) {
    tf::GradientTape tape;
    auto hidden = tf::relu(tf::matmul(x, w1) + b1);
    auto pred = tf::matmul(hidden, w2) + b2;
    auto loss = tf::reduce_mean(tf::square(pred - y));
    auto grads = tape.gradient(loss, params);
    for (size_t i = 0; i < params.size(); ++i) params[i].assign_sub(grads[i] * learning_rate);
    last = loss.item<float>();
    if (epoch == 0) first = last;
    if (epoch % 20 == 0 || epoch == 199) std::printf("Epoch %3d  loss %.4f\n", epoch, last);
  }
  std::printf("loss went from %.4f to %.4f\n", first, last);
  return last < first / 4 ? 0 : 1;  // the example fails if training did not work
}

int main(int argc, char** argv) { return tfcc::run_main(argc, argv, example_main); }
