#include "tfcc/keras/models/distributed.h"

#include <cstring>
#include <random>

#include "tfcc/distribute/strategy.h"
#include "tfcc/keras/models/model.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/platform/logging.h"

namespace tfcc::keras::distributed {
namespace {

using distribute::ReduceOp;
using distribute::Strategy;

// FNV-1a over the dtype, shape and bytes of every component.
uint64_t batch_fingerprint(const data::Element& batch) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&h](const void* p, size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) {
      h ^= b[i];
      h *= 1099511628211ull;
    }
  };
  for (const Tensor& t : batch) {
    if (!t.defined()) continue;
    int dt = static_cast<int>(t.dtype());
    mix(&dt, sizeof dt);
    for (int64_t d : t.shape().dims()) mix(&d, sizeof d);
    mix(t.raw_data(), t.nbytes());
  }
  return h;
}

// Rank 0's value of an int64 scalar, via a scratch variable.
int64_t from_rank0(Strategy& s, int64_t value) {
  Variable v(Tensor::scalar<int64_t>(value), {.name = "distributed_scratch", .trainable = false});
  Variable vs[] = {v};
  s.broadcast_variables(vs);
  return v.read_value().item<int64_t>();
}

void check_same_batch(Strategy& s, const data::Element& batch) {
  const uint64_t mine = batch_fingerprint(batch);
  const int64_t rank0 = from_rank0(s, static_cast<int64_t>(mine));
  const int64_t differs = static_cast<uint64_t>(rank0) == mine ? 0 : 1;
  const int64_t ranks_differing = s.reduce(ReduceOp::kSum, Tensor::scalar(differs)).item<int64_t>();
  TFCC_REQUIRE(FailedPreconditionError, ranks_differing == 0, "fit under ", s.to_string(), ": ",
               ranks_differing,
               " rank(s) read a different global batch than rank 0 at the start of an epoch. "
               "Every rank must read the same data in the same order (each takes its share of "
               "every global batch): give Dataset::shuffle a seed, and do not make the input "
               "depend on the rank.");
}

}  // namespace

Strategy* replicated(const Model& model) {
  Strategy& s = model.distribute_strategy();
  return s.num_replicas_in_sync() > 1 ? &s : nullptr;
}

int verbose_for(const Model& model, int verbose) {
  return model.distribute_strategy().is_chief() ? verbose : 0;
}

data::Element shard_batch(const data::Element& batch, int rank, int replicas) {
  TFCC_CHECK_ARG(!batch.empty() && batch[0].defined() && batch[0].rank() >= 1,
                 "distributed fit: a batch must be (x, ...) with x of rank >= 1");
  const int64_t n = batch[0].shape()[0];
  const int64_t lo = n * rank / replicas, hi = n * (rank + 1) / replicas;
  data::Element out;
  for (const Tensor& t : batch) {
    if (!t.defined()) {
      out.push_back(t);
      continue;
    }
    TFCC_CHECK_ARG(t.rank() >= 1 && t.shape()[0] == n,
                   "distributed fit: every component of a batch must have the batch size ", n,
                   " as its first dimension to be split across replicas; got shape ",
                   t.shape().to_string());
    std::vector<int64_t> begin(static_cast<size_t>(t.rank()), 0);
    std::vector<int64_t> size(static_cast<size_t>(t.rank()), -1);
    begin[0] = lo;
    size[0] = hi - lo;
    out.push_back(slice(t, begin, size));
  }
  return out;
}

ReplicaSource::ReplicaSource(Model& model, BatchSource& global, bool mirror)
    : model_(model), global_(global), strategy_(replicated(model)), mirror_(mirror) {}

void ReplicaSource::start_epoch() {
  first_of_epoch_ = true;
  global_.start_epoch();
}

