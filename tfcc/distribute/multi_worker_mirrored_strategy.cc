#include "tfcc/distribute/multi_worker_mirrored_strategy.h"

#include <chrono>
#include <cmath>
#include <cstring>

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

}  // namespace

MultiWorkerMirroredStrategy::MultiWorkerMirroredStrategy(MultiWorkerMirroredOptions options)
    : options_(options) {
  TFCC_CHECK_ARG(std::isfinite(options.timeout_seconds) && options.timeout_seconds > 0,
                 "MultiWorkerMirroredStrategy: timeout_seconds must be positive, got ",
                 options.timeout_seconds);
  TFCC_CHECK_ARG(options.bucket_bytes > 0, "MultiWorkerMirroredStrategy: bucket_bytes must be > 0");
  MpiWorld::instance().set_timeout(std::chrono::milliseconds(
      static_cast<int64_t>(std::min(options.timeout_seconds, 1e9) * 1000)));
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
  CollectiveStats s = stats_;
  s.wait_seconds = MpiWorld::instance().collective_seconds() - wait_at_reset_;
  return s;
}

void MultiWorkerMirroredStrategy::reset_stats() {
  stats_ = {};
  wait_at_reset_ = MpiWorld::instance().collective_seconds();
}

std::vector<Tensor> MultiWorkerMirroredStrategy::all_reduce_concrete(std::span<const Tensor> values,
                                                                     ReduceOp op) {
  const auto start = std::chrono::steady_clock::now();
  check_concrete(values, "all_reduce");
  for (const Tensor& v : values) {
    TFCC_CHECK_ARG(v.dtype() != bool_ && v.dtype() != bfloat16,
                   "MultiWorkerMirroredStrategy.all_reduce: cannot reduce ", dtype_name(v.dtype()),
                   " tensors; cast them to float32 first");
    TFCC_CHECK_ARG(op == ReduceOp::kSum || is_floating(v.dtype()),
                   "MultiWorkerMirroredStrategy.all_reduce: MEAN needs floating tensors, got ",
                   dtype_name(v.dtype()), "; use ReduceOp::kSum");
  }
  MpiWorld& world = MpiWorld::instance();
  const uint64_t seq = sequence_++;
  const std::string what = describe("all_reduce", seq, values);
  ++stats_.all_reduce_calls;
  stats_.tensors_reduced += static_cast<int64_t>(values.size());
  for (const Tensor& v : values) stats_.bytes_reduced += static_cast<int64_t>(v.nbytes());
  world.check_agreement(fingerprint(values, seq * 4 + static_cast<uint64_t>(op)), what);

  std::vector<Tensor> out(values.size());
  const double mean_factor = 1.0 / world.size();
  for (const Bucket& bucket : plan_buckets(values, options_.bucket_bytes)) {
    const size_t esize = dtype_size(bucket.dtype);
    Tensor packed = Tensor::empty(bucket.dtype, Shape{bucket.num_elements});
    auto* dst = static_cast<char*>(packed.mutable_raw_data());
    for (size_t i : bucket.indices) {
      std::memcpy(dst, values[i].raw_data(), values[i].nbytes());
      dst += values[i].nbytes();
    }
    world.all_reduce_sum(packed.mutable_raw_data(), bucket.num_elements, bucket.dtype, what);
    ++num_collectives_;
    ++stats_.collectives;
    if (op == ReduceOp::kMean && world.size() > 1) {
      visit_dtype(bucket.dtype, [&]<typename T>() {
        if constexpr (std::is_floating_point_v<T>) {
          scale(packed.mutable_data<T>(), bucket.num_elements, mean_factor);
        }
      });
    }
    if (bucket.indices.size() == 1) {
      size_t i = bucket.indices.front();
      out[i] = Tensor::with_buffer(bucket.dtype, values[i].shape(), packed.buffer());
      continue;
    }
    const char* src = static_cast<const char*>(packed.raw_data());
    for (size_t i : bucket.indices) {
      out[i] = Tensor::from_bytes(bucket.dtype, values[i].shape(), src,
                                  static_cast<size_t>(values[i].num_elements()) * esize);
      src += values[i].nbytes();
    }
  }
  stats_.all_reduce_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

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
  world.check_agreement(fingerprint(values, seq * 4 + 3), what);
  for (size_t i = 0; i < values.size(); ++i) {
    Tensor copy = Tensor::from_bytes(values[i].dtype(), values[i].shape(), values[i].raw_data(),
                                     values[i].nbytes());
    world.broadcast(copy.mutable_raw_data(), copy.nbytes(), 0, what);
    ++num_collectives_;
    if (world.rank() != 0) variables[i].assign(copy);
  }
}

void MultiWorkerMirroredStrategy::barrier() {
  const uint64_t seq = sequence_++;
  const std::string what = tfcc::internal::str_cat("barrier #", seq);
  MpiWorld::instance().check_agreement(seq * 4 + 2, what);
  MpiWorld::instance().barrier(what);
}

}  // namespace tfcc::distribute
