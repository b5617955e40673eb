// Keras fit throughput of the seed CNN (issue 7): samples per second of `model.fit` on
// Fashion-MNIST at batch 64, with the seed's own pipeline (map scale, shuffle, batch) and
// model (Conv2D 32 3x3 relu + L2, MaxPooling2D, Flatten, Dropout 0.1, Dense 64 relu,
// BatchNormalization, Dense 10; Adam; sparse categorical cross-entropy from logits; accuracy).
// Not a Google Benchmark: one fit is many steps, and the figure is the fit's own throughput.
//
//   build/release/benchmarks/fit_cnn_bench [--threads 2] [--steps 300] [--json OUT]
//
// A first fit of 20 steps traces the step and warms the primitive caches; the timed fit then
// runs --steps steps (verbose 0). benchmarks/fit_run.sh runs it in rounds next to PyTorch and
// TensorFlow (fit_peers.py) and prints the table.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "examples/seed_cnn.h"
#include "tfcc/tfcc.h"

namespace tf = tfcc;
using namespace tfcc::keras;

namespace {

struct Args {
  int threads = 2;
  int64_t steps = 300;
  std::string json;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--threads") == 0) {
      a.threads = std::atoi(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--steps") == 0) {
      a.steps = std::atoll(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--json") == 0) {
      a.json = argv[i + 1];
    } else {
      std::fprintf(stderr, "fit_cnn_bench: unknown option %s\n", argv[i]);
      std::exit(2);
    }
  }
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  tf::config::threading::set_intra_op_parallelism_threads(args.threads);
  tf::random::set_seed(42);
  auto [train, test] = tf::datasets::load("fashion_mnist");
  auto scale = [](tf::Tensor image, tf::Tensor label) {
    image = tf::cast(tf::reshape(image, {28, 28, 1}), tf::float32) / 255.0f;
    return std::tuple{image, label};
  };
  auto data = train.map(scale).shuffle(10000).batch(64).repeat();

  Sequential model = tfcc::examples::seed_cnn();
  model.compile({.optimizer = "adam",
                 .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
                 .metrics = {"accuracy"}});
  model.fit(data, {.epochs = 1, .verbose = 0, .steps_per_epoch = 20});  // trace + warm up

  auto t0 = std::chrono::steady_clock::now();
  model.fit(data, {.epochs = 1, .verbose = 0, .steps_per_epoch = args.steps});
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double samples_per_s = static_cast<double>(args.steps * 64) / secs;
  std::printf("tfcc fit, seed CNN, batch 64, %d threads: %.0f samples/s (%.2f ms/step)\n",
              args.threads, samples_per_s, 1e3 * secs / static_cast<double>(args.steps));
  if (!args.json.empty()) {
    std::ofstream(args.json) << "{\"framework\": \"tfcc\", \"threads\": " << args.threads
                             << ", \"steps\": " << args.steps
                             << ", \"samples_per_s\": " << samples_per_s << "}\n";
  }
  return 0;
}
