// The seed's CNN (keras_fit_cnn.cc) trained with model.fit on several processes: data-parallel
// training over MPI with MultiWorkerMirroredStrategy, the C++ twin of
//
//   strategy = tf.distribute.MultiWorkerMirroredStrategy()
//   with strategy.scope():
//       model = tf.keras.Sequential([...])          # the seed's CNN
//       model.compile(optimizer='adam', loss=..., metrics=['accuracy'])
//   model.fit(train_data, epochs=NUM_EPOCHS)        # 64 = the global batch size
//
// Run it on 2 processes of this machine (Debian's OpenMPI):
//
//   mpirun --oversubscribe --allow-run-as-root -np 2 -x OMP_NUM_THREADS=1 ./distributed_fit_cnn
//   (in build/release/examples; 10 batches an epoch, 3 epochs; `--full`: all 60,000 images,
//   5 epochs)
//
// Every rank reads the same shuffled Fashion-MNIST stream (the shuffle has a seed, so the ranks
// agree) and trains on its half of every global batch of 64; gradients are averaged inside the
// traced step, so the weights stay identical on both ranks. Only rank 0 prints the progress bar;
// every rank prints the final evaluation (identical numbers) and the time spent in all-reduce.
// Run without mpirun it trains as one process.
#include <chrono>
#include <cstdio>
#include <cstring>

#include "examples/seed_cnn.h"
#include "tfcc/platform/run_main.h"
#include "tfcc/tfcc.h"

namespace tf = tfcc;
using namespace tfcc::keras;

static int example_main(int argc, char** argv) {
  const bool full = argc > 1 && std::strcmp(argv[1], "--full") == 0;
  const int64_t BUFFER_SIZE = 10000;
  const int64_t GLOBAL_BATCH_SIZE = 64;
  const int NUM_EPOCHS = full ? 5 : 3;
  const int64_t STEPS_PER_EPOCH = 10;

  tf::distribute::MultiWorkerMirroredStrategy strategy({.timeout_seconds = 60});
  std::printf("%s: %d replicas in sync\n", strategy.to_string().c_str(),
              strategy.num_replicas_in_sync());

  auto [fashion_train, fashion_test] = tf::datasets::load("fashion_mnist");
  auto scale = [](tf::Tensor image, tf::Tensor label) {
    image = tf::cast(tf::reshape(image, {28, 28, 1}), tf::float32) / 255.0f;
    return std::tuple{image, label};
  };
  // A seeded shuffle: every rank must read the same global batches.
  auto train_data =
      fashion_train.map(scale).shuffle(BUFFER_SIZE, {.seed = 42}).batch(GLOBAL_BATCH_SIZE);
  auto test_data = fashion_test.map(scale).batch(GLOBAL_BATCH_SIZE);
  if (!full) {
    train_data = train_data.take(STEPS_PER_EPOCH);
    test_data = test_data.take(STEPS_PER_EPOCH);
  }

  std::optional<Sequential> model;
  {
    auto scope = strategy.scope();  // the model and its optimizer are mirrored
    model.emplace(tfcc::examples::seed_cnn());
    model->compile({.optimizer = "adam",
                    .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
                    .metrics = {"accuracy"}});
  }
  auto start = std::chrono::steady_clock::now();
  model->fit(train_data, {.epochs = NUM_EPOCHS});
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  auto stats = strategy.stats();
  auto results = model->evaluate(test_data, {.verbose = 0});
  std::printf("rank %d: Loss %.6f, Accuracy %.6f; fit %.2f s, all-reduce %.3f s in %lld calls\n",
              strategy.rank(), results[0], results[1], seconds, stats.all_reduce_seconds,
              static_cast<long long>(stats.all_reduce_calls));
  return results[1] > (full ? 0.85 : 0.3) ? 0 : 1;
}

int main(int argc, char** argv) { return tfcc::run_main(argc, argv, example_main); }
