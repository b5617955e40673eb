// Deployment, the point of graph mode in the seed ("the graph can be serialised and loaded
// without the original code"): trains the seed's CNN briefly on Fashion-MNIST, exports it, and
// writes a batch of test images with the model's own predictions, so another process can run the
// export and compare (tests/integration/saved_model_cli_test.sh does, with `tfcc saved-model run`).
// Python it mirrors:
//
//   model.fit(train_data.take(STEPS), epochs=1)
//   tf.saved_model.save(model, "OUT/export")      # or model.export("OUT/export")
//   np.save("OUT/images.npy", images); np.save("OUT/predictions.npy", model(images))
//
// usage: export_cnn [OUT_DIR] [--steps N]   (default OUT_DIR export_cnn_out, 100 steps)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "examples/seed_cnn.h"
#include "tfcc/platform/run_main.h"
#include "tfcc/tfcc.h"

namespace tf = tfcc;
using namespace tfcc::keras;

static int example_main(int argc, char** argv) {
  std::string out = "export_cnn_out";
  int64_t steps = 100;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
      steps = std::atoll(argv[++i]);
    } else {
      out = argv[i];
    }
  }
  tf::random::set_seed(7);
  auto [train, test] = tf::datasets::load("fashion_mnist");
  auto scale = [](tf::Tensor image, tf::Tensor label) {
    image = tf::cast(tf::reshape(image, {28, 28, 1}), tf::float32) / 255.0f;
    return std::tuple{image, label};
  };
  Sequential model = tfcc::examples::seed_cnn();
  model.compile({.optimizer = "adam",
                 .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
                 .metrics = {"accuracy"}});
  model.fit(train.map(scale).shuffle(1000).batch(64).take(steps), {.epochs = 1, .verbose = 2});
  auto results = model.evaluate(test.map(scale).batch(250).take(4), {.verbose = 0});
  std::printf("Test loss %.4f, accuracy %.4f (1000 images)\n", results[0], results[1]);

  const std::string dir = out + "/export";
  export_model(model, dir);
  std::printf("Exported to %s\n", dir.c_str());

  // 16 test images and the model's own inference outputs, for the comparison.
  tf::data::Element batch = *test.map(scale).batch(16).begin();
  tf::Tensor images = batch[0];
  tf::Tensor logits = model(images, {.training = false});
  tf::io::save_npy(out + "/images.npy", images);
  tf::io::save_npy(out + "/predictions.npy", logits);
  std::printf("Wrote %s/images.npy %s and %s/predictions.npy %s\n", out.c_str(),
              images.shape().to_string().c_str(), out.c_str(), logits.shape().to_string().c_str());
  return results[1] > 0.5 ? 0 : 1;
}

int main(int argc, char** argv) { return tfcc::run_main(argc, argv, example_main); }
