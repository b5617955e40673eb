// Internal: the MPI communicator behind MultiWorkerMirroredStrategy. Not a public header.
//
// Every collective is non-blocking underneath and polled against a deadline, so a worker that
// died or stalled turns into a DeadlineExceededError on the others instead of a hang. Before
// each collective the workers agree on a fingerprint of what they are about to exchange, so a
// mismatched call (different shapes, a different collective, a skipped step) is reported instead
// of exchanging garbage. After a failure the process aborts the MPI job at exit (MPI_Finalize
// would wait forever for the missing worker).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "tfcc/core/dtype.h"

namespace tfcc::distribute::internal {

/// The process's MPI world (MPI_COMM_WORLD), initialised on first use.
class MpiWorld {
 public:
  static MpiWorld& instance();

  int rank() const { return rank_; }
  int size() const { return size_; }
  void set_timeout(std::chrono::milliseconds timeout) { timeout_ = timeout; }
  std::chrono::milliseconds timeout() const { return timeout_; }
  /// Seconds spent inside collectives so far.
  double collective_seconds() const { return collective_seconds_; }

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
  std::chrono::milliseconds timeout_{60000};
  double collective_seconds_ = 0;
};

}  // namespace tfcc::distribute::internal
