#include "tfcc/data/traced_iteration.h"

#include <cstring>
#include <mutex>
#include <unordered_map>

#include "tfcc/control_flow/control_flow.h"
#include "tfcc/graph/trace/trace_context.h"
#include "tfcc/platform/errors.h"

namespace tfcc::data::internal {
namespace {

constexpr const char* kEndOfSequence = "End of sequence";

// Zeros of a component spec, unknown dimensions (and an unknown rank) as 0 / a scalar.
Tensor zeros_of(const TensorSpec& spec) {
  std::vector<int64_t> dims;
  if (spec.shape.rank_known()) {
    for (int64_t d : spec.shape.dims()) dims.push_back(d < 0 ? 0 : d);
  }
  Tensor t = Tensor::empty(spec.dtype, Shape(dims));
  if (t.nbytes() > 0) std::memset(t.mutable_raw_data(), 0, t.nbytes());
  return t;
}

// The pipeline promised `spec`; a node's outputs must keep it (a generator could break it).
const Element& checked(const Element& e, const ElementSpec& spec, const char* op) {
  if (e.size() != spec.size()) {
    throw InvalidArgumentError(tfcc::internal::str_cat(op, ": the dataset produced ", e.size(),
                                                       " components, its element_spec has ",
                                                       spec.size()));
  }
  for (size_t k = 0; k < e.size(); ++k) {
    if (e[k].dtype() != spec[k].dtype || !spec[k].shape.is_compatible_with(e[k].shape())) {
      throw InvalidArgumentError(tfcc::internal::str_cat(
          op, ": component ", k, " is a ", dtype_name(e[k].dtype()), " ", e[k].shape().to_string(),
          " tensor, not compatible with ", spec[k].to_string()));
    }
  }
  return e;
}

// Adds a host node with the element's outputs (after `prefix` outputs) to the current trace.
std::vector<Tensor> add_host_node(const char* name, std::vector<DType> prefix_dtypes,
                                  std::vector<PartialShape> prefix_shapes, const ElementSpec& spec,
                                  std::span<const Tensor> inputs,
                                  std::function<std::vector<Tensor>(std::span<const Tensor>)> fn) {
  graph::TraceContext* ctx = graph::TraceContext::current();
  if (!ctx) throw InternalError(tfcc::internal::str_cat(name, " added outside a trace"));
  auto host = std::make_shared<graph::HostFn>();
  host->name = name;
  host->fn = std::move(fn);
  graph::Node n;
  n.kind = graph::NodeKind::kHostCall;
  n.host = std::move(host);
  n.dtypes = std::move(prefix_dtypes);
  n.shapes = std::move(prefix_shapes);
  for (const TensorSpec& s : spec) {
    n.dtypes.push_back(s.dtype);
    n.shapes.push_back(s.shape);
  }
  return ctx->add_node(std::move(n), inputs);
}

std::vector<Tensor> optional_outputs(std::optional<Element> e, const ElementSpec& spec) {
  std::vector<Tensor> out;
  out.push_back(Tensor::scalar<bool>(e.has_value()));
  if (e) {
    checked(*e, spec, "IteratorGetNextAsOptional");
    out.insert(out.end(), e->begin(), e->end());
  } else {
    for (const TensorSpec& s : spec) out.push_back(zeros_of(s));
  }
  return out;
}

OptionalElement split_optional(const std::vector<Tensor>& out) {
  return {out[0], Element(out.begin() + 1, out.end())};
}

// Handles of iterators made inside traced functions. A handle is an int64 scalar whose buffer
// also owns the iterator; the registry maps ids to iterators weakly, so a handle's last copy
// going away (end of the call, or an exception unwinding it) destroys the iterator.
struct Registry {
  std::mutex mu;
  std::unordered_map<int64_t, std::weak_ptr<Iterator::State>> live;
  int64_t next_id = 1;
};

Registry& registry() {
  static Registry r;
  return r;
}

struct HandleOwner {
  int64_t id = 0;
  std::shared_ptr<Iterator::State> state;
  std::shared_ptr<Buffer> buffer;
  ~HandleOwner() {
    std::lock_guard<std::mutex> lock(registry().mu);
    registry().live.erase(id);
  }
};

Tensor make_handle(std::shared_ptr<Iterator::State> state) {
  auto owner = std::make_shared<HandleOwner>();
  {
    std::lock_guard<std::mutex> lock(registry().mu);
    owner->id = registry().next_id++;
    registry().live.emplace(owner->id, state);
  }
  owner->state = std::move(state);
  owner->buffer = Tensor::scalar<int64_t>(owner->id).buffer();
  std::shared_ptr<Buffer> aliased(owner, owner->buffer.get());
  return Tensor::with_buffer(int64, Shape{}, std::move(aliased));
}

std::shared_ptr<Iterator::State> lookup(const Tensor& handle) {
  TFCC_CHECK_ARG(handle.dtype() == int64 && handle.rank() == 0,
                 "IteratorGetNextAsOptional: the iterator handle must be an int64 scalar, got a ",
                 dtype_name(handle.dtype()), " ", handle.shape().to_string(), " tensor");
  int64_t id = handle.item<int64_t>();
  std::lock_guard<std::mutex> lock(registry().mu);
  auto it = registry().live.find(id);
  std::shared_ptr<Iterator::State> state =
      it == registry().live.end() ? nullptr : it->second.lock();
  if (!state) {
    throw FailedPreconditionError(tfcc::internal::str_cat(
        "IteratorGetNextAsOptional: iterator handle ", id, " does not refer to a live iterator"));
  }
  return state;
}

}  // namespace

bool tracing() { return graph::TraceContext::current() != nullptr; }

Element traced_get_next(std::shared_ptr<Iterator::State> state, const ElementSpec& spec) {
  return add_host_node("IteratorGetNext", {}, {}, spec, {}, [state, spec](std::span<const Tensor>) {
    std::optional<Element> e = state->next();
    if (!e) throw OutOfRangeError(kEndOfSequence);
    return checked(*e, spec, "IteratorGetNext");
  });
}

OptionalElement traced_get_next_as_optional(std::shared_ptr<Iterator::State> state,
                                            const ElementSpec& spec) {
  return split_optional(add_host_node(
      "IteratorGetNextAsOptional", {bool_}, {PartialShape{}}, spec, {},
      [state, spec](std::span<const Tensor>) { return optional_outputs(state->next(), spec); }));
}

OptionalElement make_optional(std::optional<Element> element, const ElementSpec& spec) {
  return split_optional(optional_outputs(std::move(element), spec));
}

Tensor traced_make_iterator(std::shared_ptr<const DatasetNode> node) {
  return add_host_node("AnonymousIterator", {int64}, {PartialShape{}}, {}, {},
                       [node](std::span<const Tensor>) {
                         auto state = std::make_shared<Iterator::State>();
                         state->impl = node->make_iterator();
                         return std::vector<Tensor>{make_handle(std::move(state))};
                       })[0];
}

OptionalElement traced_get_next_as_optional(const Tensor& handle, const ElementSpec& spec) {
  Tensor in[] = {handle};
  return split_optional(add_host_node("IteratorGetNextAsOptional", {bool_}, {PartialShape{}}, spec,
                                      in, [spec](std::span<const Tensor> args) {
                                        return optional_outputs(lookup(args[0])->next(), spec);
                                      }));
}

std::vector<Tensor> traced_reduce(const std::function<OptionalElement()>& next,
                                  std::vector<Tensor> initial_state, const ReduceFn& fn) {
  OptionalElement first = next();
  const size_t components = first.value.size();
  const size_t state_size = initial_state.size();
  // Loop variables: has_value, the element, the state. The element keeps its spec's shapes
  // (unknown where batches differ, like a last partial batch).
  std::vector<Tensor> vars;
  vars.push_back(first.has_value);
  vars.insert(vars.end(), first.value.begin(), first.value.end());
  vars.insert(vars.end(), initial_state.begin(), initial_state.end());
  std::vector<Tensor> out = while_loop(
      [](const std::vector<Tensor>& v) { return v[0]; },
      [&](const std::vector<Tensor>& v) {
        Element element(v.begin() + 1, v.begin() + 1 + static_cast<long>(components));
        std::vector<Tensor> state(v.begin() + 1 + static_cast<long>(components), v.end());
        std::vector<Tensor> new_state = fn(state, element);
        TFCC_CHECK_ARG(new_state.size() == state_size, "Dataset reduce: the function returned ",
                       new_state.size(), " state tensors for an initial state of ", state_size);
        OptionalElement n = next();
        std::vector<Tensor> r;
        r.push_back(n.has_value);
        r.insert(r.end(), n.value.begin(), n.value.end());
        r.insert(r.end(), new_state.begin(), new_state.end());
        return r;
      },
      std::move(vars));
  return std::vector<Tensor>(out.begin() + 1 + static_cast<long>(components), out.end());
}

}  // namespace tfcc::data::internal
