#include "tfcc/distribute/multi_worker_mirrored_strategy.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <thread>

#include "tfcc/distribute/bucketing.h"
#include "tfcc/distribute/mpi_world.h"
#include "tfcc/platform/errors.h"

namespace tfcc::distribute {
namespace {

using internal::MpiWorld;

void check_concrete(std::span<const Tensor> values, const char* what) {
  for (size_t i = 0; i < values.size(); ++i) {
    const Tensor& v = values[i];
    TFCC_CHECK_ARG(v.defined(), "MultiWorkerMirroredStrategy.", what, ": tensor ", i,
                   " is undefined (a gradient that is None?); pass only defined tensors");
    TFCC_CHECK_ARG(!v.is_symbolic(), "MultiWorkerMirroredStrategy.", what, ": tensor ", i,
                   " is symbolic; collectives run eagerly, call them outside tfcc::function");
  }
}

std::string describe(const char* what, uint64_t seq, std::span<const Tensor> values) {
  size_t bytes = 0;
  for (const Tensor& v : values) bytes += v.nbytes();
  return tfcc::internal::str_cat(what, " #", seq, " (", values.size(), " tensors, ", bytes,
                                 " bytes)");
}

template <typename T>
void scale(T* p, int64_t n, double factor) {
  for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(p[i] * factor);
}

void check_reducible(std::span<const Tensor> values, ReduceOp op) {
  for (const Tensor& v : values) {
    TFCC_CHECK_ARG(v.dtype() != bool_ && v.dtype() != bfloat16 && v.dtype() != string,
                   "MultiWorkerMirroredStrategy.all_reduce: cannot reduce ", dtype_name(v.dtype()),
                   " tensors; cast them to float32 first");
    TFCC_CHECK_ARG(op == ReduceOp::kSum || is_floating(v.dtype()),
                   "MultiWorkerMirroredStrategy.all_reduce: MEAN needs floating tensors, got ",
                   dtype_name(v.dtype()), "; use ReduceOp::kSum");
  }
}

// Sums `packed` (count elements of `dtype`) over the workers in place and, for MEAN, divides by
// their number: the same arithmetic for eager calls and gradient buckets, so the same bits.
void reduce_packed(MpiWorld& world, Tensor& packed, ReduceOp op, const std::string& what) {
  const int64_t count = packed.num_elements();
  world.all_reduce_sum(packed.mutable_raw_data(), count, packed.dtype(), what);
  if (op == ReduceOp::kMean && world.size() > 1) {
    const double mean_factor = 1.0 / world.size();
    visit_dtype(packed.dtype(), [&]<typename T>() {
      if constexpr (std::is_floating_point_v<T>) {
        scale(packed.mutable_data<T>(), count, mean_factor);
      }
    });
  }
}

Tensor pack(std::span<const Tensor> values, std::span<const size_t> indices, DType dtype,
            int64_t num_elements) {
  Tensor packed = Tensor::empty(dtype, Shape{num_elements});
  auto* dst = static_cast<char*>(packed.mutable_raw_data());
  for (size_t i : indices) {
    std::memcpy(dst, values[i].raw_data(), values[i].nbytes());
    dst += values[i].nbytes();
  }
  return packed;
}

// The tensors of `shapes` laid end to end in `packed` (one tensor: `packed` itself, reshaped).
void unpack(const Tensor& packed, std::span<const Shape> shapes, std::vector<Tensor>& out) {
  if (shapes.size() == 1) {
    out.push_back(Tensor::with_buffer(packed.dtype(), shapes[0], packed.buffer()));
    return;
  }
  const size_t esize = dtype_size(packed.dtype());
  const char* src = static_cast<const char*>(packed.raw_data());
  for (const Shape& shape : shapes) {
    size_t bytes = static_cast<size_t>(shape.num_elements()) * esize;
    out.push_back(Tensor::from_bytes(packed.dtype(), shape, src, bytes));
    src += bytes;
  }
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

// A gradient() reduction in flight: one job per bucket on the communication thread.
struct MultiWorkerMirroredStrategy::PendingStep {
  struct Bucket {
    std::shared_ptr<internal::CommJob> job;
    std::shared_ptr<Tensor> packed;  // reduced in place by the job
    std::vector<Shape> shapes;
  };
  uint64_t seq = 0;
  std::string what;
  std::vector<Bucket> buckets;
};

MultiWorkerMirroredStrategy::MultiWorkerMirroredStrategy(MultiWorkerMirroredOptions options)
    : options_(options) {
  TFCC_CHECK_ARG(std::isfinite(options.timeout_seconds) && options.timeout_seconds > 0,
                 "MultiWorkerMirroredStrategy: timeout_seconds must be positive, got ",
                 options.timeout_seconds);
  TFCC_CHECK_ARG(options.bucket_bytes > 0, "MultiWorkerMirroredStrategy: bucket_bytes must be > 0");
  MpiWorld::instance().set_timeout(std::chrono::milliseconds(
      static_cast<int64_t>(std::min(options.timeout_seconds, 1e9) * 1000)));
}

MultiWorkerMirroredStrategy::~MultiWorkerMirroredStrategy() {
  // Jobs run in order: once an empty one has run, none of ours is left. A failed world's jobs
  // fail fast; a communication thread stuck in MPI is not waited for past the timeout.
  internal::CommThread& comm = MpiWorld::instance().comm();
  auto job = comm.submit([] {});
  try {
    comm.wait(*job, std::chrono::steady_clock::now() + MpiWorld::instance().timeout() +
                        std::chrono::seconds(5));
  } catch (...) {
  }
}

int MultiWorkerMirroredStrategy::num_replicas_in_sync() const {
  return MpiWorld::instance().size();
}
int MultiWorkerMirroredStrategy::rank() const { return MpiWorld::instance().rank(); }

double MultiWorkerMirroredStrategy::collective_seconds() const {
  return MpiWorld::instance().collective_seconds();
}

std::string MultiWorkerMirroredStrategy::to_string() const {
  return tfcc::internal::str_cat("MultiWorkerMirroredStrategy(rank ", rank(), " of ",
                                 num_replicas_in_sync(), ")");
}

CollectiveStats MultiWorkerMirroredStrategy::stats() const {
  std::lock_guard<std::mutex> lock(stats_mu_);
  CollectiveStats s = stats_;
  s.wait_seconds = MpiWorld::instance().collective_seconds() - wait_at_reset_;
  return s;
}

void MultiWorkerMirroredStrategy::reset_stats() {
  std::lock_guard<std::mutex> lock(stats_mu_);
  stats_ = {};
  wait_at_reset_ = MpiWorld::instance().collective_seconds();
}

void MultiWorkerMirroredStrategy::add_stats(double all_reduce_seconds, double blocked_seconds) {
  std::lock_guard<std::mutex> lock(stats_mu_);
  stats_.all_reduce_seconds += all_reduce_seconds;
  stats_.blocked_seconds += blocked_seconds;
}

void MultiWorkerMirroredStrategy::run_collective(std::function<void()> fn) {
  MpiWorld::instance().comm().run(std::move(fn));
}

std::vector<Tensor> MultiWorkerMirroredStrategy::all_reduce_concrete(std::span<const Tensor> values,
                                                                     ReduceOp op) {
  const auto start = std::chrono::steady_clock::now();
  check_concrete(values, "all_reduce");
  check_reducible(values, op);
  MpiWorld& world = MpiWorld::instance();
  const uint64_t seq = sequence_++;
  const std::string what = describe("all_reduce", seq, values);
  {
    std::lock_guard<std::mutex> lock(stats_mu_);
    ++stats_.all_reduce_calls;
    stats_.tensors_reduced += static_cast<int64_t>(values.size());
    for (const Tensor& v : values) stats_.bytes_reduced += static_cast<int64_t>(v.nbytes());
  }
  std::vector<Tensor> out(values.size());
  run_collective([&] {
    world.check_agreement(fingerprint(values, seq * 4 + static_cast<uint64_t>(op)), what);
    for (const Bucket& bucket : plan_buckets(values, options_.bucket_bytes)) {
      Tensor packed = pack(values, bucket.indices, bucket.dtype, bucket.num_elements);
      reduce_packed(world, packed, op, what);
      ++num_collectives_;
      {
        std::lock_guard<std::mutex> lock(stats_mu_);
        ++stats_.collectives;
      }
      std::vector<Shape> shapes;
      for (size_t i : bucket.indices) shapes.push_back(values[i].shape());
      std::vector<Tensor> parts;
      unpack(packed, shapes, parts);
      for (size_t k = 0; k < parts.size(); ++k) out[bucket.indices[k]] = std::move(parts[k]);
    }
  });
  const double seconds = seconds_since(start);
  add_stats(seconds, seconds);
  return out;
}

int64_t MultiWorkerMirroredStrategy::start_bucket(int64_t step, std::span<const Tensor> tensors,
                                                  ReduceOp op, uint64_t signature) {
  const auto start = std::chrono::steady_clock::now();
  check_concrete(tensors, "gradient");
  check_reducible(tensors, op);
  TFCC_REQUIRE(InternalError, !tensors.empty(), "start_bucket: an empty bucket");
  for (const Tensor& t : tensors) {
    TFCC_REQUIRE(InternalError, t.dtype() == tensors[0].dtype(),
                 "start_bucket: a bucket mixes dtypes");
  }
  MpiWorld& world = MpiWorld::instance();
  std::shared_ptr<PendingStep> pending;
  const bool first = step == 0;
  if (first) {
    // A step whose wait never ran (an error between start and wait) is stale: forget it.
    while (steps_.size() >= 16) steps_.erase(steps_.begin());
    pending = std::make_shared<PendingStep>();
    pending->seq = sequence_++;
    pending->what = tfcc::internal::str_cat("gradient all-reduce #", pending->seq);
    step = next_step_++;
    steps_[step] = pending;
  } else {
    auto it = steps_.find(step);
    TFCC_REQUIRE(InternalError, it != steps_.end(), "start_bucket: unknown gradient step ", step);
    pending = it->second;
  }
  int64_t count = 0;
  std::vector<size_t> all(tensors.size());
  PendingStep::Bucket bucket;
  for (size_t i = 0; i < tensors.size(); ++i) {
    all[i] = i;
    count += tensors[i].num_elements();
    bucket.shapes.push_back(tensors[i].shape());
  }
  // Packed here, on the training thread: the gradients' buffers are the executor's again as
  // soon as this returns.
  bucket.packed = std::make_shared<Tensor>(pack(tensors, all, tensors[0].dtype(), count));
  {
    std::lock_guard<std::mutex> lock(stats_mu_);
    if (first) ++stats_.all_reduce_calls;
    ++stats_.gradient_buckets;
    stats_.tensors_reduced += static_cast<int64_t>(tensors.size());
    stats_.bytes_reduced += static_cast<int64_t>(bucket.packed->nbytes());
  }
  const uint64_t agreement = signature ^ (pending->seq * 4 + static_cast<uint64_t>(op));
  add_stats(seconds_since(start), 0);
  bucket.job = world.comm().submit(
      [this, &world, packed = bucket.packed, op, first, agreement, what = pending->what] {
        const auto job_start = std::chrono::steady_clock::now();
        // The first bucket of a step carries the check that every rank reduces the same
        // gradients: a mismatch is reported before any data is exchanged.
        if (first) world.check_agreement(agreement, what);
        reduce_packed(world, *packed, op, what);
        ++num_collectives_;
        std::lock_guard<std::mutex> lock(stats_mu_);
        ++stats_.collectives;
        stats_.all_reduce_seconds += seconds_since(job_start);
      });
  pending->buckets.push_back(std::move(bucket));
  return step;
}

std::vector<Tensor> MultiWorkerMirroredStrategy::finish_buckets(int64_t step) {
  const auto start = std::chrono::steady_clock::now();
  auto it = steps_.find(step);
  TFCC_REQUIRE(InternalError, it != steps_.end(), "finish_buckets: unknown gradient step ", step);
  std::shared_ptr<PendingStep> pending = it->second;
  steps_.erase(it);
  MpiWorld& world = MpiWorld::instance();
  // The communication thread enforces the collective timeout itself; this deadline only guards
  // against that thread being stuck inside MPI.
  const auto deadline = start + 2 * world.timeout() + std::chrono::seconds(10);
  int64_t hidden = 0;
  std::vector<Tensor> out;
  for (const PendingStep::Bucket& b : pending->buckets) {
    if (b.job->done()) ++hidden;
    if (!world.comm().wait(*b.job, deadline)) {
      MpiWorld::set_failed();
      world.comm().abandon();
      throw DeadlineExceededError(tfcc::internal::str_cat(
          "MultiWorkerMirroredStrategy: ", pending->what, " on rank ", rank(), " of ",
          num_replicas_in_sync(), " did not complete within ",
          std::chrono::duration<double>(deadline - start).count(),
          " s (the communication thread is stuck in MPI). The MPI job is aborted when this "
          "process exits."));
    }
    unpack(*b.packed, b.shapes, out);
  }
  std::lock_guard<std::mutex> lock(stats_mu_);
  stats_.hidden_buckets += hidden;
  stats_.blocked_seconds += seconds_since(start);
  return out;
}

void MultiWorkerMirroredStrategy::drop_buckets(int64_t step) { steps_.erase(step); }

void MultiWorkerMirroredStrategy::broadcast_variables(std::span<const Variable> variables) {
  std::vector<Tensor> values;
  values.reserve(variables.size());
  for (const Variable& v : variables) {
    TFCC_CHECK_ARG(v.defined(),
                   "MultiWorkerMirroredStrategy.broadcast_variables: undefined variable");
    values.push_back(v.read_value());
  }
  check_concrete(values, "broadcast_variables");
  MpiWorld& world = MpiWorld::instance();
  const uint64_t seq = sequence_++;
  const std::string what = describe("broadcast_variables", seq, values);
  std::vector<Tensor> copies;
  for (const Tensor& v : values) {
    copies.push_back(Tensor::from_bytes(v.dtype(), v.shape(), v.raw_data(), v.nbytes()));
  }
  run_collective([&] {
    world.check_agreement(fingerprint(values, seq * 4 + 3), what);
    for (Tensor& copy : copies) {
      world.broadcast(copy.mutable_raw_data(), copy.nbytes(), 0, what);
      ++num_collectives_;
    }
  });
  if (world.rank() != 0) {
    for (size_t i = 0; i < values.size(); ++i) variables[i].assign(copies[i]);
  }
}

void MultiWorkerMirroredStrategy::barrier() {
  const uint64_t seq = sequence_++;
  const std::string what = tfcc::internal::str_cat("barrier #", seq);
  MpiWorld& world = MpiWorld::instance();
  run_collective([&] {
    world.check_agreement(seq * 4 + 2, what);
    world.barrier(what);
  });
}

}  // namespace tfcc::distribute
