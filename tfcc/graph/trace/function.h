// tfcc::function: traces C++ code into a graph once per input signature and runs the graph on
// every later call, like tf.function.
//
//   auto f = tfcc::function([](tfcc::Tensor x, int power) {
//     tfcc::Tensor y = x;
//     for (int i = 1; i < power; ++i) y = y * x;   // C++ control flow runs at trace time
//     return y;
//   });
//   f(tfcc::constant({1.f, 2.f}), 3);   // traces (float32 (2,), 3), runs the graph
//   f(tfcc::constant({3.f, 4.f}), 3);   // same signature: runs the cached graph
//   f(tfcc::constant({1.f}), 3);        // new shape: retraces, and logs which argument changed:
//     // Retracing function 'function' (trace #2): argument #0 changed shape from (2,) to (1,)
//   f.tracing_count();                   // 2
//
// The cache key: tensor arguments (Tensor, std::vector<Tensor>) by dtype and shape; C++ values
// (integers, bools, floating point, enums, std::string) by value; Variables by identity. With an
// input_signature, tensors must fit it (unknown dimensions as -1) and the function is traced once;
// reduce_retracing generalises the dimensions that changed to unknown on a retrace.
//
// Side effects: C++ code in the callable runs only while tracing. Use tfcc::print (an op) for
// output at every call:
//
//   auto g = tfcc::function([](tfcc::Tensor x) {
//     std::cout << "tracing\n";          // printed once, at trace time
//     tfcc::print("x =", x);              // printed at every call, with x's value
//     return x + 1;
//   });
//
// Rules inside a traced function (each a clear error naming the user's line): no converting a
// symbolic tensor to a C++ value (item<bool>() on it: use tfcc::cond / tfcc::while_loop); no
// keeping tensors of a trace for later (return them instead); variables may be created on the
// first trace only (compute their initial value inside a tfcc::graph::InitScope). A tfcc::function
// called from another one is inlined into the caller's trace (decorate the outermost block only),
// unless their jit_compile options differ. tfcc::config::run_functions_eagerly(true) makes every
// function run its callable directly, for debugging.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <any>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "tfcc/core/variable.h"
#include "tfcc/graph/passes/pass_manager.h"
#include "tfcc/graph/trace/concrete_function.h"
#include "tfcc/graph/trace/config.h"
#include "tfcc/graph/trace/nest.h"
#include "tfcc/graph/trace/tensor_spec.h"
#include "tfcc/graph/trace/trace_context.h"

