#include "tfcc/graph/trace/function.h"

#include <atomic>

#include "tfcc/graph/exec/executor.h"
#include "tfcc/graph/exec/plan.h"
#include "tfcc/graph/trace/inline.h"
#include "tfcc/platform/logging.h"

namespace tfcc {

namespace config {
namespace {
std::atomic<bool> g_run_eagerly{false};
}  // namespace
void run_functions_eagerly(bool enable) { g_run_eagerly.store(enable); }
bool functions_run_eagerly() { return g_run_eagerly.load(); }
}  // namespace config

std::string TensorSpec::to_string() const {
  return internal::str_cat("TensorSpec(shape=", shape.to_string(), ", dtype=tf.", dtype_name(dtype),
                           ", name=", name.empty() ? "None" : "'" + name + "'", ")");
}

const graph::Graph& ConcreteFunction::graph() const {
  TFCC_REQUIRE(FailedPreconditionError, graph_ != nullptr, "Use of an undefined ConcreteFunction");
  return *graph_;
}

const graph::Graph& ConcreteFunction::optimized_graph() const {
  return optimized_ ? *optimized_ : graph();
}

std::vector<TensorSpec> ConcreteFunction::output_specs() const {
  std::vector<TensorSpec> out;
  for (graph::ValueRef v : graph().outputs()) {
    out.push_back({graph().shape(v), graph().dtype(v), {}});
  }
  return out;
}

namespace {

std::mutex& hook_mutex() {
  static std::mutex mu;
  return mu;
}
graph::FunctionRunHook& run_hook() {
  static graph::FunctionRunHook hook;
  return hook;
}
std::atomic<bool> hook_set{false};

}  // namespace

void graph::set_function_run_hook(FunctionRunHook hook) {
  std::lock_guard<std::mutex> lock(hook_mutex());
  hook_set.store(static_cast<bool>(hook));
  run_hook() = std::move(hook);
}

std::vector<Tensor> ConcreteFunction::operator()(std::span<const Tensor> args) const {
  const graph::Graph& g = graph();
  if (args.size() != inputs_.size()) {
    throw InvalidArgumentError(internal::str_cat("Concrete function '", g.name(), "' takes ",
                                                 inputs_.size(), " tensors, got ", args.size()));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    TFCC_CHECK_ARG(args[i].defined(), "Argument ", i, " of '", g.name(), "' is undefined");
    if (args[i].dtype() != inputs_[i].dtype ||
        !inputs_[i].shape.is_compatible_with(args[i].partial_shape())) {
      throw InvalidArgumentError(internal::str_cat(
          "Concrete function '", g.name(), "' was called with a ", dtype_name(args[i].dtype()), " ",
          args[i].partial_shape().to_string(), " tensor for argument ", i,
          ", which is not compatible with ", inputs_[i].to_string()));
    }
  }
  if (graph::TraceContext::current()) return graph::call_inline(g, args);
  if (hook_set.load()) {
    std::lock_guard<std::mutex> lock(hook_mutex());
    if (run_hook()) run_hook()(graph_);
  }
  if (has_op_observers()) return graph::call_inline(g, args);
  // The plan (liveness, in-place outputs) is computed on the first call and cached per graph.
  return graph::run_plan(*graph::ExecutionPlan::get(optimized_ ? optimized_ : graph_), args);
}

namespace internal {

std::vector<TensorSpec> tensor_specs(const std::vector<ArgSpec>& specs) {
  std::vector<TensorSpec> out;
  for (const ArgSpec& s : specs) {
    if (s.is_tensor) out.push_back({s.shape, s.dtype, {}});
  }
  return out;
}

namespace {

bool same_structure(const std::vector<ArgSpec>& a, const std::vector<ArgSpec>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].is_tensor != b[i].is_tensor) return false;
  }
  return true;
}

