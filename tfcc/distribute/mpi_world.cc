#include "tfcc/distribute/mpi_world.h"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <thread>
#include <type_traits>
#include <vector>

#include "tfcc/platform/errors.h"

namespace tfcc::distribute::internal {
namespace {

using internal_clock = std::chrono::steady_clock;

std::atomic<bool> g_failed{false};

void finalize_at_exit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  if (g_failed.load()) {
    // A peer is gone or stuck: MPI_Finalize would block on it. Abort the whole job instead, so
    // mpirun stops every worker now rather than when its own timeout fires.
    std::cerr << "tfcc.distribute: aborting the MPI job after a failed collective\n";
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
}

int elements_per_chunk_start(int64_t count, int size, int i) {
  // Chunk i covers [count * i / size, count * (i + 1) / size); returned in elements.
  return static_cast<int>(count * i / size);
}

template <typename T, bool kIntegral>
struct AccumulatorOf {
  using type = T;
};
template <typename T>
struct AccumulatorOf<T, true> {
  using type = std::make_unsigned_t<T>;
};

template <typename T>
void sum_chunks(const T* recv, int chunk_len, int size, T* out) {
  // Integers wrap like TensorFlow's (two's complement) instead of overflowing (UB) in C++.
  using Acc = typename AccumulatorOf<T, std::is_integral_v<T>>::type;
  for (int k = 0; k < chunk_len; ++k) {
    Acc acc = static_cast<Acc>(recv[k]);
    for (int r = 1; r < size; ++r) {
      acc = static_cast<Acc>(acc + static_cast<Acc>(recv[static_cast<int64_t>(r) * chunk_len + k]));
    }
    out[k] = static_cast<T>(acc);
  }
}

}  // namespace

bool MpiWorld::failed() { return g_failed.load(); }
void MpiWorld::set_failed() { g_failed = true; }

MpiWorld& MpiWorld::instance() {
  static MpiWorld world;
  return world;
}

MpiWorld::MpiWorld() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  int provided = 0;
  if (!initialized) {
    // Collectives run on the communication thread, one at a time, while other threads compute:
    // SERIALIZED is the level that allows it (FUNNELED would require the main thread).
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
      throw UnavailableError("MultiWorkerMirroredStrategy: MPI_Init_thread failed");
    }
    std::atexit(finalize_at_exit);
  } else {
    MPI_Query_thread(&provided);
  }
  thread_level_ = provided;
  if (provided < MPI_THREAD_SERIALIZED) {
    throw UnavailableError(tfcc::internal::str_cat(
        "MultiWorkerMirroredStrategy: the MPI library grants thread level ", provided,
        " but MPI_THREAD_SERIALIZED (", MPI_THREAD_SERIALIZED,
        ") is needed: collectives run on a background thread. Use an MPI built with thread "
        "support (Debian's OpenMPI is), or initialise MPI with MPI_THREAD_SERIALIZED."));
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

void MpiWorld::ensure_usable(const std::string& what) const {
  if (g_failed.load()) {
    throw UnavailableError(tfcc::internal::str_cat(
        "MultiWorkerMirroredStrategy: cannot run ", what, " on rank ", rank_,
        ": an earlier collective failed, so the workers are no longer in step. Exit the "
        "process (the MPI job is aborted at exit) and restart training from a checkpoint."));
  }
}

void MpiWorld::check(int rc, const std::string& what) {
  if (rc == MPI_SUCCESS) return;
  g_failed = true;
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, msg, &len);
  throw UnavailableError(tfcc::internal::str_cat(
      "MultiWorkerMirroredStrategy: ", what, " on rank ", rank_, " of ", size_,
      " failed in MPI: ", std::string(msg, static_cast<size_t>(len))));
}

void MpiWorld::wait(void* requests, int n, const std::string& what) {
  auto* reqs = static_cast<MPI_Request*>(requests);
  auto start = internal_clock::now();
  const std::chrono::milliseconds timeout = timeout_.load();
  auto deadline = start + timeout;
  auto urgent_since = start;
  int urgent_spins = 0;
  for (int spins = 0;; ++spins) {
    int done = 0;
    check(MPI_Testall(n, reqs, &done, MPI_STATUSES_IGNORE), what);
    if (done) break;
    auto now = internal_clock::now();
    if (now >= deadline) {
      g_failed = true;
      double secs = std::chrono::duration<double>(timeout).count();
      throw DeadlineExceededError(tfcc::internal::str_cat(
          "MultiWorkerMirroredStrategy: ", what, " on rank ", rank_, " of ", size_,
          " did not complete within ", secs,
          " s: another worker died, stalled or stopped calling collectives. The MPI job is "
          "aborted when this process exits. (The timeout is "
          "MultiWorkerMirroredOptions::timeout_seconds.)"));
    }
    // While the training thread still computes (the gradients of earlier layers), poll every
    // 100 us and leave it the core. Once it waits for this result: spin briefly for the common
    // fast case, then yield the core between polls (a peer that shares it runs at once, and the
    // nonblocking collective still progresses at every poll: sleeping here would add a timer
    // tick to every round of the exchange), and after 50 ms of waiting back off to 1 ms sleeps
    // so a long wait costs no CPU.
    if (!comm_.someone_waiting()) {
      urgent_spins = 0;
      if (spins > 20) std::this_thread::sleep_for(std::chrono::microseconds(100));
    } else if (urgent_spins++ == 0) {
      urgent_since = now;
    } else if (urgent_spins > 200) {
      if (now - urgent_since < std::chrono::milliseconds(50)) {
        std::this_thread::yield();
      } else {
        std::this_thread::sleep_for(std::chrono::microseconds(1000));
      }
    }
  }
  collective_seconds_.store(collective_seconds_.load() +
                            std::chrono::duration<double>(internal_clock::now() - start).count());
}

