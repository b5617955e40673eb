// tfcc::config::threading: the setter's contract (as tf.config.threading), its effect on the
// OpenMP thread count of every thread that runs ops, and the primitive caches staying correct
// when the count changes (a primitive planned for one count is never reused under another).
#include "tfcc/ops/config.h"

#include <gtest/gtest.h>
#include <omp.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <thread>

#include "tfcc/ops/conv/conv_internal.h"
#include "tfcc/platform/parallel_runtime.h"
#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

namespace th = config::threading;

// Restores the default after each test.
class Threading : public ::testing::Test {
 protected:
  void TearDown() override { th::set_intra_op_parallelism_threads(0); }
};

TEST_F(Threading, DefaultIsZeroMeaningSystemPicks) {
  EXPECT_EQ(th::get_intra_op_parallelism_threads(), 0);
  EXPECT_GE(th::effective_intra_op_parallelism_threads(), 1);
}

TEST_F(Threading, SetAndGet) {
  th::set_intra_op_parallelism_threads(1);
  EXPECT_EQ(th::get_intra_op_parallelism_threads(), 1);
  EXPECT_EQ(th::effective_intra_op_parallelism_threads(), 1);
  EXPECT_EQ(omp_get_max_threads(), 1) << "the calling thread applies it at once";
  th::set_intra_op_parallelism_threads(3);
  EXPECT_EQ(th::get_intra_op_parallelism_threads(), 3);
  EXPECT_EQ(omp_get_max_threads(), 3);
}

TEST_F(Threading, NegativeIsRejected) {
  EXPECT_THROW(th::set_intra_op_parallelism_threads(-1), InvalidArgumentError);
  EXPECT_EQ(th::get_intra_op_parallelism_threads(), 0);
}

TEST_F(Threading, OtherThreadsPickItUpAtTheirNextOp) {
  th::set_intra_op_parallelism_threads(1);
  int seen = -1;
  std::thread t([&] {
    // A thread that has not run an op yet still has OpenMP's default; one op syncs it.
    Tensor x = constant(std::vector<float>{1, 2, 3});
    (void)(x + x);
    seen = omp_get_max_threads();
  });
  t.join();
  EXPECT_EQ(seen, 1);
}

TEST_F(Threading, ConvPrimitivesAreKeyedByThreadCount) {
  // On the OpenMP runtime, where a primitive's thread count is its own (the pool runtime builds
  // one-thread primitives only: onednn_split_test.cc); fixed, so a busy machine cannot switch it.
  parallel::force_runtime(parallel::Runtime::kOpenMp);
  struct Restore {
    ~Restore() { parallel::force_runtime(std::nullopt); }
  } restore;
  // Large enough (9 MFLOP) that the cost model lets oneDNN use 2 threads.
  Tensor x = random::stateless_uniform({4, 32, 32, 8}, {9, 1});
  Tensor w = random::stateless_uniform({3, 3, 8, 16}, {9, 2});
  th::set_intra_op_parallelism_threads(1);
  const std::vector<float> one = conv2d(x, w, {1}, "SAME").to_vector<float>();
  const onednn::CacheStats s1 = conv_cache_stats();
  th::set_intra_op_parallelism_threads(2);
  const std::vector<float> two = conv2d(x, w, {1}, "SAME").to_vector<float>();
  const onednn::CacheStats s2 = conv_cache_stats();
  EXPECT_EQ(s2.misses, s1.misses + 1) << "a new thread count must build its own primitive";
  th::set_intra_op_parallelism_threads(1);
  conv2d(x, w, {1}, "SAME");
  const onednn::CacheStats s3 = conv_cache_stats();
  EXPECT_EQ(s3.misses, s2.misses) << "the 1-thread primitive is still cached";
  EXPECT_EQ(s3.hits, s2.hits + 1);
  ASSERT_EQ(one.size(), two.size());
  for (size_t i = 0; i < one.size(); ++i) EXPECT_NEAR(one[i], two[i], 1e-4);
}

// Run in a child process by the tests below (skipped otherwise): exits with the thread count one
// op ran with, or 100 when OpenMP's count disagrees with tfcc's.
TEST(DefaultThreadsChild, Report) {
  if (std::getenv("TFCC_TEST_REPORT_THREADS") == nullptr) GTEST_SKIP() << "run by the tests below";
  Tensor x = constant(std::vector<float>{1, 2, 3});
  (void)(x + x);
  const int n = th::effective_intra_op_parallelism_threads();
  std::_Exit(omp_get_max_threads() == n ? n : 100);
}

// Runs DefaultThreadsChild.Report in a fresh process pinned to one CPU, with TFCC_NUM_THREADS
// set to `tfcc_threads` (nullptr: unset) and OMP_NUM_THREADS unset; its exit status.
int child_default_threads(const char* tfcc_threads) {
  cpu_set_t mask;
  if (sched_getaffinity(0, sizeof mask, &mask) != 0) return -1;
  int first = 0;
  while (first < CPU_SETSIZE && !CPU_ISSET(first, &mask)) ++first;
  const pid_t pid = fork();
  if (pid == 0) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) std::_Exit(101);
    unsetenv("OMP_NUM_THREADS");
    if (tfcc_threads) {
      setenv("TFCC_NUM_THREADS", tfcc_threads, 1);
    } else {
      unsetenv("TFCC_NUM_THREADS");
    }
    setenv("TFCC_TEST_REPORT_THREADS", "1", 1);
    char exe[] = "/proc/self/exe";
    char filter[] = "--gtest_filter=DefaultThreadsChild.Report";
    char* argv[] = {exe, filter, nullptr};
    execv(exe, argv);
    std::_Exit(102);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

TEST(DefaultThreads, FollowTheAffinityMask) {
  EXPECT_EQ(child_default_threads(nullptr), 1) << "a process pinned to one CPU defaults to 1";
}

TEST(DefaultThreads, TfccNumThreadsOverrides) { EXPECT_EQ(child_default_threads("3"), 3); }

}  // namespace
}  // namespace tfcc