// True if a call with `call` may run the concrete function traced for `entry`.
bool fits(const std::vector<ArgSpec>& entry, const std::vector<ArgSpec>& call) {
  if (!same_structure(entry, call)) return false;
  for (size_t i = 0; i < entry.size(); ++i) {
    const ArgSpec& e = entry[i];
    const ArgSpec& c = call[i];
    if (!e.is_tensor) {
      if (e.value != c.value) return false;
      continue;
    }
    if (e.dtype != c.dtype) return false;
    // The entry must be at least as general as the call.
    if (e.shape.rank_known()) {
      if (!c.shape.rank_known() || c.shape.rank() != e.shape.rank()) return false;
      for (int d = 0; d < e.shape.rank(); ++d) {
        if (e.shape.dim(d) >= 0 && e.shape.dim(d) != c.shape.dim(d)) return false;
      }
    }
  }
  return true;
}

std::string spec_text(const ArgSpec& s) {
  return s.is_tensor ? internal::str_cat(dtype_name(s.dtype), " ", s.shape.to_string()) : s.value;
}

}  // namespace

FunctionCore::FunctionCore(FunctionOptions options) : options_(std::move(options)) {}

int FunctionCore::tracing_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return tracing_count_;
}

std::string FunctionCore::last_retrace_reason() const {
  std::lock_guard<std::mutex> lock(mu_);
  return last_retrace_reason_;
}

bool FunctionCore::inline_into_current() const {
  graph::TraceContext* ctx = graph::TraceContext::current();
  return ctx && ctx->rules().jit_compile == options_.jit_compile;
}

std::vector<ArgSpec> FunctionCore::trace_specs(const std::vector<ArgSpec>& call) const {
  std::vector<ArgSpec> specs = call;
  if (options_.input_signature) {
    const auto& sig = *options_.input_signature;
    size_t t = 0;
    for (ArgSpec& s : specs) {
      if (!s.is_tensor) continue;
      if (t >= sig.size()) {
        throw InvalidArgumentError(internal::str_cat(
            "Function '", options_.name, "' has an input_signature of ", sig.size(),
            " tensors but was called with more tensor arguments (", s.label, " is extra)"));
      }
      const TensorSpec& want = sig[t++];
      if (s.dtype != want.dtype || !want.shape.is_compatible_with(s.shape)) {
        throw InvalidArgumentError(internal::str_cat(
            "Function '", options_.name, "' was called with ", s.label, " = ", spec_text(s),
            ", which is not compatible with its input_signature[", t - 1, "] ", want.to_string()));
      }
      s.shape = want.shape;
    }
    if (t != sig.size()) {
      throw InvalidArgumentError(internal::str_cat("Function '", options_.name,
                                                   "' has an input_signature of ", sig.size(),
                                                   " tensors but was called with ", t));
    }
    return specs;
  }
  if (options_.reduce_retracing) {
    // Generalise against the most recent trace of the same structure and dtypes.
    for (auto it = cache_.rbegin(); it != cache_.rend(); ++it) {
      const auto& prev = (*it)->specs;
      if (!same_structure(prev, specs)) continue;
      bool compatible = true;
      for (size_t i = 0; i < specs.size() && compatible; ++i) {
        if (!specs[i].is_tensor) {
          compatible = specs[i].value == prev[i].value;
        } else {
          compatible = specs[i].dtype == prev[i].dtype && specs[i].shape.rank_known() &&
                       prev[i].shape.rank_known() && specs[i].shape.rank() == prev[i].shape.rank();
        }
      }
      if (!compatible) continue;
      for (size_t i = 0; i < specs.size(); ++i) {
        if (!specs[i].is_tensor) continue;
        std::vector<int64_t> dims;
        for (int d = 0; d < specs[i].shape.rank(); ++d) {
          int64_t a = specs[i].shape.dim(d), b = prev[i].shape.dim(d);
          dims.push_back(a == b ? a : -1);
        }
        specs[i].shape = PartialShape(dims);
      }
      break;
    }
  }
  return specs;
}

