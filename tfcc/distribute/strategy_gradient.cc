// Strategy::gradient: the gradients' all-reduce overlapped with the backward pass.
#include <algorithm>
#include <optional>

#include "tfcc/distribute/bucketing.h"
#include "tfcc/distribute/strategy.h"
#include "tfcc/graph/trace/trace_context.h"
#include "tfcc/platform/errors.h"

namespace tfcc::distribute {

// One gradient() call: the fixed bucket plan, the gradients seen so far, the buckets started.
class GradientReducer {
 public:
  GradientReducer(Strategy& strategy, const std::vector<Variable>& sources, ReduceOp op,
                  std::source_location loc)
      : strategy_(strategy), op_(op), loc_(loc), grads_(sources.size()), ready_(sources.size()) {
    // Backprop produces the last layers' gradients first: plan over the variables in reverse.
    std::vector<DType> dtypes;
    std::vector<int64_t> counts;
    for (size_t k = sources.size(); k-- > 0;) {
      dtypes.push_back(sources[k].dtype());
      counts.push_back(sources[k].shape().num_elements());
      order_.push_back(k);
    }
    plan_ = plan_buckets(dtypes, counts, strategy.gradient_bucket_bytes());
    // Every rank traces the same model, so they agree on this unless they run different code.
    signature_ = 0x6772616469656e74ull ^ static_cast<uint64_t>(op);
    for (size_t i = 0; i < dtypes.size(); ++i) {
      signature_ = signature_ * 1099511628211ull + static_cast<uint64_t>(dtypes[i]);
      signature_ = signature_ * 1099511628211ull + static_cast<uint64_t>(counts[i]);
    }
  }

  // The tape's readiness callback: starts every bucket, in plan order, whose gradients are all
  // final.
  void on_ready(size_t index, const Tensor& grad) {
    grads_[index] = grad;
    ready_[index] = true;
    while (next_ < plan_.size()) {
      const Bucket& b = plan_[next_];
      bool all = std::all_of(b.indices.begin(), b.indices.end(),
                             [&](size_t i) { return ready_[order_[i]]; });
      if (!all) break;
      std::vector<size_t> members;
      for (size_t i : b.indices) {
        if (grads_[order_[i]].defined()) members.push_back(order_[i]);
      }
      ++next_;
      // Gradients of another dtype than their variable's start as buckets of their own.
      for (size_t lo = 0; lo < members.size();) {
        size_t hi = lo + 1;
        while (hi < members.size() && grads_[members[hi]].dtype() == grads_[members[lo]].dtype()) {
          ++hi;
        }
        start({members.begin() + static_cast<long>(lo), members.begin() + static_cast<long>(hi)});
        lo = hi;
      }
    }
  }

  // After the backward pass: one wait for every bucket; the reduced gradients in source order.
  std::vector<Tensor> finish() {
    TFCC_REQUIRE(InternalError, next_ == plan_.size(),
                 "gradient(): the tape did not report every gradient");
    std::vector<Tensor> out = grads_;
    if (launched_.empty()) return out;
    std::vector<Tensor> reduced;
    if (traced_) {
      auto host = std::make_shared<graph::HostFn>();
      host->name = "CollectiveAllReduceWait";
      host->fn = [alive = std::weak_ptr<Strategy*>(strategy_.alive_)](std::span<const Tensor> in) {
        return live(alive, "CollectiveAllReduceWait").finish_buckets(in[0].item<int64_t>());
      };
      graph::Node n;
      n.kind = graph::NodeKind::kHostCall;
      n.host = std::move(host);
      n.location = loc_;
      for (size_t k : launched_) {
        n.dtypes.push_back(grads_[k].dtype());
        n.shapes.push_back(grads_[k].partial_shape());
      }
      Tensor in[] = {token_};
      reduced = graph::TraceContext::current()->add_node(std::move(n), in);
    } else {
      reduced = strategy_.finish_buckets(step_);
      step_ = 0;
    }
    for (size_t i = 0; i < launched_.size(); ++i) out[launched_[i]] = reduced[i];
    return out;
  }

  // Eager reductions started but not finished (an exception): forgotten, not waited for.
  ~GradientReducer() {
    if (step_ != 0) strategy_.drop_buckets(step_);
  }

  void set_traced(bool traced) { traced_ = traced; }