std::optional<data::Element> ReplicaSource::next() {
  if (!strategy_) return global_.next();
  const int replicas = strategy_->num_replicas_in_sync();
  for (;;) {
    std::optional<data::Element> batch = global_.next();
    if (!batch) return batch;
    TFCC_CHECK_ARG(!batch->empty() && (*batch)[0].defined() && (*batch)[0].rank() >= 1,
                   "distributed fit: a batch must be (x, ...) with x of rank >= 1");
    if ((*batch)[0].shape()[0] < replicas) {
      static bool warned = false;
      if (!warned) {
        warned = true;
        TFCC_LOG(WARNING) << "distributed fit: skipping a global batch of "
                          << (*batch)[0].shape()[0] << " rows, fewer than the " << replicas
                          << " replicas (use a batch size that is a multiple of the replicas, "
                             "or drop_remainder)";
      }
      continue;
    }
    if (first_of_epoch_) {
      first_of_epoch_ = false;
      check_same_batch(*strategy_, *batch);
    }
    data::Element mine = shard_batch(*batch, strategy_->rank(), replicas);
    if (mirror_) {
      mirror_ = false;
      // Build a lazily built model on this batch, then start every rank from rank 0's weights.
      if (!model_.built() || model_.variables().empty()) model_(mine[0], {.training = false});
      std::vector<Variable> vars = model_.variables();
      if (model_.optimizer()) {
        auto opt = model_.optimizer()->variables();
        vars.insert(vars.end(), opt.begin(), opt.end());
      }
      strategy_->broadcast_variables(vars);
    }
    return mine;
  }
}

std::vector<Tensor> average_gradients(const Model& model, std::vector<Tensor> grads) {
  Strategy* s = replicated(model);
  if (!s) return grads;
  std::vector<Tensor> defined;
  for (const Tensor& g : grads) {
    if (g.defined()) defined.push_back(g);
  }
  if (defined.empty()) return grads;
  std::vector<Tensor> mean = s->all_reduce(defined, ReduceOp::kMean);
  size_t k = 0;
  for (Tensor& g : grads) {
    if (g.defined()) g = mean[k++];
  }
  return grads;
}

std::vector<Tensor> gradients(const Model& model, GradientTape& tape, const Tensor& loss,
                              const std::vector<Variable>& vars) {
  Strategy* s = replicated(model);
  if (!s) return tape.gradient(loss, vars);
  return s->gradient(tape, loss, vars, ReduceOp::kMean);
}

std::vector<std::pair<std::string, Tensor>> sync_logs(
    Model& model, std::vector<std::pair<std::string, Tensor>> logs) {
  Strategy* s = replicated(model);
  if (!s) return logs;
  // One collective for every metric's state (summed), one for the other entries (averaged).
  auto metrics = model.metrics();
  std::vector<Tensor> states;
  for (const auto& m : metrics) {
    for (const Variable& v : m->variables()) states.push_back(v.read_value());
  }
  std::vector<size_t> others;
  std::vector<Tensor> other_values;
  for (size_t i = 0; i < logs.size(); ++i) {
    bool is_metric = false;
    for (const auto& m : metrics) is_metric = is_metric || m->name() == logs[i].first;
    if (!is_metric) {
      others.push_back(i);
      other_values.push_back(cast(logs[i].second, float64));
    }
  }
  std::vector<Tensor> sums = states.empty() ? states : s->all_reduce(states, ReduceOp::kSum);
  size_t k = 0;
  for (const auto& m : metrics) {
    // result() of the summed state: swap it in, read the result, put the local state back.
    const auto& vars = m->variables();
    for (size_t j = 0; j < vars.size(); ++j) vars[j].assign(sums[k + j]);
    Tensor result = m->result();
    for (size_t j = 0; j < vars.size(); ++j) vars[j].assign(states[k + j]);
    k += vars.size();
    for (auto& [name, value] : logs) {
      if (name == m->name()) value = result;
    }
  }
  if (!other_values.empty()) {
    auto means = s->all_reduce(other_values, ReduceOp::kMean);
    for (size_t j = 0; j < others.size(); ++j) logs[others[j]].second = means[j];
  }
  return logs;
}

void sync_non_trainable(Model& model) {
  Strategy* s = replicated(model);
  if (!s) return;
  std::vector<Variable> vars;
  std::vector<Tensor> values;
  for (const Variable& v : model.non_trainable_variables()) {
    if (is_floating(v.dtype()) && v.dtype() != bfloat16) {
      vars.push_back(v);
      values.push_back(v.read_value());
    }
  }
  if (values.empty()) return;
  auto means = s->all_reduce(values, ReduceOp::kMean);
  for (size_t i = 0; i < vars.size(); ++i) vars[i].assign(means[i]);
}

std::optional<uint64_t> shuffle_seed(const Model& model) {
  Strategy* s = replicated(model);
  if (!s) return std::nullopt;
  std::random_device rd;
  const uint64_t mine = (uint64_t{rd()} << 32) ^ rd();
  return static_cast<uint64_t>(from_rank0(*s, static_cast<int64_t>(mine)));
}

}  // namespace tfcc::keras::distributed
