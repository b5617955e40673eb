// Import rows for math ops: elementwise, reductions, matrix products, Einsum, Cast.
#include <algorithm>
#include <set>

#include "tfcc/io/saved_model/tf_import/op_table.h"
#include "tfcc/io/saved_model/tf_import/proto_io.h"
#include "tfcc/ops/linalg/einsum.h"
#include "tfcc/platform/errors.h"

namespace tfcc::saved_model::tf_import {

using ::tfcc::internal::str_cat;

namespace {

std::vector<Tensor> tensors(const NodeContext& c) {
  std::vector<Tensor> out;
  for (int i = 0; i < c.num_inputs(); ++i) out.push_back(c.in(i));
  return out;
}

// A row whose TensorFlow op maps to one tfcc op with the same inputs.
OpRow same(const std::string& tf, const std::string& out, const std::string& tfcc_op = "") {
  const std::string op = tfcc_op.empty() ? tf : tfcc_op;
  return {tf, {out}, {}, op, [op](NodeContext& c) {
            return std::vector<Value>{Value::of(c.run1(op.c_str(), tensors(c)))};
          }};
}

// Axes of a reduction as non-negative, sorted, unique values.
std::vector<int64_t> normalized_axes(const NodeContext& c, std::vector<int64_t> axes,
                                     int64_t rank) {
  std::set<int64_t> s;
  for (int64_t a : axes) {
    if (a < -rank || a >= rank) {
      throw InvalidArgumentError(str_cat("axis ", a, " is out of range for rank ", rank));
    }
    s.insert(a < 0 ? a + rank : a);
  }
  (void)c;
  return {s.begin(), s.end()};
}

OpRow reduction(const std::string& tf) {
  return {tf,
          {"output"},
          {{"keep_dims", attr_b(false)}, {"Tidx", attr_type(tensorflow::DT_INT32)}},
          tf == "Mean" ? "Sum(x, axes) * (1 / count)" : tf,
          [tf](NodeContext& c) {
            const Tensor& x = c.in(0);
            const PartialShape ps = x.partial_shape();
            if (!ps.rank_known()) c.unsupported("a reduction over a tensor of unknown rank");
            const int64_t rank = static_cast<int64_t>(ps.dims().size());
            std::vector<int64_t> axes = normalized_axes(c, c.ints(1), rank);
            if (axes.empty()) return std::vector<Value>{Value::of(x)};
            Attrs a{{"axis", axes}, {"keepdims", c.b("keep_dims")}};
            if (tf != "Mean") return std::vector<Value>{Value::of(c.run1(tf.c_str(), {x}, a))};
            int64_t count = 1;
            for (int64_t ax : axes) {
              if (ps.dims()[static_cast<size_t>(ax)] < 0) {
                c.unsupported("Mean over a dimension of unknown size");
              }
              count *= ps.dims()[static_cast<size_t>(ax)];
            }
            Tensor sum = c.run1("Sum", {x}, a);
            if (x.dtype() != float32 && x.dtype() != float64) {
              Tensor n = c.run1("Cast", {Tensor::scalar<int64_t>(std::max<int64_t>(count, 1))},
                                {{"DstT", x.dtype()}});
              return std::vector<Value>{Value::of(c.run1("FloorDiv", {sum, n}))};
            }
            Tensor inv = c.run1("Cast", {Tensor::scalar<double>(1.0 / static_cast<double>(count))},
                                {{"DstT", x.dtype()}});
            return std::vector<Value>{Value::of(c.run1("Mul", {sum, inv}))};
          }};
}

OpRow batch_matmul(const std::string& tf) {
  return {tf,
          {"output"},
          {{"adj_x", attr_b(false)}, {"adj_y", attr_b(false)}},
          "BatchMatMulV2",
          [](NodeContext& c) {
            return std::vector<Value>{
                Value::of(c.run1("BatchMatMulV2", {c.in(0), c.in(1)},
                                 {{"adj_x", c.b("adj_x")}, {"adj_y", c.b("adj_y")}}))};
          }};
}

// Einsum through tfcc::einsum (any number of operands, "...", diagonals), which lowers to
// Transpose / Reshape / Sum / Mul / BatchMatMulV2 in the trace.
std::vector<Value> einsum(NodeContext& c) {
  std::vector<Tensor> in;
  for (int i = 0; i < c.num_inputs(); ++i) in.push_back(c.in(i));
  return {Value::of(::tfcc::einsum(c.s("equation"), in))};
}

}  // namespace

void add_math_ops(std::vector<OpRow>& rows) {
  for (const char* op :
       {"Abs",    "Neg",     "Exp",        "Log", "Log1p",    "Expm1", "Sqrt",      "Rsqrt",
        "Square", "Sigmoid", "Tanh",       "Sin", "Cos",      "Tan",   "Floor",     "Ceil",
        "Round",  "Sign",    "Reciprocal", "Erf", "IsFinite", "IsNan", "LogicalNot"}) {
    rows.push_back(same(op, "y"));
  }
  rows.push_back(same("Inv", "y", "Reciprocal"));
  for (const char* op :
       {"Asin", "Acos", "Atan", "Sinh", "Cosh", "Lgamma", "Digamma", "Erfc", "Invert"}) {
    rows.push_back(same(op, "y"));
  }
  for (const char* op : {"Atan2", "Xlogy", "TruncateDiv", "TruncateMod", "Polygamma", "BitwiseAnd",
                         "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift"}) {
    rows.push_back(same(op, "z"));
  }
  for (const char* op : {"AddV2", "Sub", "Mul", "RealDiv", "FloorDiv", "FloorMod", "Maximum",
                         "Minimum", "Pow", "SquaredDifference", "Less", "LessEqual", "Greater",
                         "GreaterEqual", "LogicalAnd", "LogicalOr"}) {
    rows.push_back(same(op, "z"));
  }
  rows.push_back(same("Add", "z", "AddV2"));
  for (const char* op : {"Equal", "NotEqual"}) {
    OpRow r = same(op, "z");
    r.defaults = {{"incompatible_shape_error", attr_b(true)}};
    rows.push_back(r);
  }
  rows.push_back({"Div", {"z"}, {}, "RealDiv (floats), FloorDiv (integers)", [](NodeContext& c) {
                    const bool fl = c.in(0).dtype() == float32 || c.in(0).dtype() == float64;
                    return std::vector<Value>{
                        Value::of(c.run1(fl ? "RealDiv" : "FloorDiv", {c.in(0), c.in(1)}))};
                  }});
  rows.push_back(
      {"DivNoNan", {"z"}, {}, "SelectV2(y == 0, 0, x / y)", [](NodeContext& c) {
         Tensor zero = c.run1("ZerosLike", {c.in(1)});
         Tensor safe = c.run1("SelectV2", {c.run1("Equal", {c.in(1), zero}),
                                           c.run1("OnesLike", {c.in(1)}), c.in(1)});
         Tensor q = c.run1("RealDiv", {c.in(0), safe});
         return std::vector<Value>{Value::of(
             c.run1("SelectV2", {c.run1("Equal", {c.in(1), zero}), c.run1("ZerosLike", {q}), q}))};
       }});
  rows.push_back(same("AddN", "sum"));
  rows.push_back(
      {"MatMul",
       {"product"},
       {{"transpose_a", attr_b(false)},
        {"transpose_b", attr_b(false)},
        {"grad_a", attr_b(false)},
        {"grad_b", attr_b(false)}},
       "MatMul",
       [](NodeContext& c) {
         return std::vector<Value>{Value::of(
             c.run1("MatMul", {c.in(0), c.in(1)},
                    {{"transpose_a", c.b("transpose_a")}, {"transpose_b", c.b("transpose_b")}}))};
       }});
  for (const char* op : {"BatchMatMul", "BatchMatMulV2", "BatchMatMulV3"}) {
    rows.push_back(batch_matmul(op));
  }
  for (const char* op : {"Sum", "Max", "Min", "Prod", "Mean", "All", "Any"}) {
    rows.push_back(reduction(op));
  }
  for (const char* op : {"ArgMax", "ArgMin"}) {
    rows.push_back({op,
                    {"output"},
                    {{"output_type", attr_type(tensorflow::DT_INT64)}},
                    op,
                    [op = std::string(op)](NodeContext& c) {
                      return std::vector<Value>{Value::of(c.run1(
                          op.c_str(), {c.in(0)},
                          {{"axis", c.int_scalar(1)}, {"output_type", c.type("output_type")}}))};
                    }});
  }
  rows.push_back({"Cumsum",
                  {"out"},
                  {{"exclusive", attr_b(false)}, {"reverse", attr_b(false)}},
                  "Cumsum",
                  [](NodeContext& c) {
                    return std::vector<Value>{Value::of(c.run1("Cumsum", {c.in(0)},
                                                               {{"axis", c.int_scalar(1)},
                                                                {"exclusive", c.b("exclusive")},
                                                                {"reverse", c.b("reverse")}}))};
                  }});
  rows.push_back({"Cast", {"y"}, {{"Truncate", attr_b(false)}}, "Cast", [](NodeContext& c) {
                    return std::vector<Value>{
                        Value::of(c.run1("Cast", {c.in(0)}, {{"DstT", c.type("DstT")}}))};
                  }});
  rows.push_back({"Einsum",
                  {"output"},
                  {},
                  "einsum: Transpose / Reshape / Sum / Mul / BatchMatMulV2",
                  einsum});
}

}  // namespace tfcc::saved_model::tf_import