 private:
  static Strategy& live(const std::weak_ptr<Strategy*>& alive, const char* what) {
    std::shared_ptr<Strategy*> s = alive.lock();
    TFCC_REQUIRE(FailedPreconditionError, s != nullptr, what,
                 ": the distribution strategy this function was traced under has been destroyed; "
                 "keep the strategy alive while its functions run");
    return **s;
  }

  void start(std::vector<size_t> members) {
    std::vector<Tensor> tensors;
    for (size_t k : members) tensors.push_back(grads_[k]);
    launched_.insert(launched_.end(), members.begin(), members.end());
    if (!traced_) {
      step_ = strategy_.start_bucket(step_, tensors, op_, signature_);
      return;
    }
    // A host node taking the previous bucket's token (the step handle) and this bucket's
    // gradients; appended now, right after the nodes that produced them.
    const bool first = !token_.defined();
    auto host = std::make_shared<graph::HostFn>();
    host->name = "CollectiveAllReduceStart";
    host->fn = [alive = std::weak_ptr<Strategy*>(strategy_.alive_), op = op_, first,
                signature = signature_](std::span<const Tensor> in) {
      Strategy& s = live(alive, "CollectiveAllReduceStart");
      int64_t step = first ? 0 : in[0].item<int64_t>();
      step = s.start_bucket(step, in.subspan(first ? 0 : 1), op, signature);
      return std::vector<Tensor>{Tensor::scalar<int64_t>(step)};
    };
    graph::Node n;
    n.kind = graph::NodeKind::kHostCall;
    n.host = std::move(host);
    n.location = loc_;
    n.dtypes = {int64};
    n.shapes = {PartialShape(Shape{})};
    if (!first) tensors.insert(tensors.begin(), token_);
    token_ = graph::TraceContext::current()->add_node(std::move(n), tensors)[0];
  }

  Strategy& strategy_;
  ReduceOp op_;
  std::source_location loc_;
  std::vector<size_t> order_;  // plan position -> source index (reverse order)
  std::vector<Bucket> plan_;
  uint64_t signature_ = 0;
  std::vector<Tensor> grads_;
  std::vector<bool> ready_;
  size_t next_ = 0;               // the next bucket of the plan to start
  std::vector<size_t> launched_;  // source indices, in the order their buckets started
  bool traced_ = false;
  Tensor token_;      // traced: the last start node's output
  int64_t step_ = 0;  // eager: the step handle
};

std::vector<Tensor> Strategy::gradient(GradientTape& tape, const Tensor& target,
                                       const std::vector<Variable>& sources, ReduceOp op,
                                       std::source_location loc) {
  TFCC_CHECK_ARG(target.defined(), "Strategy.gradient: the target is an undefined Tensor");
  if (num_replicas_in_sync() == 1 || gradient_bucket_bytes() == 0) {
    std::vector<Tensor> grads = tape.gradient(target, sources);
    if (num_replicas_in_sync() == 1) return grads;
    std::vector<Tensor> defined;
    for (const Tensor& g : grads) {
      if (g.defined()) defined.push_back(g);
    }
    if (defined.empty()) return grads;
    std::vector<Tensor> reduced = all_reduce(defined, op, loc);
    size_t k = 0;
    for (Tensor& g : grads) {
      if (g.defined()) g = reduced[k++];
    }
    return grads;
  }
  GradientReducer reducer(*this, sources, op, loc);
  graph::TraceContext* ctx = graph::TraceContext::current();
  reducer.set_traced(target.is_symbolic());
  TFCC_REQUIRE(FailedPreconditionError, !target.is_symbolic() || ctx != nullptr,
               "Strategy.gradient received a symbolic target outside the function trace that "
               "made it");
  GradientOptions options;
  options.on_gradient_ready = [&reducer](size_t i, const Tensor& g) { reducer.on_ready(i, g); };
  tape.gradient(target, sources, options);
  return reducer.finish();
}

int64_t Strategy::start_bucket(int64_t, std::span<const Tensor>, ReduceOp, uint64_t) {
  throw InternalError(internal::str_cat(to_string(), " does not reduce gradient buckets"));
}

std::vector<Tensor> Strategy::finish_buckets(int64_t) {
  throw InternalError(internal::str_cat(to_string(), " does not reduce gradient buckets"));
}

void Strategy::drop_buckets(int64_t) {}

}  // namespace tfcc::distribute
