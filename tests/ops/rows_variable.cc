// Conformance rows of the variable ops: reads and assignments through tfcc::Variable.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/ops/harness.h"

namespace tfcc::conformance {
namespace {

OpRow assign_row(std::string name, std::string op, Tensor (Variable::*method)(const Tensor&) const,
                 std::function<double(double, double)> ref) {
  OpRow row;
  row.name = name;
  row.ops = {op};
  row.dtypes = {float32, float64, int32, int64};
  row.cases = {{"vector", {vec({1, 2, 3}), vec({4, -5, 6})}, {}},
               {"scalar", {scalar(2), scalar(3)}, {}},
               {"empty", {shaped({0, 2}, {}), shaped({0, 2}, {})}, {}}};
  row.fn = [method](const std::vector<Tensor>& in) {
    Variable v(in[0]);
    Tensor returned = (v.*method)(in[1]);
    return std::vector<Tensor>{returned, v.read_value()};
  };
  row.reference = [ref](const std::vector<Ref>& in, DType) {
    Ref out{in[0].shape, {}, {}};
    for (size_t i = 0; i < in[0].values.size(); ++i) {
      out.values.push_back(ref(in[0].values[i], in[1].values[i]));
    }
    return std::vector<Ref>{out, out};
  };
  row.grad_check = false;  // assignments are not differentiable (marked so in the registry)
  row.invalid = {
      {"dtype mismatch", [method] { (Variable(constant({1.f})).*method)(constant({1})); },
       ErrorCode::kInvalidArgument, "Cannot assign"},
      {"shape mismatch",
       [method] {
         (Variable(constant({1.f, 2.f})).*method)(constant({1.f}));
       },
       ErrorCode::kInvalidArgument, "shape (2,)"},
      {"undefined variable", [method] { (Variable().*method)(constant({1.f})); },
       ErrorCode::kFailedPrecondition, "undefined"}};
  return row;
}

}  // namespace

std::vector<OpRow> variable_rows() {
  std::vector<OpRow> rows;
  rows.push_back(assign_row("variable_assign", "AssignVariableOp", &Variable::assign,
                            [](double, double b) { return b; }));
  rows.push_back(assign_row("variable_assign_add", "AssignAddVariableOp", &Variable::assign_add,
                            [](double a, double b) { return a + b; }));
  rows.push_back(assign_row("variable_assign_sub", "AssignSubVariableOp", &Variable::assign_sub,
                            [](double a, double b) { return a - b; }));
  {
    OpRow row;
    row.name = "variable_read";
    row.ops = {"ReadVariableOp"};
    row.dtypes = kAllTypes;
    // Values, and the gradient through reads: d/dv sum(sin(v) * v) by the tape against central
    // differences on the variable's value.
    row.property_checks_gradient = true;
    row.property_check = [](DType dtype) {
      Tensor init = to_tensor(vec({0, 1, 2.5}), dtype);
      Variable v(init);
      Tensor r = v.read_value();
      EXPECT_EQ(r.dtype(), dtype);
      EXPECT_EQ(r.to_vector<double>(), init.to_vector<double>());
      EXPECT_NE(r.id(), v.read_value().id()) << "each read is a tensor of its own";
      if (dtype != float64) return;
      Variable w(to_tensor(vec({0.3, -1.1, 2.0}), float64));
      GradientTape tape;
      Tensor y = reduce_sum(sin(w) * w);
      std::vector<double> g = tape.gradient(y, std::vector<Variable>{w})[0].to_vector<double>();
      std::vector<double> x = w.read_value().to_vector<double>();
      for (size_t i = 0; i < x.size(); ++i) {
        auto f = [&](double d) {
          std::vector<double> p = x;
          p[i] += d;
          double s = 0;
          for (double e : p) s += std::sin(e) * e;
          return s;
        };
        double numeric = (f(1e-6) - f(-1e-6)) / 2e-6;
        EXPECT_NEAR(g[i], numeric, 1e-6);
      }
    };
    row.invalid = {{"undefined variable", [] { Variable().read_value(); },
                    ErrorCode::kFailedPrecondition, "undefined"}};
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace tfcc::conformance
