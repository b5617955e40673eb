// Control flow on tensor values that works the same eagerly and traced: cond, while_loop and
// for_range take C++ lambdas (C++ has no AutoGraph).
//
//   auto y = tfcc::cond(x > 0.0f, [&] { return x * 2.0f; }, [&] { return -x; });
//
//   auto [i, acc] = tfcc::while_loop(
//       [](const Tensor& i, const Tensor&) { return i < 10; },
//       [](const Tensor& i, const Tensor& acc) { return std::tuple{i + 1, acc * 2.0f}; },
//       std::tuple{tfcc::constant(0), tfcc::constant(1.0f)});
//
//   auto out = tfcc::for_range(n, [&](const Tensor& i, TensorArray ta) {
//     return ta.write(i, x(i) * 2.0f);
//   }, TensorArray(tfcc::float32, n));
//
// Eagerly, cond evaluates the predicate and calls one branch; while_loop and for_range are C++
// loops: GradientTapes record the ops that ran. Inside a traced tfcc::function they become If /
// While nodes whose subgraphs are traced from the lambdas: both branches of a cond are traced
// (their results must have the same structure and dtypes), the loop body is traced once (its
// results must keep the loop variables' dtypes and shapes unless shape_invariants relaxes them).
// Gradients flow through both, nested or not (see tfcc/graph/trace/control_nodes.h).
//
// Loop variables and branch results are structures: a Tensor, a TensorArray, or std::vector /
// std::tuple / std::pair / std::array of those. Tuple-like loop variables (std::tuple, std::pair,
// std::array) are passed to cond and body unpacked (one parameter each); any other structure as
// one parameter.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <optional>
#include <source_location>
#include <tuple>
#include <type_traits>
#include <vector>

#include "tfcc/control_flow/tensor_array.h"
#include "tfcc/graph/trace/control_nodes.h"
#include "tfcc/graph/trace/nest.h"
#include "tfcc/graph/trace/trace_context.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"

