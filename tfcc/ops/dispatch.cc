#include "tfcc/ops/dispatch.h"

#include <algorithm>

#include "tfcc/ops/config.h"

namespace tfcc {
namespace {

thread_local std::vector<ExecutionContext*> t_contexts;
thread_local std::vector<OpObserver*> t_observers;

std::string input_label(size_t i) { return internal::str_cat("input #", i, "(zero-based)"); }

// "Op does not support dtype string: " when a string reaches an input that cannot take one.
std::string string_note(const OpDef& op, DType got) {
  return got == DType::kString ? internal::str_cat(op.name(), " does not support dtype string: ")
                               : std::string();
}

// Binds type attributes from the inputs and checks every dtype constraint.
void bind_types(const OpDef& op, std::span<const Tensor> inputs, Attrs& attrs) {
  size_t i = 0;
  for (const ArgDef& arg : op.inputs()) {
    size_t count = arg.variadic ? static_cast<size_t>(attrs.get<int64_t>("N")) : 1;
    for (size_t k = 0; k < count; ++k, ++i) {
      DType got = inputs[i].dtype();
      if (arg.fixed) {
        if (got != *arg.fixed) {
          op_error(op, internal::str_cat(string_note(op, got), "cannot compute ", op.name(), " as ",
                                         input_label(i), " was expected to be a ",
                                         dtype_name(*arg.fixed), " tensor but is a ",
                                         dtype_name(got), " tensor"));
        }
        continue;
      }
      const AttrValue* bound = attrs.find(arg.type_attr);
      if (bound) {
        DType want = std::get<DType>(*bound);
        if (got != want) {
          op_error(op, internal::str_cat(string_note(op, got), "cannot compute ", op.name(), " as ",
                                         input_label(i), " was expected to be a ", dtype_name(want),
                                         " tensor but is a ", dtype_name(got), " tensor"));
        }
      } else {
        attrs.set(arg.type_attr, got);
      }
    }
  }
}

// Fills defaults, rejects unknown or mistyped attributes, checks allowed dtypes.
void complete_attrs(const OpDef& op, std::span<const Tensor> inputs, Attrs& attrs) {
  for (const auto& [name, value] : attrs.items()) {
    const AttrDef* def = op.find_attr(name);
    if (!def) op_error(op, internal::str_cat("Unknown attribute '", name, "'"));
    if (attr_type_of(value) != def->type) {
      op_error(op, internal::str_cat("Attribute '", name, "' must be a ", attr_type_name(def->type),
                                     ", got a ", attr_type_name(attr_type_of(value))));
    }
  }
  // Variadic inputs: N is the input count not taken by the fixed-arity inputs.
  size_t fixed = 0;
  bool has_variadic = false;
  for (const ArgDef& arg : op.inputs()) {
    if (arg.variadic) {
      has_variadic = true;
    } else {
      ++fixed;
    }
  }
  if (has_variadic) {
    if (inputs.size() < fixed + 1) {
      op_error(op, internal::str_cat("Expected at least one tensor in the list input, got ",
                                     inputs.size() - std::min(inputs.size(), fixed), " tensors"));
    }
    attrs.set("N", static_cast<int64_t>(inputs.size() - fixed));
  } else if (inputs.size() != fixed) {
    op_error(op, internal::str_cat("Expected ", fixed, " inputs, got ", inputs.size()));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].defined()) {
      op_error(op, internal::str_cat(input_label(i), " is an undefined Tensor"));
    }
  }
  bind_types(op, inputs, attrs);
  // A string where the op takes none is named first, before any other attribute problem.
  bool any_string = false;
  for (const Tensor& t : inputs) any_string |= t.dtype() == DType::kString;
  for (const AttrDef& def : op.attrs()) {
    if (!any_string) break;
    const AttrValue* v = attrs.find(def.name);
    if (v && def.type == AttrType::kType && !def.allowed.empty() &&
        std::get<DType>(*v) == DType::kString &&
        std::find(def.allowed.begin(), def.allowed.end(), DType::kString) == def.allowed.end()) {
      op_error(op, internal::str_cat(op.name(), " does not support dtype string"));
    }
  }
  for (const AttrDef& def : op.attrs()) {
    const AttrValue* v = attrs.find(def.name);
    if (!v) {
      if (!def.default_value) {
        op_error(op, internal::str_cat("Missing required attribute '", def.name, "'"));
      }
      attrs.set(def.name, *def.default_value);
      v = attrs.find(def.name);
    }
    if (def.type == AttrType::kType && !def.allowed.empty()) {
      DType t = std::get<DType>(*v);
      if (std::find(def.allowed.begin(), def.allowed.end(), t) == def.allowed.end()) {
        std::string allowed;
        for (DType a : def.allowed)
          allowed += (allowed.empty() ? "" : ", ") + std::string(dtype_name(a));
        op_error(op, internal::str_cat("Value for attr '", def.name, "' of ", dtype_name(t),
                                       " is not in the list of allowed values: ", allowed));
      }
    }
  }
}

}  // namespace

