// Throughput of keras fit under MultiWorkerMirroredStrategy: run it with `mpirun -np 1` and
// `-np 2` (benchmarks/distributed_fit_bench.sh does both and prints the comparison).
//
//   mpirun --oversubscribe --allow-run-as-root -np 2 -x OMP_NUM_THREADS=1 distributed_fit_bench
//   (arguments: [mlp|cnn] [EPOCHS] [GRADIENT_BUCKET_KIB]; bucket 0: no overlap, the gradients
//   are all-reduced after the backward pass)
//
// The model is the benchmarks' MLP shape (784-512-512-10 ReLU, Adam) or the seed's CNN
// (Conv2D 32 -> MaxPool -> Dense 64 -> BatchNorm -> Dense 10), trained with model.fit on synthetic
// data, global batch 64 (each of R ranks computes 64 / R rows per step), one intra-op thread per
// rank. One warm-up epoch (tracing, first allocations) is not timed. Rank 0 prints one line:
//   model ranks samples/s ms/step allreduce_ms/step wait_ms/step reduced_KiB/step bare_ms
//   blocked_ms/step buckets/step hidden_buckets/step bucket_KiB
// where allreduce is the wall time of the all-reduce work (gradients and metric states;
// packing, waiting for the peer and summing included; for overlapped gradient buckets, on the
// communication thread), wait the part spent waiting in MPI, blocked the time the training
// thread was blocked on all-reduce results (the exposed, non-overlapped part), buckets the
// overlapped gradient buckets, hidden those already reduced when the training thread waited,
// and bare the time of one all-reduce of the gradients alone, called back to back after
// training.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "tfcc/tfcc.h"

namespace tf = tfcc;
using namespace tfcc::keras;

namespace {

constexpr int64_t kGlobalBatch = 64;
constexpr int64_t kStepsPerEpoch = 40;

Sequential make_model(const std::string& kind) {
  if (kind == "cnn") {
    return Sequential({layers::Conv2D(32, 3, {.activation = "relu", .input_shape = {28, 28, 1}}),
                       layers::MaxPooling2D(), layers::Flatten(),
                       layers::Dense(64, {.activation = "relu"}), layers::BatchNormalization(),
                       layers::Dense(10)});
  }
  return Sequential({layers::Dense(512, {.activation = "relu", .input_shape = {784}}),
                     layers::Dense(512, {.activation = "relu"}), layers::Dense(10)});
}

}  // namespace

int main(int argc, char** argv) {
  const std::string kind = argc > 1 ? argv[1] : "mlp";
  const int epochs = argc > 2 ? std::atoi(argv[2]) : 3;
  const long bucket_kib = argc > 3 ? std::atol(argv[3]) : 1024;
  if ((kind != "mlp" && kind != "cnn") || epochs < 1 || bucket_kib < 0) {
    std::fprintf(stderr, "usage: %s [mlp|cnn] [EPOCHS >= 1] [GRADIENT_BUCKET_KIB >= 0]\n", argv[0]);
    return 2;
  }
  tf::config::threading::set_intra_op_parallelism_threads(1);
  try {
    tf::distribute::MultiWorkerMirroredStrategy strategy(
        {.timeout_seconds = 120, .gradient_bucket_bytes = static_cast<size_t>(bucket_kib) << 10});
    const int64_t n = kGlobalBatch * kStepsPerEpoch;
    tf::Tensor x = kind == "cnn" ? tf::random::stateless_uniform({n, 28, 28, 1}, {1, 2})
                                 : tf::random::stateless_uniform({n, 784}, {1, 2});
    tf::Tensor y =
        tf::cast(tf::random::stateless_uniform({n}, {3, 4}, 0, 10, tf::int64), tf::int64);
    std::optional<Sequential> model;
    {
      auto scope = strategy.scope();
      model.emplace(make_model(kind));
      model->compile({.optimizer = "adam",
                      .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
                      .metrics = {"accuracy"}});
    }
    FitOptions options{.batch_size = kGlobalBatch, .epochs = 1, .verbose = 0, .shuffle = false};
    model->fit(x, y, options);  // warm-up: build, trace, allocate
    strategy.barrier();
    strategy.reset_stats();
    auto start = std::chrono::steady_clock::now();
    options.epochs = epochs;
    model->fit(x, y, options);
    strategy.barrier();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto s = strategy.stats();
    const double steps = static_cast<double>(epochs * kStepsPerEpoch);
    // The same gradients' all-reduce alone, back to back (no training step in between).
    std::vector<tf::Tensor> grads;
    for (const auto& v : model->trainable_variables()) grads.push_back(v.read_value());
    constexpr int kBare = 20;
    strategy.barrier();
    auto bare_start = std::chrono::steady_clock::now();
    for (int i = 0; i < kBare; ++i) strategy.all_reduce(grads, tf::distribute::ReduceOp::kMean);
    const double bare =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - bare_start).count();
    if (strategy.is_chief()) {
      std::printf("%s %d %.1f %.2f %.3f %.3f %.1f %.3f %.3f %.1f %.1f %ld\n", kind.c_str(),
                  strategy.num_replicas_in_sync(), steps * kGlobalBatch / seconds,
                  1e3 * seconds / steps, 1e3 * s.all_reduce_seconds / steps,
                  1e3 * s.wait_seconds / steps, static_cast<double>(s.bytes_reduced) / 1024 / steps,
                  1e3 * bare / kBare, 1e3 * s.blocked_seconds / steps,
                  static_cast<double>(s.gradient_buckets) / steps,
                  static_cast<double>(s.hidden_buckets) / steps, bucket_kib);
    }
    return 0;
  } catch (const tf::Error& e) {
    std::fprintf(stderr, "distributed_fit_bench: %s\n", e.what());
    return 1;
  }
}