void MpiWorld::check_agreement(uint64_t signature, const std::string& what) {
  ensure_usable(what);
  if (size_ == 1) return;
  // One MIN-reduction of {s, ~s} yields min(s) and ~max(s): equal iff every worker agrees.
  uint64_t send[2] = {signature, ~signature};
  uint64_t recv[2] = {0, 0};
  MPI_Request req;
  check(MPI_Iallreduce(send, recv, 2, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD, &req), what);
  wait(&req, 1, what);
  if (recv[0] != signature || ~recv[1] != signature) {
    g_failed = true;
    throw FailedPreconditionError(tfcc::internal::str_cat(
        "MultiWorkerMirroredStrategy: mismatched collectives: rank ", rank_, " of ", size_,
        " called ", what,
        " while another worker called a different collective or passed tensors of other dtypes "
        "or shapes. Every worker must make the same collective calls in the same order."));
  }
}

void MpiWorld::all_reduce_sum(void* data, int64_t count, DType dtype, const std::string& what) {
  ensure_usable(what);
  if (size_ == 1 || count == 0) return;
  const int64_t esize = static_cast<int64_t>(dtype_size(dtype));
  // MPI counts are ints: reduce in segments small enough for byte counts to fit.
  const int64_t max_segment = (int64_t{1} << 30) / esize;
  auto* base = static_cast<char*>(data);
  for (int64_t off = 0; off < count; off += max_segment) {
    const int64_t n = std::min(max_segment, count - off);
    char* seg = base + off * esize;
    std::vector<int> send_counts(size_), send_displs(size_), recv_counts(size_), recv_displs(size_);
    for (int i = 0; i < size_; ++i) {
      int lo = elements_per_chunk_start(n, size_, i),
          hi = elements_per_chunk_start(n, size_, i + 1);
      send_counts[i] = static_cast<int>((hi - lo) * esize);
      send_displs[i] = static_cast<int>(lo * esize);
    }
    const int my_len = send_counts[rank_] / static_cast<int>(esize);
    for (int i = 0; i < size_; ++i) {
      recv_counts[i] = send_counts[rank_];
      recv_displs[i] = i * send_counts[rank_];
    }
    // Reduce-scatter as all-to-all + an ordered local sum, then all-gather: every chunk is summed
    // by exactly one worker in rank order, so results do not depend on MPI's algorithm choice.
    std::vector<char> recv(static_cast<size_t>(my_len) * size_ * esize);
    std::vector<char> mine(static_cast<size_t>(my_len) * esize);
    MPI_Request req;
    check(MPI_Ialltoallv(seg, send_counts.data(), send_displs.data(), MPI_BYTE, recv.data(),
                         recv_counts.data(), recv_displs.data(), MPI_BYTE, MPI_COMM_WORLD, &req),
          what);
    wait(&req, 1, what);
    visit_dtype(dtype, [&]<typename T>() {
      if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
        sum_chunks(reinterpret_cast<const T*>(recv.data()), my_len, size_,
                   reinterpret_cast<T*>(mine.data()));
      } else {
        throw InvalidArgumentError(tfcc::internal::str_cat(
            "MultiWorkerMirroredStrategy: cannot sum tensors of dtype ", dtype_name(dtype)));
      }
    });
    check(MPI_Iallgatherv(mine.data(), send_counts[rank_], MPI_BYTE, seg, send_counts.data(),
                          send_displs.data(), MPI_BYTE, MPI_COMM_WORLD, &req),
          what);
    wait(&req, 1, what);
  }
}

void MpiWorld::broadcast(void* data, size_t bytes, int root, const std::string& what) {
  ensure_usable(what);
  if (size_ == 1) return;
  auto* p = static_cast<char*>(data);
  const size_t max_segment = size_t{1} << 30;
  for (size_t off = 0; off < bytes; off += max_segment) {
    int n = static_cast<int>(std::min(max_segment, bytes - off));
    MPI_Request req;
    check(MPI_Ibcast(p + off, n, MPI_BYTE, root, MPI_COMM_WORLD, &req), what);
    wait(&req, 1, what);
  }
}

void MpiWorld::barrier(const std::string& what) {
  ensure_usable(what);
  if (size_ == 1) return;
  MPI_Request req;
  check(MPI_Ibarrier(MPI_COMM_WORLD, &req), what);
  wait(&req, 1, what);
}

}  // namespace tfcc::distribute::internal