std::vector<Tensor> execute_eager(const OpCall& call) {
  for (const Tensor& t : call.inputs) {
    if (t.is_symbolic()) {
      std::string origin = t.symbolic_value()->origin();
      throw FailedPreconditionError(internal::str_cat(
          call.op.name(), " at ", call.location.file_name(), ":", call.location.line(),
          " received a symbolic tensor outside the function trace that made it",
          origin.empty() ? "" : " (", origin, origin.empty() ? "" : ")",
          ". A tensor from inside a tfcc::function cannot be used after the trace ended (do not "
          "keep tensors in your objects); return it from the function instead."));
    }
  }
  InferenceContext ic(call);
  std::vector<OutputSpec> specs = call.op.shape_function()(ic);
  DType kernel_dtype = float32;
  const std::string& kt = call.op.kernel_type_attribute();
  if (!kt.empty()) kernel_dtype = call.attrs.get<DType>(kt);
  KernelFn kernel = call.op.find_kernel(DeviceType::kCPU, kernel_dtype);
  if (!kernel) {
    throw UnimplementedError(internal::str_cat("No CPU kernel for ", call.op.name(), " with ", kt,
                                               "=", dtype_name(kernel_dtype)));
  }
  KernelContext kc(call, std::move(specs));
  config::threading::sync_calling_thread();
  kernel(kc);
  for (int i = 0; i < kc.num_outputs(); ++i) {
    Tensor& out = kc.outputs()[i];
    if (!out.defined()) {
      throw InternalError(internal::str_cat(call.op.name(), " kernel did not set output ", i));
    }
    // A kernel may forward an input (Cast to the same dtype); the output must still be a tensor
    // of its own, or tapes would confuse the two.
    for (const Tensor& in : call.inputs) {
      if (in.id() == out.id()) {
        out = Tensor::with_buffer(out.dtype(), out.shape(), out.buffer());
        break;
      }
    }
    // A string output's elements may be copies of a string input's handles (gather, concat):
    // it keeps their storage alive.
    if (out.dtype() == DType::kString) {
      for (const Tensor& in : call.inputs) {
        if (in.dtype() == DType::kString) out.buffer()->add_owners_of(*in.buffer());
      }
    }
  }
  return std::move(kc.outputs());
}

std::vector<Tensor> dispatch(const OpDef& op, std::span<const Tensor> inputs, Attrs attrs,
                             std::source_location loc) {
  complete_attrs(op, inputs, attrs);
  OpCall call{op, inputs, attrs, loc};
  std::vector<Tensor> outputs =
      t_contexts.empty() ? execute_eager(call) : t_contexts.back()->execute(call);
  if (!t_observers.empty()) {
    // Copy: an observer may add or remove observers while recording.
    auto observers = t_observers;
    for (OpObserver* obs : observers) obs->record(call, outputs);
  }
  return outputs;
}

Tensor dispatch1(const OpDef& op, std::span<const Tensor> inputs, Attrs attrs,
                 std::source_location loc) {
  std::vector<Tensor> out = dispatch(op, inputs, std::move(attrs), loc);
  if (out.size() != 1) {
    throw InternalError(internal::str_cat(op.name(), " returned ", out.size(), " outputs, not 1"));
  }
  return std::move(out[0]);
}

void record_custom_gradient(std::span<const Tensor> inputs, std::span<const Tensor> outputs,
                            const GradFn& grad) {
  auto observers = t_observers;
  for (OpObserver* obs : observers) obs->record_custom(inputs, outputs, grad);
}

ExecutionContext* current_execution_context() {
  return t_contexts.empty() ? nullptr : t_contexts.back();
}
void push_execution_context(ExecutionContext* ctx) { t_contexts.push_back(ctx); }
void pop_execution_context() {
  if (!t_contexts.empty()) t_contexts.pop_back();
}

void add_op_observer(OpObserver* obs) { t_observers.push_back(obs); }
void remove_op_observer(OpObserver* obs) {
  auto it = std::find(t_observers.rbegin(), t_observers.rend(), obs);
  if (it != t_observers.rend()) t_observers.erase(std::next(it).base());
}

bool has_op_observers() { return !t_observers.empty(); }

ObserverPause::ObserverPause() { saved_.swap(t_observers); }
ObserverPause::~ObserverPause() { saved_.swap(t_observers); }

}  // namespace tfcc
