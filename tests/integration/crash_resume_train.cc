// The training program of the crash-resume test (crash_resume_test.py): a small MLP trained with
// fit on a shuffled dataset, with BackupAndRestore backing up every few batches. Killed and run
// again, it continues from its last backup; at the end it writes its final weights' raw bytes,
// which must equal those of a run never interrupted.
//
//   crash_resume_train BACKUP_DIR WEIGHTS_OUT [--no-backup] [--step-delay-ms=N]
//
// --no-backup trains without the callback (the reference run). --step-delay-ms sleeps after each
// batch so that a test can kill the program at many different points of training.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

#include "tfcc/tfcc.h"

namespace tf = tfcc;
using namespace tfcc::keras;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s BACKUP_DIR WEIGHTS_OUT [--no-backup] [--step-delay-ms=N]\n",
                 argv[0]);
    return 2;
  }
  const std::string backup_dir = argv[1], weights_out = argv[2];
  bool backup = true;
  int delay_ms = 0;
  for (int i = 3; i < argc; ++i) {
    if (std::strcmp(argv[i], "--no-backup") == 0) backup = false;
    if (std::strncmp(argv[i], "--step-delay-ms=", 16) == 0) delay_ms = std::atoi(argv[i] + 16);
  }
  tf::config::threading::set_intra_op_parallelism_threads(1);
  tf::random::set_seed(1234);

  // 192 samples of 8 features, 4 classes given by a fixed linear rule.
  tf::Tensor x = tf::random::normal({192, 8}, 0, 1, tf::float32, /*seed=*/11);
  tf::Tensor w = tf::random::normal({8, 4}, 0, 1, tf::float32, /*seed=*/12);
  tf::Tensor y = tf::argmax(tf::matmul(x, w), 1);
  auto dataset = tf::data::Dataset::from_tensor_slices({x, y})
                     .shuffle(64, {.seed = 99})
                     .batch(16);  // 12 batches per epoch, reshuffled every epoch

  Sequential model({
      layers::Dense(32, {.activation = "relu", .input_shape = {8}}),
      layers::Dropout(0.2, {.seed = 5}),
      layers::Dense(4),
  });
  model.compile({.optimizer = "adam",
                 .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
                 .metrics = {"accuracy"}});

  std::vector<callbacks::CallbackPtr> cbs;
  if (backup) cbs.push_back(callbacks::BackupAndRestore(backup_dir, {.save_freq = 5}));
  if (delay_ms > 0) {
    cbs.push_back(callbacks::LambdaCallback({.on_batch_end = [delay_ms](int, callbacks::Logs&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    }}));
  }
  auto history = model.fit(dataset, {.epochs = 6, .verbose = 0, .callbacks = cbs});
  if (!history.epoch().empty()) {
    std::fprintf(stderr, "trained epochs %d..%d, loss %.6f\n", history.epoch().front() + 1,
                 history.epoch().back() + 1, history["loss"].back());
  }

  std::ofstream out(weights_out, std::ios::binary | std::ios::trunc);
  for (const auto& v : model.weights()) {
    tf::Tensor t = v.read_value();
    out.write(reinterpret_cast<const char*>(t.data<float>()),
              static_cast<std::streamsize>(t.shape().num_elements() * sizeof(float)));
  }
  for (const auto& v : model.optimizer()->variables()) {
    tf::Tensor t = v.read_value();
    if (t.dtype() != tf::float32) continue;
    out.write(reinterpret_cast<const char*>(t.data<float>()),
              static_cast<std::streamsize>(t.shape().num_elements() * sizeof(float)));
  }
  out.close();
  if (!out) {
    std::fprintf(stderr, "could not write %s\n", weights_out.c_str());
    return 1;
  }
  return 0;
}
