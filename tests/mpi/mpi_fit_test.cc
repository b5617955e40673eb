// keras fit / evaluate under MultiWorkerMirroredStrategy on real OpenMPI processes: ctest runs
// this binary with `mpirun -np 2` and `-np 4`. Each rank also trains a single-process copy of
// the model (created outside the strategy scope) on the same global batches: the distributed
// weights must be bit-identical on every rank and equal to that reference within float32
// tolerance, and the distributed loss and metrics must equal the reference's.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <tuple>

#include "tfcc/keras/models/distributed.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras {
namespace {

using distribute::MultiWorkerMirroredStrategy;

MultiWorkerMirroredStrategy& strategy() {
  // Small gradient buckets: fit's gradients go through several overlapped all-reduces.
  static MultiWorkerMirroredStrategy s({.timeout_seconds = 120, .gradient_bucket_bytes = 128});
  return s;
}

// A fixed data set (the same on every rank): 3 classes from 4 features.
// Callers unpack with std::tie, not a structured binding: the tests capture x and y in lambdas,
// which clang 16 does not allow for a binding when OpenMP is on.
std::pair<Tensor, Tensor> data(int64_t n) {
  Tensor x = random::stateless_normal({n, 4}, {5, 1});
  Tensor y = argmax(matmul(x, random::stateless_normal({4, 3}, {5, 2})), 1);
  return {x, y};
}

Sequential mlp() {
  return Sequential({layers::Dense(16, {.activation = "relu", .input_shape = {4}}),
                     layers::Dense(3, {.kernel_regularizer = regularizers::l2(0.01)})});
}

CompileOptions options(bool eager = false) {
  return {.optimizer = optimizers::Adam(0.01),
          .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
          .metrics = {"accuracy"},
          .run_eagerly = eager};
}

// Rank 0's value of `t` (broadcast through a scratch variable).
Tensor rank0_value(const Tensor& t) {
  Variable v(t, {.name = "probe", .trainable = false});
  Variable vs[] = {v};
  strategy().broadcast_variables(vs);
  return v.read_value();
}

bool same_bits(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() &&
         std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0;
}

void expect_mirrored(const Model& m) {
  for (const Variable& v : m.variables()) {
    EXPECT_TRUE(same_bits(v.read_value(), rank0_value(v.read_value())))
        << v.name() << " differs from rank 0's on rank " << strategy().rank();
  }
}

void expect_close(const Model& a, const Model& b, double tol) {
  auto wa = a.get_weights(), wb = b.get_weights();
  ASSERT_EQ(wa.size(), wb.size());
  for (size_t i = 0; i < wa.size(); ++i) {
    auto va = wa[i].to_vector<float>(), vb = wb[i].to_vector<float>();
    ASSERT_EQ(va.size(), vb.size());
    for (size_t k = 0; k < va.size(); ++k) EXPECT_NEAR(va[k], vb[k], tol) << "weight " << i;
  }
}

void expect_history_close(const callbacks::History& a, const callbacks::History& b) {
  ASSERT_EQ(a.keys(), b.keys());
  for (const auto& key : a.keys()) {
    ASSERT_EQ(a[key].size(), b[key].size());
    for (size_t e = 0; e < a[key].size(); ++e) EXPECT_NEAR(a[key][e], b[key][e], 1e-5) << key;
  }
}

// Trains `fit_fn(model)` twice: under the strategy and as one process on the same batches.
template <typename Fit>
void check_against_single_process(bool eager, Fit fit_fn) {
  ASSERT_GE(strategy().num_replicas_in_sync(), 2) << "run under mpirun -np 2 or more";
  std::optional<Sequential> dist;
  {
    auto scope = strategy().scope();
    dist.emplace(mlp());
    dist->compile(options(eager));
  }
  EXPECT_EQ(&dist->distribute_strategy(), &strategy());
  // Start the reference from rank 0's initial weights (fit broadcasts them too).
  auto vars = dist->variables();
  strategy().broadcast_variables(vars);
  Sequential single = mlp();
  single.compile(options(eager));
  single.set_weights(dist->get_weights());
  EXPECT_EQ(single.distribute_strategy().num_replicas_in_sync(), 1);

  auto h_dist = fit_fn(*dist);
  auto h_single = fit_fn(single);
  expect_mirrored(*dist);
  expect_close(*dist, single, 2e-5);
  expect_history_close(h_dist, h_single);
  EXPECT_EQ(dist->optimizer()->iterations().read_value().item<int64_t>(),
            single.optimizer()->iterations().read_value().item<int64_t>());
}

TEST(DistributedFit, TensorsMatchOneProcessOnTheGlobalBatches) {
  Tensor x, y;
  std::tie(x, y) = data(96);
  check_against_single_process(false, [&](Model& m) {
    return m.fit(x, y, {.batch_size = 32, .epochs = 3, .verbose = 0, .shuffle = false});
  });
}

TEST(DistributedFit, EachRankTrainsOnItsShareOfTheGlobalBatch) {
  auto [x, y] = data(70);  // batches of 32, 32 and 6 rows
  auto scope = strategy().scope();
  Sequential m = mlp();
  m.compile(options());
  auto global = make_tensor_source({x, y, Tensor()}, 32, false, {});
  distributed::ReplicaSource mine(m, *global, true);
  mine.start_epoch();
  const int n = strategy().num_replicas_in_sync(), r = strategy().rank();
  std::vector<Tensor> parts;
  while (auto batch = mine.next()) {
    const int64_t rows = (*batch)[0].shape()[0];
    parts.push_back((*batch)[0]);
    EXPECT_GE(rows, 1);
    EXPECT_LE(rows, 32 / n + 1);
  }
  ASSERT_EQ(parts.size(), 3u);
  for (size_t i = 0; i < parts.size(); ++i) {
    // The ranks' shares are disjoint and together make up the global batch, in rank order.
    const int64_t global_rows = i < 2 ? 32 : 6;
    Tensor padded = zeros({global_rows, 4});
    const int64_t lo = global_rows * r / n;
    padded = concat({slice(padded, {0, 0}, {lo, 4}), parts[i],
                     slice(padded, {lo + parts[i].shape()[0], 0}, {-1, 4})},
                    0);
    Tensor whole = strategy().reduce(distribute::ReduceOp::kSum, padded);
    EXPECT_TRUE(same_bits(whole, slice(x, {static_cast<int64_t>(i) * 32, 0}, {global_rows, 4})));
  }
}

TEST(DistributedFit, EagerStepsMatchToo) {
  Tensor x, y;
  std::tie(x, y) = data(64);
  check_against_single_process(true, [&](Model& m) {
    return m.fit(x, y, {.batch_size = 16, .epochs = 2, .verbose = 0, .shuffle = false});
  });
}

TEST(DistributedFit, DatasetWithValidationMatchesOneProcess) {
  Tensor x, y;
  std::tie(x, y) = data(128);
  Tensor vx, vy;
  std::tie(vx, vy) = data(40);
  check_against_single_process(false, [&](Model& m) {
    // A seeded shuffle: every rank (and the reference) reads the same global batches.
    auto ds = data::Dataset::from_tensor_slices({x, y}).shuffle(128, {.seed = 3}).batch(32);
    return m.fit(ds, {.epochs = 2, .verbose = 0, .validation_data = ValidationData{vx, vy}});
  });
}

TEST(DistributedFit, EvaluateIsGlobalAndPredictIsLocal) {
  Tensor x, y;
  std::tie(x, y) = data(64);
  std::optional<Sequential> dist;
  {
    auto scope = strategy().scope();
    dist.emplace(mlp());
    dist->compile(options());
  }
  dist->fit(x, y, {.batch_size = 16, .verbose = 0});
  Sequential single = mlp();
  single.compile(options());
  single.set_weights(dist->get_weights());
  auto r_dist = dist->evaluate(x, y, {.batch_size = 16, .verbose = 0});
  auto r_single = single.evaluate(x, y, {.batch_size = 16, .verbose = 0});
  ASSERT_EQ(r_dist.size(), 2u);
  for (size_t i = 0; i < r_dist.size(); ++i) {
    EXPECT_NEAR(r_dist[i], r_single[i], 1e-5);
    EXPECT_EQ(r_dist[i], rank0_value(Tensor::scalar(r_dist[i])).item<double>());
  }
  Tensor p = dist->predict(x, {.batch_size = 16});
  EXPECT_EQ(p.shape(), (Shape{64, 3}));
  EXPECT_TRUE(same_bits(p, single.predict(x, {.batch_size = 16})));
}

TEST(DistributedFit, ShuffledTensorsAndBatchNormStayMirrored) {
  auto [x, y] = data(100);  // the last global batch (4 rows) is split unevenly over 3+ ranks
  auto scope = strategy().scope();
  Sequential m({layers::Dense(8, {.activation = "relu", .input_shape = {4}}),
                layers::BatchNormalization(), layers::Dense(3)});
  m.compile(options());
  auto h = m.fit(x, y, {.batch_size = 32, .epochs = 2, .verbose = 0});
  expect_mirrored(m);  // moving_mean / moving_variance are averaged at every epoch end
  EXPECT_EQ(h["loss"].back(), rank0_value(Tensor::scalar(h["loss"].back())).item<double>());
}

TEST(DistributedFit, UnseededShuffleIsDetected) {
  auto [x, y] = data(256);
  auto scope = strategy().scope();
  Sequential m = mlp();
  m.compile(options());
  auto ds = data::Dataset::from_tensor_slices({x, y}).shuffle(256).batch(32);
  EXPECT_THROW(m.fit(ds, {.verbose = 0}), FailedPreconditionError);
}

TEST(DistributedFit, OnlyTheChiefPrintsAndWritesLogs) {
  auto [x, y] = data(32);
  auto scope = strategy().scope();
  Sequential m = mlp();
  m.compile(options());
  const int rank = strategy().rank();
  auto dir = std::filesystem::temp_directory_path() / "tfcc_mpi_fit_test";
  std::filesystem::create_directories(dir);
  auto csv = (dir / ("log_" + std::to_string(rank) + ".csv")).string();
  std::filesystem::remove(csv);
  testing::internal::CaptureStdout();
  m.fit(x, y, {.batch_size = 16, .verbose = 1, .callbacks = {callbacks::CSVLogger(csv)}});
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out.empty(), rank != 0) << out;
  EXPECT_EQ(std::filesystem::exists(csv), rank == 0);
  std::filesystem::remove(csv);
}

