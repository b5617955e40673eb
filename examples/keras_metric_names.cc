// The seed's "Keras metric names" program (000_2f49370e33ffcc66.txt): a metric passed to compile
// as a string is named by exactly that string, so the history keys are the strings given.
// Python it mirrors:
//
//   model.compile(
//       optimizer = tf.keras.optimizers.Adam(0.001),
//       loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
//       metrics = ['acc', 'accuracy',
//                  tf.keras.metrics.SparseCategoricalAccuracy(name="my_accuracy")])
//   history = model.fit(train_data)
//   history.history.keys()    # dict_keys(['loss', 'acc', 'accuracy', 'my_accuracy'])
#include <cstdio>
#include <string>

#include "examples/seed_cnn.h"
#include "tfcc/platform/run_main.h"
#include "tfcc/tfcc.h"

namespace tf = tfcc;
using namespace tfcc::keras;

static int example_main() {
  tf::random::set_seed(42);
  auto [mnist_train, mnist_test] = tf::datasets::load("fashion_mnist");
  auto scale = [](tf::Tensor image, tf::Tensor label) {
    image = tf::cast(tf::reshape(image, {28, 28, 1}), tf::float32) / 255.0f;
    return std::tuple{image, label};
  };
  // Five batches of 64, as the seed's STEPS_PER_EPOCH.
  auto train_data = mnist_train.map(scale).shuffle(10).batch(64).take(5);

  Sequential model = tfcc::examples::seed_cnn();
  model.compile({.optimizer = optimizers::Adam(0.001),
                 .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
                 .metrics = {"acc", "accuracy",
                             metrics::SparseCategoricalAccuracy({.name = "my_accuracy"})}});
  auto history = model.fit(train_data);

  std::string keys = "dict_keys([";
  for (const auto& k : history.keys()) {
    if (keys.back() != '[') keys.append(", ");
    keys.append("'").append(k).append("'");
  }
  keys.append("])");
  std::printf("%s\n", keys.c_str());
  return keys == "dict_keys(['loss', 'acc', 'accuracy', 'my_accuracy'])" ? 0 : 1;
}

int main(int argc, char** argv) { return tfcc::run_main(argc, argv, example_main); }