namespace tfcc {

/// Options of tfcc::function.
struct FunctionOptions {
  /// Shown in graphs, messages and retrace warnings.
  std::string name = "function";
  /// One TensorSpec per tensor argument (in order; a std::vector<Tensor> argument counts each
  /// element). Calls must fit it; the function is traced once for it.
  std::optional<std::vector<TensorSpec>> input_signature;
  /// On a retrace caused by shapes, trace with the changed dimensions unknown so later calls
  /// with other sizes reuse the graph.
  bool reduce_retracing = false;
  /// Demands that the whole function can be compiled: a part that cannot (a host callback such
  /// as tfcc::print, an output of unknown rank) raises InvalidArgumentError at trace time.
  bool jit_compile = false;
  /// Log a warning naming the changed argument at each retrace.
  bool warn_on_retrace = true;
  /// The graph passes run on each trace before it executes (which, dumps, limits); see
  /// tfcc/graph/passes/pass_manager.h. `{.enabled = false}` runs graphs as traced.
  graph::PassOptions passes;
};

namespace internal {

/// One component of a call's cache key.
struct ArgSpec {
  bool is_tensor = false;
  std::string label;  ///< "argument #0", "argument #1[2]"
  DType dtype = float32;
  PartialShape shape;
  std::string value;  ///< non-tensors: the value as text (with its type)
};

/// Argument handling by type: the cache key and the value passed to the callable while tracing.
template <typename T, typename Enable = void>
struct ArgTraits {
  static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>,
                "tfcc::function arguments must be tensors, std::vector<Tensor>, Variables, "
                "TensorSpecs, numbers, enums or strings; capture other objects in the lambda");
  using Traced = T;
  static void describe(const T& v, std::string label, std::vector<ArgSpec>& out,
                       std::vector<Tensor>&) {
    ArgSpec s;
    s.label = std::move(label);
    if constexpr (std::is_enum_v<T>) {
      s.value = internal::str_cat("enum ", static_cast<long long>(v));
    } else if constexpr (std::is_same_v<T, bool>) {
      s.value = v ? "true" : "false";
    } else {
      s.value = internal::str_cat(v);
    }
    out.push_back(std::move(s));
  }
  static T traced(const T& v, const ArgSpec*& spec, graph::TraceContext&) {
    ++spec;
    return v;
  }
};

template <>
struct ArgTraits<std::string> {
  using Traced = std::string;
  static void describe(const std::string& v, std::string label, std::vector<ArgSpec>& out,
                       std::vector<Tensor>&) {
    out.push_back({false, std::move(label), float32, {}, "'" + v + "'"});
  }
  static std::string traced(const std::string& v, const ArgSpec*& spec, graph::TraceContext&) {
    ++spec;
    return v;
  }
};

template <>
struct ArgTraits<Tensor> {
  using Traced = Tensor;
  static void describe(const Tensor& t, std::string label, std::vector<ArgSpec>& out,
                       std::vector<Tensor>& flat) {
    TFCC_CHECK_ARG(t.defined(), "tfcc::function: ", label, " is an undefined Tensor");
    out.push_back({true, std::move(label), t.dtype(), t.partial_shape(), {}});
    flat.push_back(t);
  }
  static Tensor traced(const Tensor&, const ArgSpec*& spec, graph::TraceContext& ctx) {
    const ArgSpec& s = *spec++;
    return ctx.add_arg(s.dtype, s.shape, "x");
  }
};

template <>
struct ArgTraits<TensorSpec> {
  using Traced = Tensor;
  static void describe(const TensorSpec& t, std::string label, std::vector<ArgSpec>& out,
                       std::vector<Tensor>&) {
    out.push_back({true, std::move(label), t.dtype, t.shape, {}});
  }
  static Tensor traced(const TensorSpec& t, const ArgSpec*& spec, graph::TraceContext& ctx) {
    const ArgSpec& s = *spec++;
    return ctx.add_arg(s.dtype, s.shape, t.name.empty() ? "x" : t.name);
  }
};

template <>
struct ArgTraits<std::vector<Tensor>> {
  using Traced = std::vector<Tensor>;
  static void describe(const std::vector<Tensor>& v, std::string label, std::vector<ArgSpec>& out,
                       std::vector<Tensor>& flat) {
    out.push_back({false, label, float32, {}, internal::str_cat("list of ", v.size())});
    for (size_t i = 0; i < v.size(); ++i) {
      ArgTraits<Tensor>::describe(v[i], internal::str_cat(label, "[", i, "]"), out, flat);
    }
  }
  static std::vector<Tensor> traced(const std::vector<Tensor>& v, const ArgSpec*& spec,
                                    graph::TraceContext& ctx) {
    ++spec;
    std::vector<Tensor> r;
    for (const Tensor& t : v) r.push_back(ArgTraits<Tensor>::traced(t, spec, ctx));
    return r;
  }
};

template <>
struct ArgTraits<Variable> {
  using Traced = Variable;
  static void describe(const Variable& v, std::string label, std::vector<ArgSpec>& out,
                       std::vector<Tensor>&) {
    out.push_back({false,
                   std::move(label),
                   float32,
                   {},
                   internal::str_cat("variable '", v.name(), "' #", v.id())});
  }
  static Variable traced(const Variable& v, const ArgSpec*& spec, graph::TraceContext&) {
    ++spec;
    return v;
  }
};

/// The type-independent part of a Function: cache, counters, options.
class FunctionCore {
 public:
  explicit FunctionCore(FunctionOptions options);

  struct Entry {
    std::vector<ArgSpec> specs;
    ConcreteFunction fn;
    std::any skeleton;  ///< the traced return value: the output structure
  };
  /// Traces the callable into `ctx` and returns the skeleton of its result.
  using Tracer = std::function<std::any(const std::vector<ArgSpec>&, graph::TraceContext&)>;

  /// The cached entry for a call, tracing on a miss.
  std::shared_ptr<const Entry> get(const std::vector<ArgSpec>& call, const Tracer& tracer);

  const FunctionOptions& options() const { return options_; }
  int tracing_count() const;
  std::string last_retrace_reason() const;
  /// True if a call from inside the current trace should be inlined directly.
  bool inline_into_current() const;

