// Definition of _FusedElementwise: signature, shape function, program checks, API.
#include "tfcc/ops/fused_elementwise/fused_elementwise.h"

#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/fused_elementwise/fused_elementwise_internal.h"
#include "tfcc/ops/in_place.h"
#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/registry.h"

namespace tfcc {
namespace fused_elementwise {

const std::vector<std::string>& fusable_ops() { return op_table().names; }

int64_t opcode(std::string_view op) {
  const auto& names = fusable_ops();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == op) return static_cast<int64_t>(i);
  }
  return -1;
}

std::string_view op_name(int64_t code) {
  if (code < 0 || code >= static_cast<int64_t>(fusable_ops().size())) return {};
  return fusable_ops()[static_cast<size_t>(code)];
}

int arity(int64_t code) {
  if (code < 0 || code >= static_cast<int64_t>(fusable_ops().size())) return 0;
  return code >= op_table().first_binary ? 2 : 1;
}

std::string check_program(std::span<const int64_t> p, int64_t num_inputs) {
  if (p.empty() || p.size() % 3 != 0) {
    return internal::str_cat("a program is a non-empty list of {opcode, a, b} triples, got ",
                             p.size(), " integers");
  }
  for (size_t i = 0; i < p.size() / 3; ++i) {
    const int64_t code = p[3 * i], a = p[3 * i + 1], b = p[3 * i + 2];
    const int64_t limit = num_inputs + static_cast<int64_t>(i);
    const int n = arity(code);
    if (n == 0) return internal::str_cat("instruction ", i, " has unknown opcode ", code);
    if (a < 0 || a >= limit) {
      return internal::str_cat("instruction ", i, " reads value ", a, ", only values 0..",
                               limit - 1, " exist there");
    }
    if (n == 2 && (b < 0 || b >= limit)) {
      return internal::str_cat("instruction ", i, " reads value ", b, ", only values 0..",
                               limit - 1, " exist there");
    }
    if (n == 1 && b != -1) {
      return internal::str_cat("instruction ", i, " (", op_name(code),
                               ") is unary; its second operand must be -1, got ", b);
    }
  }
  return {};
}

std::string describe(std::span<const int64_t> p, int num_inputs) {
  std::string out;
  auto value = [&](int64_t v) {
    return v < num_inputs ? internal::str_cat("x", v) : internal::str_cat("v", v);
  };
  for (size_t i = 0; i + 2 < p.size(); i += 3) {
    if (!out.empty()) out.append("; ");
    out.append(value(num_inputs + static_cast<int64_t>(i / 3)))
        .append(" = ")
        .append(op_name(p[i]))
        .append("(")
        .append(value(p[i + 1]));
    if (arity(p[i]) == 2) out.append(", ").append(value(p[i + 2]));
    out.append(")");
  }
  return out;
}

namespace {

std::vector<OutputSpec> fused_shape(const InferenceContext& c) {
  const auto& program = c.attr<std::vector<int64_t>>("program");
  std::string problem = check_program(program, c.num_inputs());
  if (!problem.empty()) c.fail("Invalid _FusedElementwise program: " + problem);
  if (c.num_inputs() == 0) c.fail("_FusedElementwise needs at least one input");
  PartialShape out = c.shape(0);
  for (int i = 1; i < c.num_inputs(); ++i) out = kernels::broadcast_shapes(c, out, c.shape(i));
  return {{c.dtype(0), out}};
}

KernelFn lookup(const std::string&, DType dtype) { return cpu_kernel(dtype); }

}  // namespace

Tensor call(const std::vector<Tensor>& inputs, const std::vector<int64_t>& program,
            std::source_location loc) {
  static const OpDef& op = op_def("_FusedElementwise");
  return dispatch1(op, inputs, {{"program", program}}, loc);
}

}  // namespace fused_elementwise

void register_fused_elementwise_ops(OpRegistry& r) {
  // Built by the elementwise_fusion pass after gradients exist, so it needs no gradient.
  r.add("_FusedElementwise")
      .variadic_input("inputs", "T")
      .output("y", "T")
      .type_attr("T", kFloatTypes)
      .attr("program", AttrType::kInts)
      .attr("expression", AttrType::kString, std::string())  // the program, readable
      .shape_fn(fused_elementwise::fused_shape)
      .cpu_kernels(fused_elementwise::lookup)
      .not_differentiable();
  declare_in_place_any_input(*r.find("_FusedElementwise"), 0);
}

}  // namespace tfcc
