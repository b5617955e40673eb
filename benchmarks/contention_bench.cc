// Training steps of two small models, for benchmarks/contention_run.sh (issue 22): how much a
// step slows down when other processes keep the cores busy. Not a Google Benchmark: the script
// starts and stops the busy processes around whole runs of this program.
//
//   build/release/benchmarks/contention_bench --model gru|cnn [--threads 2] [--steps 160]
//
// gru: Keras Sequential Embedding(50, 64) -> GRU(64) -> Dense(2), sequences of length 30,
// batch 64, Adam, trained with fit (traced train step). cnn: the seed CNN's training step from
// raw ops (cnn_step_model.h), traced with tfcc::function. Prints the median over 8 blocks of the
// milliseconds per step. Uses only the public API, so the same file builds against older trees
// (the script's before/after comparison).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "benchmarks/cnn_step_model.h"
#include "tfcc/tfcc.h"

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Runs `block(steps)` in 8 blocks after a warm-up block; the median milliseconds per step.
template <typename F>
double median_ms(F&& block, int64_t steps_per_block) {
  block(steps_per_block);
  std::vector<double> ms;
  for (int b = 0; b < 8; ++b) {
    const auto t0 = std::chrono::steady_clock::now();
    block(steps_per_block);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ms.push_back(1e3 * s / static_cast<double>(steps_per_block));
  }
  return median(ms);
}

double gru_ms(int64_t steps) {
  using namespace tfcc::keras;
  constexpr int64_t kBatch = 64, kLen = 30, kVocab = 50, kUnits = 64;
  const int64_t per_block = std::max<int64_t>(1, steps / 8);
  tfcc::random::set_seed(7);
  tfcc::Tensor x = tfcc::cast(
      tfcc::random::uniform({kBatch * per_block, kLen}, 0.0, static_cast<double>(kVocab)),
      tfcc::int32);
  tfcc::Tensor y = tfcc::cast(tfcc::random::uniform({kBatch * per_block}, 0.0, 2.0), tfcc::int32);
  Sequential model({layers::Embedding(kVocab, kUnits), layers::GRU(kUnits), layers::Dense(2)});
  model.compile(
      {.optimizer = "adam", .loss = losses::SparseCategoricalCrossentropy({.from_logits = true})});
  return median_ms(
      [&](int64_t) { model.fit(x, y, {.batch_size = kBatch, .verbose = 0, .shuffle = false}); },
      per_block);
}

double cnn_ms(int64_t steps) {
  tfcc_bench::SeedCnn cnn;
  auto traced = tfcc::function([&](tfcc::Tensor x, tfcc::Tensor y) { return cnn.step(x, y); });
  return median_ms(
      [&](int64_t n) {
        for (int64_t i = 0; i < n; ++i) traced(cnn.x, cnn.labels);
      },
      std::max<int64_t>(1, steps / 8));
}

}  // namespace

int main(int argc, char** argv) {
  std::string model = "gru";
  int threads = 2;
  int64_t steps = 160;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--model") == 0) {
      model = argv[i + 1];
    } else if (std::strcmp(argv[i], "--threads") == 0) {
      threads = std::atoi(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--steps") == 0) {
      steps = std::atoll(argv[i + 1]);
    } else {
      std::fprintf(stderr, "contention_bench: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  tfcc::config::threading::set_intra_op_parallelism_threads(threads);
  double ms = 0;
  if (model == "gru") {
    ms = gru_ms(steps);
  } else if (model == "cnn") {
    ms = cnn_ms(steps);
  } else {
    std::fprintf(stderr, "contention_bench: --model must be gru or cnn, got %s\n", model.c_str());
    return 2;
  }
  std::printf("%s threads=%d ms_per_step=%.3f\n", model.c_str(), threads, ms);
  return 0;
}