 private:
  std::vector<ArgSpec> trace_specs(const std::vector<ArgSpec>& call) const;
  std::string explain_retrace(const std::vector<ArgSpec>& call) const;

  FunctionOptions options_;
  mutable std::mutex mu_;
  std::vector<std::shared_ptr<const Entry>> cache_;
  int tracing_count_ = 0;
  std::string last_retrace_reason_;
};

/// Raises InvalidArgumentError naming the first node of `g` that jit_compile cannot accept.
void check_compilable(const graph::Graph& g, const std::string& function);

/// TensorSpecs of the tensor components of a key.
std::vector<TensorSpec> tensor_specs(const std::vector<ArgSpec>& specs);

}  // namespace internal

/// A polymorphic traced function: one ConcreteFunction per cache key. Copies share the cache.
template <typename F>
class Function {
 public:
  Function(F f, FunctionOptions options)
      : f_(std::make_shared<F>(std::move(f))),
        core_(std::make_shared<internal::FunctionCore>(std::move(options))) {}

  /// Calls the function: looks up (or traces) the concrete function for the arguments' key and
  /// runs it, returning the callable's result structure.
  template <typename... Args>
  auto operator()(const Args&... args) const {
    using R = std::invoke_result_t<F&, typename internal::ArgTraits<Args>::Traced...>;
    if (config::functions_run_eagerly() ||
        (graph::TraceContext::current() && core_->inline_into_current())) {
      return std::invoke(*f_, args...);
    }
    std::vector<internal::ArgSpec> specs;
    std::vector<Tensor> flat;
    describe_all(specs, flat, args...);
    auto entry = core_->get(specs, tracer<R>(args...));
    std::vector<Tensor> out = entry->fn(flat);
    if constexpr (std::is_void_v<R>) {
      return;
    } else {
      return pack_like(std::any_cast<const R&>(entry->skeleton), out);
    }
  }

  /// The concrete function for arguments like these (TensorSpecs stand for tensors), tracing it
  /// if needed.
  template <typename... Args>
  ConcreteFunction get_concrete_function(const Args&... args) const {
    using R = std::invoke_result_t<F&, typename internal::ArgTraits<Args>::Traced...>;
    std::vector<internal::ArgSpec> specs;
    std::vector<Tensor> flat;
    describe_all(specs, flat, args...);
    return core_->get(specs, tracer<R>(args...))->fn;
  }

  /// How many times the callable has been traced.
  int tracing_count() const { return core_->tracing_count(); }
  /// Why the last retrace happened ("argument #0 changed shape from (2,) to (3,)"); empty before
  /// any retrace.
  std::string last_retrace_reason() const { return core_->last_retrace_reason(); }
  const FunctionOptions& options() const { return core_->options(); }
  /// The callable itself.
  const F& python_function() const { return *f_; }

 private:
  template <typename... Args>
  static void describe_all(std::vector<internal::ArgSpec>& specs, std::vector<Tensor>& flat,
                           const Args&... args) {
    int i = 0;
    (internal::ArgTraits<Args>::describe(args, internal::str_cat("argument #", i++), specs, flat),
     ...);
  }

  template <typename R, typename... Args>
  internal::FunctionCore::Tracer tracer(const Args&... args) const {
    return [&, f = f_](const std::vector<internal::ArgSpec>& specs, graph::TraceContext& ctx) {
      [[maybe_unused]] const internal::ArgSpec* p = specs.data();
      std::tuple<typename internal::ArgTraits<Args>::Traced...> traced{
          internal::ArgTraits<Args>::traced(args, p, ctx)...};
      if constexpr (std::is_void_v<R>) {
        std::apply(*f, traced);
        ctx.finish({});
        return std::any();
      } else {
        R result = std::apply(*f, traced);
        std::vector<Tensor> outs = flatten_tensors(result);
        ctx.finish(outs);
        return std::any(std::move(result));
      }
    };
  }

  std::shared_ptr<F> f_;
  std::shared_ptr<internal::FunctionCore> core_;
};

/// Wraps a callable into a traced Function (tf.function).
template <typename F>
Function<std::decay_t<F>> function(F&& f, FunctionOptions options = {}) {
  return Function<std::decay_t<F>>(std::forward<F>(f), std::move(options));
}

}  // namespace tfcc
#pragma GCC visibility pop
