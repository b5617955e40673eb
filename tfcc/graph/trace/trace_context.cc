#include "tfcc/graph/trace/trace_context.h"

#include "tfcc/graph/trace/errors.h"
#include "tfcc/ops/variable/variable_ops.h"

namespace tfcc::graph {

std::string GraphValue::origin() const {
  return internal::str_cat("created at ", location_string(loc_), " in the trace of function '",
                           owner_->name, "'", owner_->active ? "" : ", which has ended");
}

void GraphValue::conversion_error(const std::source_location& loc) const {
  throw FailedPreconditionError(internal::str_cat(
      "Using a symbolic tf.Tensor as a C++ bool or number is not allowed: at ", loc.file_name(),
      ":", loc.line(), " a tensor ", origin(),
      " was converted with item() / to_vector(), but inside a traced function its value exists "
      "only when the function runs. Use tfcc::cond(pred, then_fn, else_fn) or "
      "tfcc::while_loop(cond_fn, body_fn, loop_vars) for control flow on tensor values, or "
      "tfcc::config::run_functions_eagerly(true) to debug the function eagerly"));
}

TraceContext::TraceContext(std::string name, TraceContext* parent, TraceRules rules)
    : name_(std::move(name)), parent_(parent), rules_(rules) {
  state_ = std::make_shared<TraceState>();
  state_->name = name_;
  if (parent_) {
    state_->parent = parent_->state_;
    rules_ = parent_->rules_;
  }
  graph_ = std::make_shared<Graph>(name_);
}

TraceContext::~TraceContext() { state_->active = false; }

TraceContext* TraceContext::current() {
  return dynamic_cast<TraceContext*>(current_execution_context());
}

Tensor TraceContext::symbolic_output(int node, int index, const std::source_location& loc) {
  const Node& n = graph_->node(node);
  auto value = std::make_shared<GraphValue>(state_, ValueRef{node, index},
                                            n.shapes[static_cast<size_t>(index)], loc);
  return Tensor::symbolic(n.dtypes[static_cast<size_t>(index)], std::move(value));
}

Tensor TraceContext::add_arg(DType dtype, const PartialShape& shape, std::string name,
                             std::source_location loc) {
  int id = graph_->add_arg(dtype, shape, std::move(name), loc);
  ++num_explicit_args_;
  return symbolic_output(id, 0, loc);
}

bool TraceContext::owns_or_encloses(const Tensor& t) const {
  if (!t.defined() || !t.is_symbolic()) return false;
  auto* gv = dynamic_cast<const GraphValue*>(t.symbolic_value().get());
  if (!gv || !gv->owner()->active) return false;
  for (const TraceState* s = state_.get(); s; s = s->parent.get()) {
    if (s == gv->owner().get()) return true;
  }
  return false;
}

ValueRef TraceContext::value_of(const Tensor& t, const std::source_location& loc) {
  if (!t.defined()) {
    throw InvalidArgumentError(internal::str_cat("An undefined Tensor was used at ",
                                                 location_string(loc), " in the trace of '", name_,
                                                 "'"));
  }
  for (const auto& [id, ref] : mapped_) {
    if (id == t.id()) return ref;
  }
  if (!t.is_symbolic()) {
    Node n;
    n.kind = NodeKind::kConst;
    n.value = t;
    n.dtypes = {t.dtype()};
    n.shapes = {PartialShape(t.shape())};
    n.location = loc;
    ValueRef ref{graph_->add_node(std::move(n)), 0};
    mapped_.emplace_back(t.id(), ref);
    return ref;
  }
  auto* gv = dynamic_cast<const GraphValue*>(t.symbolic_value().get());
  if (!gv) throw InternalError("A symbolic tensor of an unknown kind reached a trace");
  if (gv->owner() == state_) return gv->ref();
  if (!gv->owner()->active) {
    throw FailedPreconditionError(internal::str_cat(
        "A symbolic tensor ", gv->origin(), " was used at ", location_string(loc),
        " in the trace of '", name_,
        "'. Tensors made inside a tfcc::function exist only during its trace: do not keep them "
        "in your objects; return them from the function (or compute them again) instead"));
  }
  bool enclosing = false;
  for (const TraceState* s = state_->parent.get(); s; s = s->parent.get()) {
    if (s == gv->owner().get()) enclosing = true;
  }
  if (!enclosing) {
    throw InvalidArgumentError(internal::str_cat(
        "A symbolic tensor ", gv->origin(), " was used at ", location_string(loc),
        " in the trace of '", name_, "', which does not enclose it; pass it as an argument"));
  }
  int id = graph_->add_arg(t.dtype(), t.partial_shape(), "capture", loc);
  ValueRef ref{id, 0};
  captures_.push_back(t);
  mapped_.emplace_back(t.id(), ref);
  return ref;
}

void TraceContext::check_variable(const OpCall& call) {
  const AttrValue* r = call.attrs.find("resource");
  if (!r || rules_.first_new_variable_id == 0 || rules_.allow_variable_creation) return;
  const auto* state = std::get_if<std::shared_ptr<VariableState>>(r);
  if (!state || !*state || (*state)->id < rules_.first_new_variable_id) return;
  throw FailedPreconditionError(internal::str_cat(
      "Variable '", (*state)->name, "' was created while retracing function '", name_,
      "' (used at ", location_string(call.location),
      "). A tfcc::function may create variables on its first trace only, because a later trace "
      "would make new variables on every retrace. Create the variable once, outside the "
      "function (or on the first call only, e.g. `if (!v.defined()) v = ...`), and reuse it"));
}

std::vector<Tensor> TraceContext::execute(const OpCall& call) {
  check_variable(call);
  Node n;
  n.kind = NodeKind::kOp;
  n.op = &call.op;
  n.location = call.location;
  for (const Tensor& t : call.inputs) n.inputs.push_back(value_of(t, call.location));
  std::vector<OutputSpec> specs;
  try {
    InferenceContext ic(call);
    specs = call.op.shape_function()(ic);
  } catch (const Error& e) {
    rethrow_with_note(e, internal::str_cat("\n\twhile tracing '", name_, "', at ",
                                           location_string(call.location)));
  }
  n.attrs = call.attrs;
  for (const OutputSpec& s : specs) {
    n.dtypes.push_back(s.dtype);
    n.shapes.push_back(s.shape);
  }
  int id = graph_->add_node(std::move(n));
  std::vector<Tensor> out;
  for (int k = 0; k < static_cast<int>(specs.size()); ++k) {
    out.push_back(symbolic_output(id, k, call.location));
  }
  return out;
}

std::vector<Tensor> TraceContext::add_node(Node node, std::span<const Tensor> inputs) {
  node.inputs.clear();
  for (const Tensor& t : inputs) node.inputs.push_back(value_of(t, node.location));
  std::source_location loc = node.location;
  int outputs = node.num_outputs();
  int id = graph_->add_node(std::move(node));
  std::vector<Tensor> out;
  for (int k = 0; k < outputs; ++k) out.push_back(symbolic_output(id, k, loc));
  return out;
}

void TraceContext::finish(std::span<const Tensor> outputs, std::source_location loc) {
  std::vector<ValueRef> refs;
  for (const Tensor& t : outputs) refs.push_back(value_of(t, loc));
  graph_->set_outputs(std::move(refs));
  state_->active = false;
}

class InitScope::Eager : public ExecutionContext {
 public:
  std::vector<Tensor> execute(const OpCall& call) override { return execute_eager(call); }
};

InitScope::InitScope() : eager_(std::make_unique<Eager>()) { push_execution_context(eager_.get()); }
InitScope::~InitScope() { pop_execution_context(); }

}  // namespace tfcc::graph