namespace tfcc {

/// Options of while_loop.
struct WhileOptions {
  /// Stop after this many iterations even if the condition still holds (-1: no limit).
  int64_t maximum_iterations = -1;
  /// One shape per loop tensor (flattened order) that it keeps across iterations; -1 dims and
  /// PartialShape::unknown_rank() let it vary. Empty: each tensor keeps its entry shape.
  std::vector<PartialShape> shape_invariants;
};

namespace internal {

/// Evaluates a predicate tensor eagerly.
bool eager_truth(const Tensor& pred, const char* what, std::source_location loc);

/// Structures passed unpacked to loop lambdas: std::tuple, std::pair, std::array.
template <typename T>
concept TupleLike = requires {
  std::tuple_size<T>::value;
};

/// Calls `fn` with the loop variables: unpacked for a tuple, as one argument otherwise.
template <typename Fn, typename Vars>
decltype(auto) call_with(Fn& fn, const Vars& vars) {
  if constexpr (TupleLike<Vars>) {
    return std::apply(fn, vars);
  } else {
    return fn(vars);
  }
}

}  // namespace internal

/// tf.cond: true_fn() if pred else false_fn(). `pred` is a bool scalar tensor; the branches take
/// no arguments (capture what they use) and return the same structure type.
template <typename TrueFn, typename FalseFn>
auto cond(const Tensor& pred, TrueFn&& true_fn, FalseFn&& false_fn,
          std::source_location loc = std::source_location::current()) {
  using R = std::invoke_result_t<TrueFn&>;
  static_assert(std::is_same_v<R, std::invoke_result_t<FalseFn&>>,
                "tfcc::cond: true_fn and false_fn must return the same type");
  TFCC_CHECK_ARG(pred.defined(), "tfcc::cond: the predicate is an undefined Tensor");
  if (!graph::TraceContext::current()) {
    return internal::eager_truth(pred, "tfcc::cond", loc) ? true_fn() : false_fn();
  }
  std::optional<R> skeleton;
  auto branch = [&](auto& fn, bool keep) {
    return [&fn, &skeleton, keep](std::span<const Tensor>) {
      R r = fn();
      std::vector<Tensor> flat = flatten_tensors(r);
      if (keep) skeleton.emplace(std::move(r));
      return flat;
    };
  };
  graph::Subgraph t = graph::trace_subgraph("cond_true", {}, {}, branch(true_fn, true));
  graph::Subgraph e = graph::trace_subgraph("cond_false", {}, {}, branch(false_fn, false));
  std::vector<Tensor> out = graph::add_if(pred, t, e, loc);
  return pack_like(*skeleton, out);
}

/// tf.while_loop: while cond(vars) is true, vars = body(vars); returns the final vars.
template <typename CondFn, typename BodyFn, typename Vars>
Vars while_loop(CondFn&& cond_fn, BodyFn&& body_fn, Vars loop_vars, WhileOptions options = {},
                std::source_location loc = std::source_location::current()) {
  if (!graph::TraceContext::current()) {
    for (int64_t it = 0; options.maximum_iterations < 0 || it < options.maximum_iterations; ++it) {
      Tensor c = internal::call_with(cond_fn, loop_vars);
      if (!internal::eager_truth(c, "the cond of tfcc::while_loop", loc)) break;
      loop_vars = Vars(internal::call_with(body_fn, loop_vars));
    }
    return loop_vars;
  }
  std::vector<Tensor> init = flatten_tensors(loop_vars);
  std::vector<PartialShape> inv = options.shape_invariants;
  if (inv.empty()) {
    Nest<Vars>::invariants(loop_vars, inv);
  } else {
    TFCC_CHECK_ARG(inv.size() == init.size(), "tfcc::while_loop: ", inv.size(),
                   " shape_invariants for ", init.size(), " loop tensors");
    for (size_t k = 0; k < inv.size(); ++k) {
      TFCC_CHECK_ARG(inv[k].is_compatible_with(init[k].partial_shape()),
                     "tfcc::while_loop: loop tensor ", k, " has shape ",
                     init[k].partial_shape().to_string(), ", not compatible with its invariant ",
                     inv[k].to_string());
    }
  }
  auto trace_loop = [&](const std::vector<Tensor>& entry, const std::vector<PartialShape>& shapes) {
    std::vector<DType> dtypes;
    for (const Tensor& t : entry) dtypes.push_back(t.dtype());
    graph::Subgraph c =
        graph::trace_subgraph("while_cond", dtypes, shapes, [&](std::span<const Tensor> args) {
          Vars vars = pack_like(loop_vars, args);
          Tensor p = internal::call_with(cond_fn, vars);
          return std::vector<Tensor>{p};
        });
    graph::Subgraph b =
        graph::trace_subgraph("while_body", dtypes, shapes, [&](std::span<const Tensor> args) {
          Vars vars = pack_like(loop_vars, args);
          Vars next = Vars(internal::call_with(body_fn, vars));
          std::vector<Tensor> flat = flatten_tensors(next);
          TFCC_CHECK_ARG(flat.size() == args.size(), "The body of tfcc::while_loop at ",
                         graph::location_string(loc), " returns ", flat.size(), " tensors for ",
                         args.size(), " loop tensors; it must keep the structure");
          return flat;
        });
    return std::pair{c, b};
  };
  auto [c, b] = trace_loop(init, inv);
  if (options.shape_invariants.empty()) {
    // Tracing the body can refine default invariants (a TensorArray learns its element rank
    // from its first write): trace again with them.
    std::vector<PartialShape> refined;
    Nest<Vars>::invariants(loop_vars, refined);
    if (refined != inv) {
      inv = refined;
      init = flatten_tensors(loop_vars);
      std::tie(c, b) = trace_loop(init, inv);
    }
  }
  std::vector<Tensor> out = graph::add_while(init, inv, c, b, options.maximum_iterations, loc);
  out.resize(init.size());
  return pack_like(loop_vars, out);
}

/// for i in range(start, limit, delta): vars = body(i, vars...); returns the final vars. `i` is
/// an int32 scalar tensor; limits may be C++ integers or int32 scalar tensors.
template <typename BodyFn, typename Vars>
Vars for_range(const Tensor& start, const Tensor& limit, const Tensor& delta, BodyFn&& body_fn,
               Vars loop_vars, std::source_location loc = std::source_location::current()) {
  auto state = std::tuple<Tensor, Vars>{cast(start, int32), std::move(loop_vars)};
  Tensor lim = cast(limit, int32), step = cast(delta, int32);
  auto result = while_loop(
      [&](const Tensor& i, const Vars&) {
        return where(greater(step, 0), less(i, lim), greater(i, lim));
      },
      [&](const Tensor& i, const Vars& vars) {
        Vars next;
        if constexpr (internal::TupleLike<Vars>) {
          next = Vars(std::apply([&](const auto&... v) { return body_fn(i, v...); }, vars));
        } else {
          next = Vars(body_fn(i, vars));
        }
        return std::tuple<Tensor, Vars>{add(i, step), std::move(next)};
      },
      std::move(state), WhileOptions{}, loc);
  return std::get<1>(std::move(result));
}

/// for_range(0, limit, 1, ...).
template <typename BodyFn, typename Vars>
Vars for_range(const Tensor& limit, BodyFn&& body_fn, Vars loop_vars,
               std::source_location loc = std::source_location::current()) {
  return for_range(constant(0), limit, constant(1), std::forward<BodyFn>(body_fn),
                   std::move(loop_vars), loc);
}

/// for_range with C++ integer bounds.
template <typename BodyFn, typename Vars>
Vars for_range(int64_t limit, BodyFn&& body_fn, Vars loop_vars,
               std::source_location loc = std::source_location::current()) {
  return for_range(constant(0), constant(static_cast<int32_t>(limit)), constant(1),
                   std::forward<BodyFn>(body_fn), std::move(loop_vars), loc);
}

}  // namespace tfcc
#pragma GCC visibility pop
