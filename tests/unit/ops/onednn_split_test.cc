// oneDNN on tfcc's pool (kernels::onednn_split, the default runtime): every oneDNN call runs on
// one OpenMP thread, the slices of a large problem are spread over the intra-op threads, the
// caller's OpenMP count comes back afterwards, a process running large convolutions, matmuls,
// pooling and batch norms on 2 threads starts no OpenMP thread at all, and the split results
// agree with the one-thread ones. Nothing is timed.
#include "tfcc/ops/onednn_split.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <omp.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tfcc/ops/config.h"
#include "tfcc/platform/parallel_runtime.h"
#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

namespace th = config::threading;

class OneDnnSplit : public ::testing::Test {
 protected:
  void SetUp() override {
    parallel::force_runtime(parallel::Runtime::kPool);
    th::set_intra_op_parallelism_threads(2);
  }
  void TearDown() override {
    th::set_intra_op_parallelism_threads(0);
    parallel::force_runtime(std::nullopt);
  }
};

TEST_F(OneDnnSplit, SlicesRunOnOneOpenMpThreadEachAndCoverTheProblem) {
  std::mutex mu;
  std::vector<int> omp_counts;
  std::vector<int> hits(64, 0);
  const int64_t before = parallel::regions_started();
  const bool ok = kernels::onednn_split(64, /*work_ns=*/1e6, 1, [&](int64_t lo, int64_t hi) {
    std::lock_guard lock(mu);
    omp_counts.push_back(omp_get_max_threads());
    for (int64_t i = lo; i < hi; ++i) ++hits[static_cast<size_t>(i)];
    return true;
  });
  EXPECT_TRUE(ok);
  EXPECT_GT(omp_counts.size(), 1u) << "1 ms of work on 2 threads is split";
  for (int n : omp_counts) EXPECT_EQ(n, 1) << "a oneDNN call inside the pool uses one thread";
  for (int h : hits) EXPECT_EQ(h, 1) << "every slice runs exactly once";
  EXPECT_EQ(parallel::regions_started(), before + 1) << "one pool region";
  EXPECT_EQ(omp_get_max_threads(), 2) << "the caller's OpenMP count is restored";
}

TEST_F(OneDnnSplit, SmallProblemsRunOnTheCallerInOneCall) {
  int calls = 0, omp = 0;
  const int64_t before = parallel::regions_started();
  EXPECT_TRUE(kernels::onednn_split(64, /*work_ns=*/1000, 1, [&](int64_t lo, int64_t hi) {
    ++calls;
    omp = omp_get_max_threads();
    return lo == 0 && hi == 64;
  }));
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(omp, 1);
  EXPECT_EQ(parallel::regions_started(), before);
}

TEST_F(OneDnnSplit, ARejectedSliceIsReported) {
  EXPECT_FALSE(kernels::onednn_split(64, 1e6, 1, [](int64_t lo, int64_t) { return lo != 0; }));
}

double max_rel_diff(const Tensor& a, const Tensor& b) {
  const std::vector<float> x = a.to_vector<float>(), y = b.to_vector<float>();
  EXPECT_EQ(x.size(), y.size());
  double m = 0;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
    m = std::max(m, std::fabs(double(x[i]) - double(y[i])) / (1.0 + std::fabs(double(y[i]))));
  }
  return m;
}

// The large oneDNN problems of a training step: each split on 2 threads (by images, rows,
// columns or batch) must agree with the same op on one thread.
std::vector<Tensor> large_onednn_ops() {
  Tensor x = random::stateless_uniform({16, 20, 20, 16}, {1, 1}, -1, 1);
  Tensor w = random::stateless_uniform({3, 3, 16, 32}, {1, 2}, -0.5, 0.5);
  Tensor dy = random::stateless_uniform({16, 18, 18, 32}, {1, 3}, -1, 1);
  Tensor a = random::stateless_uniform({200, 300}, {1, 4}, -1, 1);
  Tensor b = random::stateless_uniform({300, 90}, {1, 5}, -1, 1);
  Tensor wide = random::stateless_uniform({300, 400}, {1, 6}, -1, 1);
  Tensor bias = random::stateless_uniform({400}, {1, 7}, -1, 1);
  Tensor q = random::stateless_uniform({8, 64, 32}, {1, 8}, -1, 1);
  Tensor k = random::stateless_uniform({8, 64, 32}, {1, 9}, -1, 1);
  Tensor shared = random::stateless_uniform({32, 48}, {1, 10}, -1, 1);
  Tensor bn_x = random::stateless_uniform({64, 32, 32, 16}, {1, 11}, -1, 1);
  Tensor scale = random::stateless_uniform({16}, {1, 12}, 0.5, 1.5);
  Tensor offset = random::stateless_uniform({16}, {1, 13}, -1, 1);
  Tensor mean = random::stateless_uniform({16}, {1, 14}, -0.1, 0.1);
  Tensor var = random::stateless_uniform({16}, {1, 15}, 0.5, 1.5);
  // The seed CNN's Dense(64) on a batch of 64: cheapest to split along k.
  Tensor deep_a = random::stateless_uniform({64, 4000}, {1, 16}, -1, 1);
  Tensor deep_b = random::stateless_uniform({4000, 64}, {1, 17}, -1, 1);
  Tensor deep_bias = random::stateless_uniform({64}, {1, 18}, -1, 1);
  nn::FusedBatchNormOptions inference;
  inference.is_training = false;
  return {
      conv2d(x, w, {1}, "VALID"),
      conv2d_backprop_input({16, 20, 20, 16}, w, dy, {1}, "VALID"),
      conv2d_backprop_filter(x, {3, 3, 16, 32}, dy, {1}, "VALID"),
      max_pool2d(x, {2}, {2}, "VALID"),
      avg_pool2d(x, {2}, {2}, "VALID"),
      avg_pool_grad({16, 20, 20, 16}, avg_pool2d(x, {2}, {2}, "VALID"), {2}, {2}, "VALID"),
      matmul(a, b),                         // rows (m = 200 > n = 90)
      matmul(transpose(a), b, true),        // rows of a transposed A
      matmul(b, a, true, true),             // columns (m = 90 < n = 200), transposed B
      matmul(a, wide),                      // columns
      fused_matmul(a, wide, bias, "Relu"),  // rows of the fused primitive
      fused_matmul(transpose(a), wide, bias, "", true),
      matmul(q, k, false, true),  // batched: split by batch
      matmul(q, shared),          // batched with a broadcast operand
      nn::fused_batch_norm(bn_x, scale, offset, mean, var, inference).y,
      nn::fused_batch_norm(bn_x, scale, offset).y,
      matmul(deep_a, deep_b),                           // along k: partial products added
      fused_matmul(deep_a, deep_b, deep_bias, "Relu"),  // the same, bias and ReLU after
  };
}

