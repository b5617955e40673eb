// Conformance rows of _FusedElementwise, the node the elementwise_fusion graph pass builds: a
// program mixing scalar and full operands, one per opcode family, against float64 loops, with
// sizes that cross the kernel's block and thread boundaries. Not differentiable (the pass runs
// after gradients are built).
#include <cmath>

#include "tests/ops/harness.h"
#include "tfcc/ops/fused_elementwise/fused_elementwise.h"

namespace tfcc::conformance {
namespace {

namespace fe = tfcc::fused_elementwise;

// Most opcodes once (elementwise_fusion_test checks every fusable op bit for bit against its
// eager kernel): value numbers 0..2 are the inputs x, y (full) and s (scalar).
std::vector<int64_t> all_ops_program() {
  std::vector<int64_t> p;
  int64_t next = 3;
  auto emit = [&](const char* op, int64_t a, int64_t b = -1) {
    p.insert(p.end(), {fe::opcode(op), a, b});
    return next++;
  };
  int64_t v = emit("Mul", 0, 2);    // x * s
  v = emit("AddV2", v, 1);          // + y
  v = emit("Sub", v, 2);            // - s
  int64_t pos = emit("Square", v);  // v^2 (>= 0)
  int64_t a = emit("Abs", v);
  a = emit("Maximum", a, 2);  // >= s > 0
  int64_t acc = emit("RealDiv", pos, a);
  int64_t t = emit("Tanh", v);
  t = emit("Sigmoid", t);
  acc = emit("AddV2", acc, t);
  int64_t e = emit("Exp", emit("Neg", emit("Abs", v)));  // in (0, 1]
  acc = emit("AddV2", acc, emit("Log1p", e));
  acc = emit("AddV2", acc, emit("Sqrt", a));
  acc = emit("AddV2", acc, emit("Rsqrt", a));
  acc = emit("AddV2", acc, emit("Reciprocal", a));
  acc = emit("AddV2", acc, emit("Log", a));
  acc = emit("AddV2", acc, emit("Sign", v));
  acc = emit("AddV2", acc, emit("Relu", v));
  acc = emit("AddV2", acc, emit("Expm1", e));
  acc = emit("AddV2", acc, emit("Sin", v));
  acc = emit("AddV2", acc, emit("Cos", v));
  acc = emit("AddV2", acc, emit("Tan", emit("Tanh", v)));  // |arg| < 1
  acc = emit("AddV2", acc, emit("Erf", v));
  acc = emit("AddV2", acc, emit("Floor", v));
  acc = emit("AddV2", acc, emit("Ceil", v));
  acc = emit("AddV2", acc, emit("Round", v));
  acc = emit("AddV2", acc, emit("Minimum", v, 1));
  acc = emit("AddV2", acc, emit("SquaredDifference", v, 1));
  acc = emit("AddV2", acc, emit("Relu6", emit("Mul", v, 2)));
  acc = emit("AddV2", acc, emit("Asin", t));  // t = sigmoid(tanh(v)) in (0, 1)
  acc = emit("AddV2", acc, emit("Acos", t));
  acc = emit("AddV2", acc, emit("Atan", v));
  acc = emit("AddV2", acc, emit("Sinh", t));
  acc = emit("AddV2", acc, emit("Cosh", t));
  acc = emit("AddV2", acc, emit("Lgamma", a));
  acc = emit("AddV2", acc, emit("Erfc", v));
  acc = emit("AddV2", acc, emit("Atan2", v, a));
  acc = emit("AddV2", acc, emit("Xlogy", v, a));
  emit("AddV2", acc, emit("Pow", a, 2));  // a >= s > 0
  return p;
}

double apply_ref(const std::string& op, double x, double y) {
  if (op == "Neg") return -x;
  if (op == "Abs") return std::fabs(x);
  if (op == "Sign") return (x > 0) - (x < 0);
  if (op == "Square") return x * x;
  if (op == "Relu") return x > 0 ? x : 0;
  if (op == "Exp") return std::exp(x);
  if (op == "Log") return std::log(x);
  if (op == "Log1p") return std::log1p(x);
  if (op == "Expm1") return std::expm1(x);
  if (op == "Sqrt") return std::sqrt(x);
  if (op == "Rsqrt") return 1 / std::sqrt(x);
  if (op == "Reciprocal") return 1 / x;
  if (op == "Sin") return std::sin(x);
  if (op == "Cos") return std::cos(x);
  if (op == "Tan") return std::tan(x);
  if (op == "Tanh") return std::tanh(x);
  if (op == "Sigmoid") return 1 / (1 + std::exp(-x));
  if (op == "Erf") return std::erf(x);
  if (op == "Floor") return std::floor(x);
  if (op == "Ceil") return std::ceil(x);
  if (op == "Round") return std::nearbyint(x);
  if (op == "AddV2") return x + y;
  if (op == "Sub") return x - y;
  if (op == "Mul") return x * y;
  if (op == "RealDiv") return x / y;
  if (op == "Maximum") return std::max(x, y);
  if (op == "Minimum") return std::min(x, y);
  if (op == "SquaredDifference") return (x - y) * (x - y);
  if (op == "Pow") return std::pow(x, y);
  if (op == "Relu6") return std::min(std::max(x, 0.0), 6.0);
  if (op == "Asin") return std::asin(x);
  if (op == "Acos") return std::acos(x);
  if (op == "Atan") return std::atan(x);
  if (op == "Sinh") return std::sinh(x);
  if (op == "Cosh") return std::cosh(x);
  if (op == "Lgamma") return std::lgamma(x);
  if (op == "Erfc") return std::erfc(x);
  if (op == "Atan2") return std::atan2(x, y);
  if (op == "Xlogy") return x == 0 ? 0 : x * std::log(y);
  return NAN;
}

// The program evaluated per element in float64. Inputs of one element broadcast.
Ref run_ref(const std::vector<int64_t>& p, const std::vector<Ref>& in) {
  // The output takes the shape of the input that is not a single element (if any).
  size_t n = 1;
  std::vector<int64_t> shape = in[0].shape;
  for (const Ref& r : in) {
    if (r.values.size() != 1) {
      n = r.values.size();
      shape = r.shape;
    }
  }
  Ref out{shape, std::vector<double>(n), std::nullopt};
  std::vector<double> vals(in.size() + p.size() / 3);
  for (size_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < in.size(); ++k) {
      vals[k] = in[k].values.size() == 1 ? in[k].values[0] : in[k].values[i];
    }
    for (size_t j = 0; j < p.size() / 3; ++j) {
      double x = vals[static_cast<size_t>(p[3 * j + 1])];
      double y = p[3 * j + 2] >= 0 ? vals[static_cast<size_t>(p[3 * j + 2])] : 0;
      vals[in.size() + j] = apply_ref(std::string(fe::op_name(p[3 * j])), x, y);
    }
    out.values[i] = vals.back();
  }
  return out;
}

}  // namespace

