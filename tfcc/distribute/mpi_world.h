// Internal: the MPI communicator behind MultiWorkerMirroredStrategy. Not a public header.
//
// Every collective is non-blocking underneath and polled against a deadline, so a worker that
// died or stalled turns into a DeadlineExceededError on the others instead of a hang. Before
// each collective the workers agree on a fingerprint of what they are about to exchange, so a
// mismatched call (different shapes, a different collective, a skipped step) is reported instead
// of exchanging garbage. After a failure the process aborts the MPI job at exit (MPI_Finalize
// would wait forever for the missing worker).
//
// Threads: MPI is initialised with MPI_THREAD_SERIALIZED (Debian's OpenMPI grants it; the
// constructor checks). The collectives below run only on comm(), the world's one communication
// thread, in submission order; callers submit jobs to it (see comm_thread.h).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "tfcc/core/dtype.h"
#include "tfcc/distribute/comm_thread.h"

namespace tfcc::distribute::internal {

/// The process's MPI world (MPI_COMM_WORLD), initialised on first use.
class MpiWorld {
 public:
  static MpiWorld& instance();

  int rank() const { return rank_; }
  int size() const { return size_; }
  void set_timeout(std::chrono::milliseconds timeout) { timeout_ = timeout; }
  std::chrono::milliseconds timeout() const { return timeout_; }
  /// Seconds spent waiting in MPI so far.
  double collective_seconds() const { return collective_seconds_.load(); }
  /// The thread that runs every collective below.
  CommThread& comm() { return comm_; }
  /// The thread support level MPI granted (MPI_THREAD_SERIALIZED or higher).
  int thread_level() const { return thread_level_; }
  /// True once a collective failed (timed out, mismatched, MPI error): the workers are out of
  /// step and the job is aborted at exit.
  static bool failed();
  /// Marks the world failed (a caller gave up waiting for the communication thread).
  static void set_failed();

  /// Checks that every worker passes the same `signature`; `what` describes the local call.
  void check_agreement(uint64_t signature, const std::string& what);
  /// In-place sum over workers of `count` elements; bit-identical on every worker and
  /// independent of timing (each chunk is summed in rank order by one worker).
  void all_reduce_sum(void* data, int64_t count, DType dtype, const std::string& what);
  /// In-place broadcast of `bytes` bytes from `root`.
  void broadcast(void* data, size_t bytes, int root, const std::string& what);
  void barrier(const std::string& what);

  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

 private:
  MpiWorld();
  void wait(void* requests, int n, const std::string& what);
  void check(int rc, const std::string& what);
  void ensure_usable(const std::string& what) const;

  int rank_ = 0;
  int size_ = 1;
  int thread_level_ = 0;
  std::atomic<std::chrono::milliseconds> timeout_{std::chrono::milliseconds(60000)};
  std::atomic<double> collective_seconds_{0};
  CommThread comm_;  // last member: destroyed (joined) first
};

}  // namespace tfcc::distribute::internal
