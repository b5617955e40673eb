// The cost model of intra-op parallelism (ARCHITECTURE.md, decision 13): small ops start no
// parallel region, large ones do when two threads are allowed; results do not depend on the
// thread count; tfcc's pool runs every range exactly once, from several callers at once, and
// passes exceptions back. Counts regions through parallel::regions_started(); nothing is timed.
#include "tfcc/platform/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "tfcc/ops/config.h"
#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

namespace th = config::threading;

class CostModel : public ::testing::Test {
 protected:
  void SetUp() override { th::set_intra_op_parallelism_threads(2); }
  void TearDown() override { th::set_intra_op_parallelism_threads(0); }
};

// Regions started while fn runs.
template <typename F>
int64_t regions_during(F&& fn) {
  const int64_t before = parallel::regions_started();
  fn();
  return parallel::regions_started() - before;
}

TEST_F(CostModel, SmallOpsStartNoParallelRegion) {
  Tensor a = random::stateless_uniform({64}, {1, 2});
  Tensor m = random::stateless_uniform({8, 8}, {3, 4});
  Tensor g = random::stateless_uniform({64, 64}, {5, 6});
  Tensor w = random::stateless_uniform({64, 192}, {7, 8});
  const int64_t n = regions_during([&] {
    (void)(a + a);
    (void)(a * 2.0f);
    (void)exp(a);
    (void)tanh(a);
    (void)reduce_sum(a);
    (void)cast(a, float64);
    (void)matmul(m, m);
    // The GRU step's matmul ([64, 64] x [64, 192]): a few microseconds of work.
    (void)matmul(g, w);
    (void)sigmoid(g);
  });
  EXPECT_EQ(n, 0) << "an op on 64 floats, or a matmul of a GRU step, must stay on one thread";
}

TEST_F(CostModel, LargeOpsRunInParallelOnTwoThreads) {
  Tensor x = random::stateless_uniform({1 << 20}, {1, 2});
  EXPECT_GT(regions_during([&] { (void)(x + x); }), 0);
  Tensor big = random::stateless_uniform({512, 512}, {3, 4});
  EXPECT_GT(regions_during([&] { (void)matmul(big, big); }), 0) << "oneDNN call counted";
  th::set_intra_op_parallelism_threads(1);
  EXPECT_EQ(regions_during([&] {
              (void)(x + x);
              (void)matmul(big, big);
            }),
            0)
      << "one thread allowed: never a parallel region";
}

TEST_F(CostModel, ResultsDoNotDependOnTheThreadCount) {
  Tensor x = random::stateless_uniform({3, 1 << 17}, {1, 2});
  auto run = [&] {
    Tensor y = tanh(x * 3.0f + 1.0f);
    // (Not reduce_sum over few outputs: its partial sums follow the thread count by design.)
    return std::vector<Tensor>{y, cumsum(y, 1), reduce_max(y, {0}), reduce_sum(y, {0})};
  };
  th::set_intra_op_parallelism_threads(1);
  const std::vector<Tensor> one = run();
  th::set_intra_op_parallelism_threads(2);
  const std::vector<Tensor> two = run();
  for (size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].to_vector<float>(), two[i].to_vector<float>()) << "output " << i;
  }
}

TEST(ParallelFor, ThreadsFollowTheWork) {
  EXPECT_EQ(parallel::threads_for(64, 1.0, 8), 1);
  EXPECT_EQ(parallel::threads_for(1 << 30, 1.0, 1), 1);
  EXPECT_EQ(parallel::threads_for(1 << 30, 1.0, 8), 8);
  const auto just_two = static_cast<int64_t>(2 * parallel::kMinParallelWorkNs);
  EXPECT_EQ(parallel::threads_for(just_two, 1.0, 8), 2);
  EXPECT_EQ(parallel::threads_for(just_two - 1, 1.0, 8), 1);
}

TEST(ParallelFor, EveryIndexRunsOnceFromConcurrentCallers) {
  constexpr int64_t kN = 100003;
  constexpr int kCallers = 4;
  std::vector<std::vector<std::atomic<int>>> hits(kCallers);
  for (auto& h : hits) h = std::vector<std::atomic<int>>(kN);
  std::vector<std::thread> callers;
  for (int c = 0; c < kCallers; ++c) {
    callers.emplace_back([&, c] {
      for (int rep = 0; rep < 20; ++rep) {
        parallel::parallel_for(kN, 1000.0, 4, [&](int64_t lo, int64_t hi) {
          for (int64_t i = lo; i < hi; ++i) hits[c][i].fetch_add(1, std::memory_order_relaxed);
        });
      }
    });
  }
  for (auto& t : callers) t.join();
  for (int c = 0; c < kCallers; ++c) {
    for (int64_t i = 0; i < kN; ++i) ASSERT_EQ(hits[c][i].load(), 20) << c << " " << i;
  }
}

TEST(ParallelFor, NestedLoopsRunSerially) {
  std::atomic<int64_t> sum{0};
  parallel::parallel_for(64, 1e6, 2, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) {
      parallel::parallel_for(1000, 1e6, 2, [&](int64_t a, int64_t b) { sum.fetch_add(b - a); });
    }
  });
  EXPECT_EQ(sum.load(), 64 * 1000);
}

TEST(ParallelFor, ExceptionsReachTheCaller) {
  auto fail = [] {
    parallel::parallel_for(1 << 20, 100.0, 2, [](int64_t lo, int64_t hi) {
      if (lo <= 777777 && 777777 < hi) throw std::runtime_error("chunk failed");
    });
  };
  EXPECT_THROW(fail(), std::runtime_error);
  // The pool is usable afterwards.
  std::atomic<int64_t> covered{0};
  parallel::parallel_for(1 << 20, 100.0, 2, [&](int64_t lo, int64_t hi) { covered += hi - lo; });
  EXPECT_EQ(covered.load(), 1 << 20);
}

}  // namespace
}  // namespace tfcc