std::vector<OpRow> fused_elementwise_rows() {
  OpRow row;
  row.name = "fused_elementwise";
  row.ops = {"_FusedElementwise"};
  row.dtypes = kFloat;
  const std::vector<int64_t> program = all_ops_program();
  // Two cases cross the 8 KiB blocks and the parallel split; a 2-D one keeps its shape.
  row.cases = {
      {"small", {vec({-1.25, 0.5, 2.0, -3.5}), vec({0.25, -0.75, 1.5, 2.0}), scalar(0.5)}, {}},
      {"matrix", {filled({3, 5}, -2, 2, 1), filled({3, 5}, -2, 2, 2), shaped({1, 1}, {1.5})}, {}},
      {"large", {filled({70001}, -3, 3, 3), filled({70001}, -3, 3, 4), scalar(0.75)}, {}},
      {"scalar output", {scalar(1.5), scalar(-0.5), scalar(2)}, {}},
      {"empty", {shaped({0, 4}, {}), shaped({0, 4}, {}), scalar(1)}, {}}};
  row.fn = [program](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{fe::call(in, program)};
  };
  row.reference = [program](const std::vector<Ref>& in, DType) {
    return std::vector<Ref>{run_ref(program, in)};
  };
  row.rtol32 = 2e-5;  // ~30 float32 roundings accumulate
  row.atol32 = 2e-5;
  row.rtol64 = 1e-11;
  row.atol64 = 1e-11;
  row.grad_check = false;  // not differentiable: built after gradients
  auto f32 = [](std::vector<float> v) { return Tensor::from_vector(v); };
  row.invalid = {
      {"unknown opcode",
       [f32] {
         fe::call({f32({1.f})}, {999, 0, -1});
       },
       ErrorCode::kInvalidArgument, "unknown opcode"},
      {"operand from the future",
       [f32] {
         fe::call({f32({1.f})}, {fe::opcode("Mul"), 0, 1});
       },
       ErrorCode::kInvalidArgument, "reads value 1"},
      {"unary with a second operand",
       [f32] {
         fe::call({f32({1.f})}, {fe::opcode("Exp"), 0, 0});
       },
       ErrorCode::kInvalidArgument, "unary"},
      {"truncated program",
       [f32] {
         fe::call({f32({1.f})}, {fe::opcode("Exp"), 0});
       },
       ErrorCode::kInvalidArgument, "triples"},
      {"shapes that do not broadcast",
       [f32] {
         fe::call({f32({1.f, 2.f}), f32({1.f, 2.f, 3.f})}, {fe::opcode("Mul"), 0, 1});
       },
       ErrorCode::kInvalidArgument, ""},
      {"integer inputs",
       [] {
         fe::call({Tensor::from_vector<int32_t>({1})}, {fe::opcode("Exp"), 0, -1});
       },
       ErrorCode::kInvalidArgument, ""},
  };
  return {row};
}

}  // namespace tfcc::conformance
