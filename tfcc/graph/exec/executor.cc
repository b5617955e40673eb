#include "tfcc/graph/exec/executor.h"

#include "tfcc/graph/trace/errors.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/creation/creation.h"

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
  std::vector<Tensor> run(const Graph& g, std::span<const Tensor> args) {
    if (args.size() != g.args().size()) {
      throw InvalidArgumentError(internal::str_cat(
          "Function '", g.name(), "' takes ", g.args().size(), " arguments, got ", args.size()));
    }
    std::vector<std::vector<Tensor>> values(static_cast<size_t>(g.num_nodes()));
    std::vector<Tensor> in;
    for (int id = 0; id < g.num_nodes(); ++id) {
      const Node& n = g.node(id);
      in.clear();
      for (ValueRef v : n.inputs) {
        in.push_back(values[static_cast<size_t>(v.node)][static_cast<size_t>(v.index)]);
      }
      auto& out = values[static_cast<size_t>(id)];
      try {
        out = run_node(g, n, in, args);
      } catch (const Error& e) {
        rethrow_with_note(e, node_error_note(g, n));
      }
    }
    std::vector<Tensor> result;
    result.reserve(g.outputs().size());
    for (ValueRef v : g.outputs()) {
      result.push_back(values[static_cast<size_t>(v.node)][static_cast<size_t>(v.index)]);
    }
    return result;
  }

 private:
  std::vector<Tensor> run_node(const Graph& g, const Node& n, std::span<const Tensor> in,
                               std::span<const Tensor> args) {
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
        return execute_eager(call);
      }
      case NodeKind::kIf: {
        bool pred = scalar_truth(in[0], n);
        auto branch = pred ? in.subspan(1, static_cast<size_t>(n.split))
                           : in.subspan(1 + static_cast<size_t>(n.split));
        return run(*n.subgraphs[pred ? 0 : 1], branch);
      }
      case NodeKind::kWhile:
        return run_while(n, in);
      case NodeKind::kHostCall:
        return n.host->fn(in);
    }
    throw InternalError("unknown node kind");
  }

  std::vector<Tensor> run_while(const Node& n, std::span<const Tensor> in) {
    const size_t nv = static_cast<size_t>(n.split);
    const size_t nc = static_cast<size_t>(n.cond_captures);
    std::vector<Tensor> cond_args(in.begin(), in.begin() + static_cast<long>(nv + nc));
    std::vector<Tensor> body_args(in.begin(), in.begin() + static_cast<long>(nv));
    body_args.insert(body_args.end(), in.begin() + static_cast<long>(nv + nc), in.end());
    std::vector<std::vector<Tensor>> history(n.keep_history ? nv : 0);
    int64_t iterations = 0;
    while (n.maximum_iterations < 0 || iterations < n.maximum_iterations) {
      if (!scalar_truth(run(*n.subgraphs[0], cond_args)[0], n)) break;
      if (n.keep_history) {
        for (size_t k = 0; k < nv; ++k) history[k].push_back(cond_args[k]);
      }
      std::vector<Tensor> next = run(*n.subgraphs[1], body_args);
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
};

}  // namespace

std::string node_error_note(const Graph& graph, const Node& node) {
  return internal::str_cat("\n\t[[node ", node.name, " (", node.type_name(), ") defined at ",
                           location_string(node), " in function '", graph.name(), "']]");
}

std::vector<Tensor> run_graph(const Graph& graph, std::span<const Tensor> args) {
  EagerContext eager;
  ExecutionContextScope scope(&eager);
  ObserverPause pause;
  Runner runner;
  return runner.run(graph, args);
}

}  // namespace tfcc::graph
