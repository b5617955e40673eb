#include "tfcc/graph/compat/v1.h"

#include <unordered_map>

#include "tfcc/graph/exec/executor.h"

namespace tfcc::compat::v1 {
namespace {

struct ThreadState {
  std::unique_ptr<Graph> default_graph;
  bool eager_disabled = false;
};

ThreadState& thread_state() {
  thread_local ThreadState s;
  return s;
}

}  // namespace

Graph::Graph() : ctx_(std::make_unique<graph::TraceContext>("graph")) {}
Graph::~Graph() = default;

const graph::Graph& Graph::graph() const { return *ctx_->shared_graph(); }

Graph& get_default_graph() {
  ThreadState& s = thread_state();
  if (!s.default_graph) s.default_graph = std::make_unique<Graph>();
  return *s.default_graph;
}

void disable_eager_execution() {
  ThreadState& s = thread_state();
  if (s.eager_disabled) return;
  push_execution_context(&get_default_graph().context());
  s.eager_disabled = true;
}

void enable_eager_execution() {
  ThreadState& s = thread_state();
  if (!s.eager_disabled) return;
  TFCC_REQUIRE(FailedPreconditionError,
               current_execution_context() == &get_default_graph().context(),
               "enable_eager_execution: another graph or trace is active on this thread");
  pop_execution_context();
  s.eager_disabled = false;
}

bool executing_eagerly() { return current_execution_context() == nullptr; }

void reset_default_graph() {
  ThreadState& s = thread_state();
  bool disabled = s.eager_disabled;
  if (disabled) enable_eager_execution();
  s.default_graph = std::make_unique<Graph>();
  if (disabled) disable_eager_execution();
}

Tensor placeholder(DType dtype, const PartialShape& shape, const std::string& name,
                   std::source_location loc) {
  graph::TraceContext* ctx = graph::TraceContext::current();
  if (!ctx) {
    throw FailedPreconditionError(
        "tf.placeholder() is not compatible with eager execution; call "
        "tfcc::compat::v1::disable_eager_execution() or build inside Graph::as_default()");
  }
  return ctx->add_arg(dtype, shape, name, loc);
}

Session::Session() : graph_(&get_default_graph()) {}

Tensor Session::run(const Tensor& fetch, const FeedDict& feeds) const {
  return run(std::vector<Tensor>{fetch}, feeds)[0];
}

std::vector<Tensor> Session::run(const std::vector<Tensor>& fetches, const FeedDict& feeds) const {
  graph::TraceContext& ctx = graph_->context();
  const graph::Graph& g = *ctx.shared_graph();
  auto ref_of = [&](const Tensor& t, const char* what) {
    TFCC_CHECK_ARG(t.defined(), "Session.run: a ", what, " is an undefined Tensor");
    const auto* gv = dynamic_cast<const graph::GraphValue*>(t.symbolic_value().get());
    if (!gv || gv->owner() != ctx.state()) {
      throw InvalidArgumentError(
          internal::str_cat("Session.run: a ", what, " is not an element of this graph",
                            t.is_symbolic() ? "" : " (it is an eager tensor)"));
    }
    return gv->ref();
  };
  // Feeds replace values: by node output.
  std::unordered_map<int64_t, Tensor> fed;
  auto key = [](graph::ValueRef r) { return (static_cast<int64_t>(r.node) << 20) | r.index; };
  for (const auto& [k, v] : feeds) {
    graph::ValueRef r = ref_of(k, "feed key");
    TFCC_CHECK_ARG(v.defined() && !v.is_symbolic(), "Session.run: the value fed for ",
                   g.node(r.node).name, " must be a concrete tensor");
    if (v.dtype() != g.dtype(r) || !g.shape(r).is_compatible_with(v.shape())) {
      throw InvalidArgumentError(internal::str_cat(
          "Cannot feed value of shape ", v.shape().to_string(), " and dtype ",
          dtype_name(v.dtype()), " for Tensor '", g.node(r.node).name, ":", r.index,
          "', which has shape ", g.shape(r).to_string(), " and dtype ", dtype_name(g.dtype(r))));
    }
    fed[key(r)] = v;
  }
  std::vector<graph::ValueRef> outs;
  for (const Tensor& f : fetches) outs.push_back(ref_of(f, "fetch"));
  // Nodes the fetches need, stopping at fed values.
  std::vector<bool> needed(static_cast<size_t>(g.num_nodes()), false);
  std::vector<int> stack;
  for (graph::ValueRef r : outs) {
    if (!fed.count(key(r))) stack.push_back(r.node);
  }
  while (!stack.empty()) {
    int id = stack.back();
    stack.pop_back();
    if (needed[static_cast<size_t>(id)]) continue;
    needed[static_cast<size_t>(id)] = true;
    for (graph::ValueRef in : g.node(id).inputs) {
      if (!fed.count(key(in))) stack.push_back(in.node);
    }
  }
  // A pruned copy: fed values and needed nodes, renumbered.
  graph::Graph run_graph_copy(g.name());
  std::unordered_map<int64_t, graph::ValueRef> remap;
  auto map_ref = [&](graph::ValueRef r) -> graph::ValueRef {
    auto it = remap.find(key(r));
    if (it != remap.end()) return it->second;
    auto f = fed.find(key(r));
    if (f == fed.end()) throw InternalError("Session.run: value used before it is computed");
    graph::Node c;
    c.kind = graph::NodeKind::kConst;
    c.name = "feed";
    c.value = f->second;
    c.dtypes = {f->second.dtype()};
    c.shapes = {PartialShape(f->second.shape())};
    graph::ValueRef nr{run_graph_copy.add_node(std::move(c)), 0};
    remap[key(r)] = nr;
    return nr;
  };
  for (int id = 0; id < g.num_nodes(); ++id) {
    if (!needed[static_cast<size_t>(id)]) continue;
    const graph::Node& n = g.node(id);
    if (n.kind == graph::NodeKind::kArg) {
      throw InvalidArgumentError(internal::str_cat(
          "You must feed a value for placeholder tensor '", n.name, "' with dtype ",
          dtype_name(n.dtypes[0]), " and shape ", n.shapes[0].to_string(), " (created at ",
          graph::location_string(n.location), ")"));
    }
    graph::Node copy = n;
    for (graph::ValueRef& in : copy.inputs) in = map_ref(in);
    int nid = run_graph_copy.add_node(std::move(copy));
    for (int k = 0; k < n.num_outputs(); ++k) remap[key({id, k})] = {nid, k};
  }
  std::vector<graph::ValueRef> mapped;
  for (graph::ValueRef r : outs) mapped.push_back(map_ref(r));
  run_graph_copy.set_outputs(mapped);
  return graph::run_graph(run_graph_copy, {});
}

}  // namespace tfcc::compat::v1