TEST_F(OneDnnSplit, SplitResultsMatchOneThread) {
  th::set_intra_op_parallelism_threads(1);
  const std::vector<Tensor> one = large_onednn_ops();
  th::set_intra_op_parallelism_threads(2);
  const int64_t before = parallel::regions_started();
  const std::vector<Tensor> two = large_onednn_ops();
  EXPECT_GE(parallel::regions_started() - before, 10) << "the large problems ran split";
  ASSERT_EQ(one.size(), two.size());
  for (size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].shape(), two[i].shape()) << "output " << i;
    // The filter gradient (output 2) and the products split along k (the last two) add
    // partial sums in another order.
    const bool reordered_sums = i == 2 || i + 2 >= one.size();
    EXPECT_LT(max_rel_diff(one[i], two[i]), reordered_sums ? 2e-4 : 1e-5) << "output " << i;
  }
}

// The threads of this process that are not tfcc's pool workers (named "tfcc-pool").
int threads_besides_the_pool() {
  DIR* d = opendir("/proc/self/task");
  if (d == nullptr) return -1;
  int n = 0;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    std::ifstream comm(std::string("/proc/self/task/") + e->d_name + "/comm");
    std::string name;
    std::getline(comm, name);
    n += name != "tfcc-pool";
  }
  closedir(d);
  return n;
}

// Run in a fresh process by the test below (skipped otherwise): exits 0 when a process that ran
// large oneDNN problems on 2 threads has no thread besides those it started with and tfcc's
// pool workers, i.e. libgomp never started a team; otherwise 10 + the extra thread count.
TEST(OneDnnSplitChild, Report) {
  if (std::getenv("TFCC_TEST_ONEDNN_CHILD") == nullptr) GTEST_SKIP() << "run by the test below";
  const int start = threads_besides_the_pool();
  th::set_intra_op_parallelism_threads(2);
  Tensor big = random::stateless_uniform({1 << 20}, {2, 1});
  (void)(big + big);
  for (int rep = 0; rep < 3; ++rep) (void)large_onednn_ops();
  const int extra = threads_besides_the_pool() - start;
  std::_Exit(extra == 0 ? 0 : 10 + extra);
}

TEST_F(OneDnnSplit, LibgompStartsNoThread) {
  const pid_t pid = fork();
  if (pid == 0) {
    setenv("TFCC_TEST_ONEDNN_CHILD", "1", 1);
    setenv("TFCC_PARALLEL_RUNTIME", "pool", 1);
    char exe[] = "/proc/self/exe";
    char filter[] = "--gtest_filter=OneDnnSplitChild.Report";
    char* argv[] = {exe, filter, nullptr};
    execv(exe, argv);
    std::_Exit(102);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0)
      << "10 + n: n threads besides the process's own and tfcc's pool (an OpenMP team)";
}

// The automatic choice: threads of this process that wait for CPUs (more spinning threads than
// CPUs) make it see contention, the signal that moves regions to the pool. Not timed: it waits
// (up to 10 s) for the state, whatever the machine's speed.
TEST(ParallelRuntime, RunQueueWaitMeansContention) {
  std::atomic<bool> stop{false};
  std::vector<std::thread> spinners;
  const unsigned n = 2 * std::max(1u, std::thread::hardware_concurrency()) + 1;
  for (unsigned i = 0; i < n; ++i) {
    spinners.emplace_back([&] {
      while (!stop.load(std::memory_order_relaxed)) {
      }
    });
  }
  bool seen = false;
  for (int i = 0; i < 200 && !seen; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    seen = parallel::contended();
  }
  stop = true;
  for (auto& t : spinners) t.join();
  EXPECT_TRUE(seen) << n << " spinning threads and no contention seen";
}

}  // namespace
}  // namespace tfcc