std::string FunctionCore::explain_retrace(const std::vector<ArgSpec>& call) const {
  if (cache_.empty()) return {};
  const auto& prev = cache_.back()->specs;
  if (prev.size() != call.size()) {
    return internal::str_cat("the call has ", call.size(),
                             " argument components, the last trace had ", prev.size());
  }
  std::string out;
  for (size_t i = 0; i < call.size(); ++i) {
    const ArgSpec& a = prev[i];
    const ArgSpec& b = call[i];
    std::string what;
    if (a.is_tensor != b.is_tensor) {
      what = internal::str_cat(b.label, " changed from ", spec_text(a), " to ", spec_text(b));
    } else if (!a.is_tensor && a.value != b.value) {
      what = internal::str_cat(b.label, " changed value from ", a.value, " to ", b.value);
    } else if (a.is_tensor && a.dtype != b.dtype) {
      what = internal::str_cat(b.label, " changed dtype from ", dtype_name(a.dtype), " to ",
                               dtype_name(b.dtype));
    } else if (a.is_tensor && !(a.shape == b.shape)) {
      bool covered = fits(std::vector<ArgSpec>{a}, std::vector<ArgSpec>{b});
      if (!covered) {
        what = internal::str_cat(b.label, " changed shape from ", a.shape.to_string(), " to ",
                                 b.shape.to_string());
      }
    }
    if (!what.empty()) out.append(out.empty() ? "" : "; ").append(what);
  }
  return out;
}

std::shared_ptr<const FunctionCore::Entry> FunctionCore::get(const std::vector<ArgSpec>& call,
                                                             const Tracer& tracer) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& e : cache_) {
    if (fits(e->specs, call)) return e;
  }
  std::vector<ArgSpec> specs = trace_specs(call);
  for (const auto& e : cache_) {
    if (fits(e->specs, specs)) return e;  // an input_signature trace covers it
  }
  std::string reason = explain_retrace(call);
  graph::TraceRules rules;
  {
    // Variables made from here on were created by this trace.
    Variable probe(Tensor::scalar<int32_t>(0), {.name = "probe", .trainable = false});
    rules.first_new_variable_id = probe.id() + 1;
  }
  rules.allow_variable_creation = tracing_count_ == 0;
  rules.jit_compile = options_.jit_compile;
  graph::TraceContext ctx(options_.name, nullptr, rules);
  std::any skeleton;
  {
    ObserverPause pause;  // outer tapes see the call, not the trace
    ExecutionContextScope scope(&ctx);
    skeleton = tracer(specs, ctx);
  }
  ctx.graph().verify();
  if (options_.jit_compile) check_compilable(ctx.graph(), options_.name);
  ++tracing_count_;
  if (tracing_count_ > 1) {
    last_retrace_reason_ = reason;
    if (options_.warn_on_retrace) {
      TFCC_LOG(WARNING) << "Retracing function '" << options_.name << "' (trace #" << tracing_count_
                        << "): " << reason
                        << ". Frequent retracing is slow: pass an input_signature with unknown "
                           "dimensions, use reduce_retracing, or pass tensors instead of C++ "
                           "values that change";
    }
  }
  auto entry = std::make_shared<Entry>();
  entry->specs = specs;
  // The traced graph stays for inlining and tapes (its ops have gradients); the executor runs
  // the optimised one.
  auto optimized =
      std::make_shared<const graph::Graph>(graph::optimize(ctx.graph(), options_.passes));
  entry->fn = ConcreteFunction(ctx.shared_graph(), std::move(optimized), tensor_specs(specs));
  entry->skeleton = std::move(skeleton);
  cache_.push_back(entry);
  return entry;
}

void check_compilable(const graph::Graph& g, const std::string& function) {
  for (const graph::Node& n : g.nodes()) {
    if (n.kind == graph::NodeKind::kHostCall) {
      throw InvalidArgumentError(internal::str_cat(
          "Function '", function, "' has jit_compile=true but node ", n.name, " (", n.type_name(),
          ") at ", graph::location_string(n.location),
          " is a host callback, which cannot be compiled. Remove it or set jit_compile=false"));
    }
    for (const PartialShape& s : n.shapes) {
      if (!s.rank_known()) {
        throw InvalidArgumentError(internal::str_cat(
            "Function '", function, "' has jit_compile=true but node ", n.name, " (", n.type_name(),
            ") at ", graph::location_string(n.location),
            " has an output of unknown rank, which cannot be compiled; give it a known rank "
            "(shape_invariants, input_signature) or set jit_compile=false"));
      }
    }
    for (const auto& sub : n.subgraphs) check_compilable(*sub, function);
  }
}

}  // namespace internal
}  // namespace tfcc