TEST(DistributedFit, AllReduceInsideATracedCustomStepEqualsTheEagerOne) {
  auto& s = strategy();
  const int r = s.rank();
  Variable w_traced(random::stateless_normal({4, 3}, {9, 9}), {.name = "w"});
  Variable w_eager(w_traced.read_value(), {.name = "w"});
  auto grad_of = [&](const Variable& w, const Tensor& x) {
    GradientTape tape;
    Tensor loss = reduce_mean(square(matmul(x, w)));
    return tape.gradient(loss, std::vector<Variable>{w});
  };
  auto step = tfcc::function([&](Tensor x) {
    auto g = s.all_reduce(grad_of(w_traced, x), distribute::ReduceOp::kMean);
    w_traced.assign_sub(g[0] * 0.1f);
    return g[0];
  });
  for (int i = 0; i < 3; ++i) {
    Tensor x = random::stateless_normal({8, 4}, {i, r});  // each rank its own data
    Tensor g_traced = s.run(step, x);
    auto g = s.all_reduce(grad_of(w_eager, x), distribute::ReduceOp::kMean);
    w_eager.assign_sub(g[0] * 0.1f);
    EXPECT_TRUE(same_bits(g_traced, g[0]));
    EXPECT_TRUE(same_bits(g_traced, rank0_value(g_traced)));
  }
  EXPECT_EQ(step.tracing_count(), 1);
  EXPECT_TRUE(same_bits(w_traced.read_value(), w_eager.read_value()));
}

TEST(DistributedFit, CollectiveStatsCountTheSteps) {
  Tensor x, y;
  std::tie(x, y) = data(64);
  auto scope = strategy().scope();
  Sequential m = mlp();
  m.compile(options());
  strategy().reset_stats();
  m.fit(x, y, {.batch_size = 16, .verbose = 0, .shuffle = false});
  auto s = strategy().stats();
  // Per step: the gradients, the metric states; plus the broadcasts and the batch check.
  EXPECT_GE(s.all_reduce_calls, 8);
  EXPECT_GT(s.bytes_reduced, 4 * 4 * (4 * 16 + 16 + 16 * 3 + 3));
  EXPECT_GT(s.all_reduce_seconds, 0);
}

}  // namespace
}  // namespace tfcc::keras
