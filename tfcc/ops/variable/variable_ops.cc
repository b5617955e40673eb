// Definitions of the variable ops. Kernels are here too: they only swap tensor handles under the
// variable's lock (buffers are immutable, so an assignment publishes a new tensor).
#include "tfcc/ops/variable/variable_ops.h"

#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/registry.h"

namespace tfcc {
namespace {

std::vector<OutputSpec> read_shape(const InferenceContext& c) {
  const auto& v = variable_of(c.attrs());
  return {{v->dtype, v->shape}};
}

std::vector<OutputSpec> assign_shape(const InferenceContext& c) {
  const auto& v = variable_of(c.attrs());
  if (c.dtype(0) != v->dtype || !c.shape(0).is_compatible_with(v->shape)) {
    c.fail(internal::str_cat("Cannot assign a ", dtype_name(c.dtype(0)), " ",
                             c.shape(0).to_string(), " value to variable '", v->name, "' of dtype ",
                             dtype_name(v->dtype), " and shape ", v->shape.to_string()));
  }
  return {{v->dtype, v->shape}};
}

// A new handle on a tensor's buffer. The variable's own value handle never leaves the variable,
// so "its buffer has one holder" means nobody else can see it (see update_in_place).
Tensor fresh_handle(const Tensor& t) {
  return Tensor::with_buffer(t.dtype(), t.shape(), t.buffer());
}

void read_kernel(KernelContext& ctx) {
  const auto& v = variable_of(ctx.attrs());
  std::lock_guard<std::mutex> lock(v->mu);
  // A new handle on the same buffer: each read is a distinct tensor for tapes and traces.
  ctx.set_output(0, fresh_handle(v->value));
}

void assign_kernel(KernelContext& ctx) {
  const auto& v = variable_of(ctx.attrs());
  std::lock_guard<std::mutex> lock(v->mu);
  v->value = fresh_handle(ctx.input(0));
  ctx.set_output(0, fresh_handle(v->value));
}

// assign_add / assign_sub compute with ops outside the lock, then publish; concurrent updates to
// one variable from several threads may interleave, as with TF's use_locking=False.
// value += / -= delta in the variable's own buffer, when no tensor but the variable holds it
// (every read and every earlier result has been dropped): the optimizer-step case, which then
// makes one pass over memory and allocates nothing. Caller holds the variable's lock.
template <bool kAdd>
bool update_in_place(VariableState& v, const Tensor& delta) {
  Tensor& cur = v.value;
  if (cur.buffer().use_count() != 1 || delta.dtype() != cur.dtype() ||
      delta.shape() != cur.shape() || delta.buffer() == cur.buffer()) {
    return false;
  }
  return visit_dtype(cur.dtype(), [&]<typename T>() {
    if constexpr (std::is_floating_point_v<T>) {
      T* p = cur.mutable_data<T>();
      const T* d = delta.data<T>();
      kernels::parallel_for(cur.num_elements(), [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) p[i] = kAdd ? p[i] + d[i] : p[i] - d[i];
      });
      return true;
    } else {
      return false;
    }
  });
}

template <bool kAdd>
void update_kernel(KernelContext& ctx) {
  const auto& v = variable_of(ctx.attrs());
  Tensor old;
  {
    std::lock_guard<std::mutex> lock(v->mu);
    if (update_in_place<kAdd>(*v, ctx.input(0))) {
      ctx.set_output(0, fresh_handle(v->value));
      return;
    }
    old = v->value;
  }
  Tensor updated;
  {
    ObserverPause pause;
    updated = kAdd ? add(old, ctx.input(0)) : subtract(old, ctx.input(0));
  }
  std::lock_guard<std::mutex> lock(v->mu);
  v->value = fresh_handle(updated);
  ctx.set_output(0, updated);
}

KernelFn lookup(const std::string& op, DType) {
  if (op == "ReadVariableOp") return read_kernel;
  if (op == "AssignVariableOp") return assign_kernel;
  if (op == "AssignAddVariableOp") return update_kernel<true>;
  if (op == "AssignSubVariableOp") return update_kernel<false>;
  return nullptr;
}

Tensor call(const char* name, const Variable& v, const Tensor* value) {
  const OpDef& op = op_def(name);
  Attrs attrs{{"resource", v.state_ptr()}};
  if (!value) return dispatch1(op, {}, std::move(attrs));
  Tensor in[] = {*value};
  return dispatch1(op, in, std::move(attrs));
}

}  // namespace

const std::shared_ptr<VariableState>& variable_of(const Attrs& attrs) {
  const auto& v = attrs.get<std::shared_ptr<VariableState>>("resource");
  TFCC_REQUIRE(FailedPreconditionError, v != nullptr, "Variable op on an undefined Variable");
  return v;
}

void register_variable_ops(OpRegistry& r) {
  // Reading is differentiable in the tape's sense: the tape treats a read of a watched variable
  // as a source, so the rule itself is never asked for an input gradient (it has no inputs).
  r.add("ReadVariableOp")
      .output("value", "dtype")
      .attr("resource", AttrType::kResource)
      .shape_fn(read_shape)
      .cpu_kernels(lookup)
      .gradient([](const GradContext&) { return std::vector<Tensor>{}; })
      .stateful();
  for (const char* name : {"AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp"}) {
    r.add(name)
        .input("value", "dtype")
        .output("new_value", "dtype")
        .type_attr("dtype", kAllTypes)
        .attr("resource", AttrType::kResource)
        .shape_fn(assign_shape)
        .cpu_kernels(lookup)
        .not_differentiable()
        .stateful();
  }
}

Tensor Variable::read_value() const {
  (void)state();
  return call("ReadVariableOp", *this, nullptr);
}
Tensor Variable::assign(const Tensor& value) const {
  return call("AssignVariableOp", *this, &value);
}
Tensor Variable::assign_add(const Tensor& delta) const {
  return call("AssignAddVariableOp", *this, &delta);
}
Tensor Variable::assign_sub(const Tensor& delta) const {
  return call("AssignSubVariableOp", *this, &delta);
}

}  // namespace tfcc
