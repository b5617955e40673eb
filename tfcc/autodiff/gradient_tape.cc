#include "tfcc/autodiff/gradient_tape.h"

#include <algorithm>

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/variable/variable_ops.h"

namespace tfcc {
namespace {

bool is_differentiable_dtype(DType t) { return t == float32 || t == float64 || t == bfloat16; }

}  // namespace

Tensor aggregate_gradients(const std::vector<Tensor>& parts) {
  std::vector<Tensor> defined;
  for (const Tensor& p : parts) {
    if (p.defined()) defined.push_back(p);
  }
  if (defined.empty()) return Tensor();
  if (defined.size() == 1) return defined[0];
  return add_n(defined);
}

GradientTape::GradientTape(GradientTapeOptions options) : options_(options) {
  add_op_observer(this);
  registered_ = true;
}

GradientTape::~GradientTape() {
  if (registered_) remove_op_observer(this);
}

void GradientTape::watch(const Tensor& t) {
  if (t.defined() && is_differentiable_dtype(t.dtype())) watched_.insert(t.id());
}

void GradientTape::watch(const std::vector<Tensor>& ts) {
  for (const Tensor& t : ts) watch(t);
}

void GradientTape::watch(const Variable& v) {
  if (!is_differentiable_dtype(v.dtype())) return;
  for (const Variable& w : watched_vars_) {
    if (w.id() == v.id()) return;
  }
  watched_vars_.push_back(v);
  var_reads_.try_emplace(v.id());
}

std::vector<Variable> GradientTape::watched_variables() const { return watched_vars_; }

void GradientTape::note_variable_read(const OpCall& call, std::span<const Tensor> outputs) {
  const auto& state = variable_of(call.attrs);
  if (!is_differentiable_dtype(state->dtype)) return;
  if (!var_reads_.count(state->id)) {
    if (!options_.watch_accessed_variables || !state->trainable) return;
    watch(Variable::from_state(state));
  }
  var_reads_[state->id].push_back(outputs[0].id());
  watched_.insert(outputs[0].id());
}

void GradientTape::reset() {
  entries_.clear();
  watched_.clear();
  watched_vars_.clear();
  var_reads_.clear();
  used_ = false;
}

void GradientTape::record(const OpCall& call, std::span<const Tensor> outputs) {
  if (!recording_) return;
  if (call.inputs.empty() && call.op.name() == "ReadVariableOp") {
    note_variable_read(call, outputs);
    return;
  }
  bool touches = false;
  for (const Tensor& t : call.inputs) {
    if (watched_.count(t.id())) {
      touches = true;
      break;
    }
  }
  if (!touches) return;
  // Ops that block gradients still run; their outputs are simply not watched.
  if (call.op.marked_not_differentiable()) return;
  Entry e;
  e.op = &call.op;
  e.inputs.assign(call.inputs.begin(), call.inputs.end());
  e.outputs.assign(outputs.begin(), outputs.end());
  e.attrs = call.attrs;
  for (const Tensor& t : outputs) {
    if (is_differentiable_dtype(t.dtype())) watched_.insert(t.id());
  }
  entries_.push_back(std::move(e));
}

void GradientTape::record_custom(std::span<const Tensor> inputs, std::span<const Tensor> outputs,
                                 GradFn grad) {
  if (!recording_) return;
  bool touches = false;
  for (const Tensor& t : inputs) touches = touches || watched_.count(t.id());
  if (!touches) return;
  Entry e;
  e.inputs.assign(inputs.begin(), inputs.end());
  e.outputs.assign(outputs.begin(), outputs.end());
  e.custom = std::move(grad);
  for (const Tensor& t : outputs) {
    if (is_differentiable_dtype(t.dtype())) watched_.insert(t.id());
  }
  entries_.push_back(std::move(e));
}

void GradientTape::check_usable() {
  if (used_ && !options_.persistent) {
    throw FailedPreconditionError(
        "A non-persistent GradientTape can only be used to compute one set of gradients (or "
        "jacobians); construct it with {.persistent = true} to compute more");
  }
  used_ = true;
}

std::vector<Tensor> GradientTape::backprop(const std::vector<Tensor>& targets,
                                           const std::vector<Tensor>& sources,
                                           const GradientOptions& options) {
  std::vector<Source> groups;
  for (const Tensor& s : sources) {
    TFCC_CHECK_ARG(s.defined(), "GradientTape.gradient: a source is an undefined Tensor");
    groups.push_back({{s.id()}, s});
  }
  return backprop_sources(targets, groups, options);
}

std::vector<Tensor> GradientTape::backprop_sources(const std::vector<Tensor>& targets,
                                                   const std::vector<Source>& sources,
                                                   const GradientOptions& options) {
  // The gradient computation must not be recorded by this tape (outer tapes do record it, which
  // is what makes higher-order gradients work).
  Pause pause(*this);
  std::unordered_map<uint64_t, std::vector<Tensor>> pending;
  if (!options.output_gradients.empty() && options.output_gradients.size() != targets.size()) {
    throw InvalidArgumentError(internal::str_cat("Got ", options.output_gradients.size(),
                                                 " output_gradients for ", targets.size(),
                                                 " targets"));
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    const Tensor& t = targets[i];
    TFCC_CHECK_ARG(t.defined(), "GradientTape.gradient: target ", i, " is an undefined Tensor");
    if (!is_differentiable_dtype(t.dtype())) continue;  // integer targets: None, like TF
    Tensor seed;
    if (!options.output_gradients.empty() && options.output_gradients[i].defined()) {
      seed = options.output_gradients[i];
      TFCC_CHECK_ARG(seed.partial_shape().is_compatible_with(t.partial_shape()),
                     "output_gradients[", i, "] has shape ", seed.partial_shape().to_string(),
                     " but the target has shape ", t.partial_shape().to_string());
    } else {
      seed = ones_like(t);
    }
    pending[t.id()].push_back(seed);
  }
  std::vector<Tensor> result(sources.size());
  auto finalize = [&](size_t i) {
    std::vector<Tensor> parts;
    for (uint64_t id : sources[i].ids) {
      auto p = pending.find(id);
      if (p != pending.end()) parts.insert(parts.end(), p->second.begin(), p->second.end());
    }
    Tensor g = aggregate_gradients(parts);
    if (!g.defined() && options.unconnected_gradients == UnconnectedGradients::kZero) {
      g = zeros_like(sources[i].like);
    }
    result[i] = g;
    if (options.on_gradient_ready) options.on_gradient_ready(i, result[i]);
  };
  // With a readiness callback, a source is finalized as soon as the loop below has passed the
  // first (in execution order) entry that reads it: no later step adds to its gradient.
  // ready_order: sources by that entry's index, latest first; sources no entry reads (their
  // gradient is a target's seed or nothing) come first.
  std::vector<std::pair<int64_t, size_t>> ready_order;
  if (options.on_gradient_ready) {
    std::unordered_map<uint64_t, std::vector<size_t>> source_of;
    for (size_t i = 0; i < sources.size(); ++i) {
      for (uint64_t id : sources[i].ids) source_of[id].push_back(i);
    }
    std::vector<int64_t> first_reader(sources.size(), static_cast<int64_t>(entries_.size()));
    for (size_t j = entries_.size(); j-- > 0;) {
      for (const Tensor& in : entries_[j].inputs) {
        auto s = source_of.find(in.id());
        if (s == source_of.end()) continue;
        for (size_t i : s->second) first_reader[i] = static_cast<int64_t>(j);
      }
    }
    for (size_t i = 0; i < sources.size(); ++i) ready_order.emplace_back(first_reader[i], i);
    std::stable_sort(ready_order.begin(), ready_order.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
  }
  size_t next_ready = 0;
  // Reverse execution order is a topological order of the recorded graph.
  for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
    const Entry& e = *it;
    const int64_t index = static_cast<int64_t>(entries_.rend() - it) - 1;
    while (next_ready < ready_order.size() && ready_order[next_ready].first > index) {
      finalize(ready_order[next_ready++].second);
    }
    bool any = false;
    std::vector<Tensor> out_grads(e.outputs.size());
    for (size_t k = 0; k < e.outputs.size(); ++k) {
      auto p = pending.find(e.outputs[k].id());
      if (p != pending.end()) {
        out_grads[k] = aggregate_gradients(p->second);
        any = any || out_grads[k].defined();
      }
    }
    if (!any) continue;
    // Rules may assume every output gradient exists: fill the missing ones with zeros.
    for (size_t k = 0; k < e.outputs.size(); ++k) {
      if (!out_grads[k].defined() && is_differentiable_dtype(e.outputs[k].dtype())) {
        out_grads[k] = zeros_like(e.outputs[k]);
      }
    }
    std::vector<Tensor> in_grads;
    if (e.custom) {
      static const OpDef kCustom("CustomGradient");
      GradContext ctx{kCustom, e.inputs, e.outputs, e.attrs, out_grads};
      in_grads = e.custom(ctx);
    } else {
      // Inputs this tape does not watch get their gradients dropped below: tell the rule.
      std::vector<bool> needed(e.inputs.size());
      for (size_t k = 0; k < e.inputs.size(); ++k) needed[k] = watched_.count(e.inputs[k].id()) > 0;
      GradContext ctx{*e.op, e.inputs, e.outputs, e.attrs, out_grads, &needed};
      in_grads = e.op->gradient_fn()(ctx);
    }
    if (in_grads.size() != e.inputs.size()) {
      throw InternalError(internal::str_cat("Gradient of ", e.op ? e.op->name() : "custom_gradient",
                                            " returned ", in_grads.size(), " gradients for ",
                                            e.inputs.size(), " inputs"));
    }
    for (size_t k = 0; k < e.inputs.size(); ++k) {
      if (in_grads[k].defined() && watched_.count(e.inputs[k].id())) {
        pending[e.inputs[k].id()].push_back(in_grads[k]);
      }
    }
  }
  while (next_ready < ready_order.size()) finalize(ready_order[next_ready++].second);
  if (!options.on_gradient_ready) {
    for (size_t i = 0; i < sources.size(); ++i) finalize(i);
  }
  return result;
}

std::vector<Tensor> GradientTape::gradient(const std::vector<Tensor>& targets,
                                           const std::vector<Tensor>& sources,
                                           const GradientOptions& options) {
  check_usable();
  std::vector<Tensor> result = backprop(targets, sources, options);
  if (!options_.persistent) {
    // A used non-persistent tape stops recording and frees what it held, like TF's.
    recording_ = false;
    entries_.clear();
  }
  return result;
}

std::vector<Tensor> GradientTape::gradient(const Tensor& target, const std::vector<Tensor>& sources,
                                           const GradientOptions& options) {
  return gradient(std::vector<Tensor>{target}, sources, options);
}

std::vector<Tensor> GradientTape::gradient(const Tensor& target,
                                           const std::vector<Variable>& sources,
                                           const GradientOptions& options) {
  check_usable();
  std::vector<Source> groups;
  for (const Variable& v : sources) {
    TFCC_CHECK_ARG(v.defined(), "GradientTape.gradient: a source is an undefined Variable");
    auto it = var_reads_.find(v.id());
    Source s;
    if (it != var_reads_.end()) s.ids = it->second;
    if (options.unconnected_gradients == UnconnectedGradients::kZero) {
      ObserverPause pause;
      s.like = v.read_value();
    }
    groups.push_back(std::move(s));
  }
  std::vector<Tensor> result = backprop_sources({target}, groups, options);
  if (!options_.persistent) {
    recording_ = false;
    entries_.clear();
  }
  return result;
}

Tensor GradientTape::gradient(const Tensor& target, const Tensor& source,
                              const GradientOptions& options) {
  return gradient(std::vector<Tensor>{target}, std::vector<Tensor>{source}, options)[0];
}

Tensor GradientTape::jacobian(const Tensor& target, const Tensor& source,
                              UnconnectedGradients unconnected) {
  check_usable();
  Pause pause(*this);
  const Shape ts = target.shape(), ss = source.shape();
  const int64_t n = ts.num_elements();
  std::vector<int64_t> dims = ts.dims();
  dims.insert(dims.end(), ss.dims().begin(), ss.dims().end());
  std::vector<Tensor> rows;
  for (int64_t i = 0; i < n; ++i) {
    Tensor seed = reshape(one_hot(constant(i), n, 1, 0, target.dtype()), ts.dims());
    Tensor g =
        backprop({target}, {source}, GradientOptions{{seed}, UnconnectedGradients::kNone})[0];
    if (!g.defined()) {
      if (unconnected == UnconnectedGradients::kNone) return Tensor();
      g = zeros_like(source);
    }
    rows.push_back(g);
  }
  if (n == 0) return zeros(dims, source.dtype());
  return reshape(stack(rows), dims);
}

Tensor GradientTape::batch_jacobian(const Tensor& target, const Tensor& source,
                                    UnconnectedGradients unconnected) {
  check_usable();
  const Shape ts = target.shape(), ss = source.shape();
  TFCC_CHECK_ARG(ts.rank() >= 1 && ss.rank() >= 1 && ts.dim(0) == ss.dim(0),
                 "batch_jacobian needs target and source with the same first (batch) "
                 "dimension, got ",
                 ts.to_string(), " and ", ss.to_string());
  const int64_t b = ts.dim(0), per = b ? ts.num_elements() / b : 0;
  std::vector<int64_t> flat = {b, per};
  std::vector<Tensor> cols;
  Tensor any;
  for (int64_t j = 0; j < per; ++j) {
    Tensor seed;
    {
      Pause pause(*this);
      Tensor row = one_hot(constant(j), per, 1, 0, target.dtype());
      seed = reshape(broadcast_to(reshape(row, {1, per}), flat), ts.dims());
    }
    GradientOptions o{{seed}, UnconnectedGradients::kNone};
    Tensor g = backprop({target}, {source}, o)[0];
    if (!g.defined()) {
      if (unconnected == UnconnectedGradients::kNone) return Tensor();
      Pause pause(*this);
      g = zeros_like(source);
    }
    cols.push_back(g);
  }
  Pause pause(*this);
  std::vector<int64_t> dims = {b};
  dims.insert(dims.end(), ts.dims().begin() + 1, ts.dims().end());
  dims.insert(dims.end(), ss.dims().begin() + 1, ss.dims().end());
  if (per == 0) return zeros(dims, source.dtype());
  return reshape(stack(cols, 1), dims);
}

}  // namespace tfcc
