#include "tfcc/graph/exec/executor.h"

#include <bit>

#include "tfcc/graph/exec/plan.h"
#include "tfcc/graph/trace/errors.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/in_place.h"

namespace tfcc::graph {
namespace {

bool scalar_truth(const Tensor& t, const Node& n) {
  if (t.num_elements() != 1) {
    throw InvalidArgumentError(internal::str_cat(
        "The predicate of ", n.name, " must be a scalar, got shape ", t.shape().to_string()));
  }
  return t.item<bool>();
}

class Runner {
 public:
  explicit Runner(RunStats* stats) : stats_(stats) {}

  std::vector<Tensor> run(const ExecutionPlan& plan, std::span<const Tensor> args) {
    const Graph& g = plan.graph();
    if (args.size() != g.args().size()) {
      throw InvalidArgumentError(internal::str_cat(
          "Function '", g.name(), "' takes ", g.args().size(), " arguments, got ", args.size()));
    }
    std::vector<std::vector<Tensor>> values(static_cast<size_t>(g.num_nodes()));
    auto value = [&](ValueRef v) -> Tensor& {
      return values[static_cast<size_t>(v.node)][static_cast<size_t>(v.index)];
    };
    std::vector<Tensor> in;
    for (int id = 0; id < g.num_nodes(); ++id) {
      const Node& n = g.node(id);
      const uint64_t lent = plan.donated_inputs(id);
      in.clear();
      for (size_t j = 0; j < n.inputs.size(); ++j) {
        // A lent input is moved out: the kernel's argument is then its only holder.
        if (j < 64 && (lent & (uint64_t{1} << j))) {
          in.push_back(std::move(value(n.inputs[j])));
        } else {
          in.push_back(value(n.inputs[j]));
        }
      }
      auto& out = values[static_cast<size_t>(id)];
      try {
        out = run_node(plan, id, in, args);
      } catch (const Error& e) {
        rethrow_with_note(e, node_error_note(g, n));
      }
      in.clear();  // lent inputs not written over die here
      for (ValueRef v : plan.released_after(id)) value(v) = Tensor();
    }
    std::vector<Tensor> result;
    result.reserve(g.outputs().size());
    for (ValueRef v : g.outputs()) result.push_back(value(v));
    return result;
  }

 private:
  std::vector<Tensor> run_node(const ExecutionPlan& plan, int id, std::span<const Tensor> in,
                               std::span<const Tensor> args) {
    const Graph& g = plan.graph();
    const Node& n = g.node(id);
    switch (n.kind) {
      case NodeKind::kArg: {
        const Tensor& a = args[static_cast<size_t>(n.arg_index)];
        if (a.dtype() != n.dtypes[0] || !n.shapes[0].is_compatible_with(a.shape())) {
          throw InvalidArgumentError(internal::str_cat(
              "Argument ", n.arg_index, " of '", g.name(), "' must be a ", dtype_name(n.dtypes[0]),
              " ", n.shapes[0].to_string(), " tensor, got ", dtype_name(a.dtype()), " ",
              a.shape().to_string()));
        }
        return {a};
      }
      case NodeKind::kConst:
        return {n.value};
      case NodeKind::kOp: {
        OpCall call{*n.op, in, n.attrs, n.location};
        const uint64_t lent = plan.donated_inputs(id);
        if (stats_) ++stats_->kernels;
        if (lent == 0) return execute_eager(call);
        DonatedInputs offer(in, lent);
        std::vector<Tensor> out = execute_eager(call);
        if (stats_ && offer.taken() != 0) {
          stats_->in_place_outputs += std::popcount(offer.taken());
          stats_->in_place_nodes.push_back(n.name);
        }
        return out;
      }
      case NodeKind::kIf: {
        bool pred = scalar_truth(in[0], n);
        auto branch = pred ? in.subspan(1, static_cast<size_t>(n.split))
                           : in.subspan(1 + static_cast<size_t>(n.split));
        return run(*plan.subplans(id)[pred ? 0 : 1], branch);
      }
      case NodeKind::kWhile:
        return run_while(plan, id, in);
      case NodeKind::kHostCall:
        return n.host->fn(in);
    }
    throw InternalError("unknown node kind");
  }

  std::vector<Tensor> run_while(const ExecutionPlan& plan, int id, std::span<const Tensor> in) {
    const Node& n = plan.graph().node(id);
    const ExecutionPlan& cond = *plan.subplans(id)[0];
    const ExecutionPlan& body = *plan.subplans(id)[1];
    const size_t nv = static_cast<size_t>(n.split);
    const size_t nc = static_cast<size_t>(n.cond_captures);
    std::vector<Tensor> cond_args(in.begin(), in.begin() + static_cast<long>(nv + nc));
    std::vector<Tensor> body_args(in.begin(), in.begin() + static_cast<long>(nv));
    body_args.insert(body_args.end(), in.begin() + static_cast<long>(nv + nc), in.end());
    std::vector<std::vector<Tensor>> history(n.keep_history ? nv : 0);
    int64_t iterations = 0;
    while (n.maximum_iterations < 0 || iterations < n.maximum_iterations) {
      if (!scalar_truth(run(cond, cond_args)[0], n)) break;
      if (n.keep_history) {
        for (size_t k = 0; k < nv; ++k) history[k].push_back(cond_args[k]);
      }
      std::vector<Tensor> next = run(body, body_args);
      for (size_t k = 0; k < nv; ++k) {
        if (!n.shapes[k].is_compatible_with(next[k].shape())) {
          throw InvalidArgumentError(internal::str_cat(
              "Loop variable ", k, " of ", n.name, " has shape ", next[k].shape().to_string(),
              " after an iteration, which is not compatible with its shape invariant ",
              n.shapes[k].to_string(), "; relax it with the shape_invariants option"));
        }
        cond_args[k] = next[k];
        body_args[k] = next[k];
      }
      ++iterations;
    }
    std::vector<Tensor> out(cond_args.begin(), cond_args.begin() + static_cast<long>(nv));
    if (n.keep_history) {
      for (size_t k = 0; k < nv; ++k) {
        if (history[k].empty()) {
          std::vector<int64_t> dims = {0};
          for (int64_t d : in[k].shape().dims()) dims.push_back(d);
          out.push_back(zeros(dims, in[k].dtype()));
          continue;
        }
        for (const Tensor& h : history[k]) {
          if (h.shape() != history[k][0].shape()) {
            throw InvalidArgumentError(internal::str_cat(
                "The gradient of ", n.name, " needs loop variable ", k,
                " to keep one shape across iterations; it went from ",
                history[k][0].shape().to_string(), " to ", h.shape().to_string()));
          }
        }
        out.push_back(stack(history[k]));
      }
      out.push_back(Tensor::scalar<int32_t>(static_cast<int32_t>(iterations)));
    }
    return out;
  }

  RunStats* stats_;
};

}  // namespace

std::string node_error_note(const Graph& graph, const Node& node) {
  return internal::str_cat("\n\t[[node ", node.name, " (", node.type_name(), ") defined at ",
                           location_string(node), " in function '", graph.name(), "']]");
}

std::vector<Tensor> run_graph(const Graph& graph, std::span<const Tensor> args) {
  return run_plan(ExecutionPlan(graph), args);
}

std::vector<Tensor> run_plan(const ExecutionPlan& plan, std::span<const Tensor> args,
                             RunStats* stats) {
  EagerContext eager;
  ExecutionContextScope scope(&eager);
  ObserverPause pause;
  Runner runner(stats);
  return runner.run(plan, args);
}

}  // namespace tfcc::graph
