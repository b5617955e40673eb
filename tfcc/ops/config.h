// Runtime configuration of op execution, after tf.config.threading: how many threads one op may
// use (OpenMP, the one threading runtime of tfcc's kernels and of oneDNN).
//
//   tfcc::config::threading::set_intra_op_parallelism_threads(1);   // one thread per op
//   auto c = tfcc::matmul(a, b);                                      // runs single-threaded
//   tfcc::config::threading::set_intra_op_parallelism_threads(0);   // back to the default
//
// The setting is process-wide: every thread that runs ops picks it up before its next kernel.
// oneDNN primitives are planned for a thread count when they are built, so tfcc's primitive
// caches key their entries by the thread count in force; changing it never reuses a primitive
// planned for another count.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

namespace tfcc::config::threading {

/// Sets the number of threads one op may use. 0 means "let the system pick": TFCC_NUM_THREADS,
/// else OMP_NUM_THREADS, else the CPUs this process may use (affinity mask capped by the cgroup
/// CPU quota; docs/threading.md), as in TensorFlow. Negative values raise InvalidArgumentError.
void set_intra_op_parallelism_threads(int num_threads);

/// The value last set (0: the system default, as TensorFlow reports it).
int get_intra_op_parallelism_threads();

/// The thread count ops run with now (the setting resolved: never 0).
int effective_intra_op_parallelism_threads();

/// Applies the current setting to the calling thread's OpenMP state when it changed since this
/// thread last looked (one relaxed atomic load otherwise). Called by dispatch before each kernel.
void sync_calling_thread();

}  // namespace tfcc::config::threading
#pragma GCC visibility pop
