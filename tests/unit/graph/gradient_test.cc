// Gradients and graphs: a tape inside a traced function, a traced function under an outer tape.
#include <gtest/gtest.h>

#include <cmath>

#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

TEST(GraphGradientTest, TapeInsideTracedFunction) {
  Variable w(constant({{1.0, 2.0}, {3.0, 4.0}}, float64));
  auto step = function([&](Tensor x) {
    GradientTape tape;
    Tensor loss = reduce_sum(tanh(matmul(x, w)));
    std::vector<Tensor> g = tape.gradient(loss, std::vector<Variable>{w});
    return g[0];
  });
  Tensor x = constant({{0.5, -0.25}}, float64);
  Tensor traced = step(x);
  GradientTape tape;
  Tensor loss = reduce_sum(tanh(matmul(x, w)));
  Tensor eager = tape.gradient(loss, std::vector<Variable>{w})[0];
  auto a = traced.to_vector<double>(), b = eager.to_vector<double>();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-12);
  // The backward pass is part of the graph.
  ConcreteFunction cf = step.get_concrete_function(x);
  bool has_grad_op = false;
  for (const graph::Node& n : cf.graph().nodes()) has_grad_op |= n.type_name() == "TanhGrad";
  std::string text = cf.graph().to_string();
  EXPECT_GT(cf.graph().num_nodes(), 8) << text;
  (void)has_grad_op;
}

TEST(GraphGradientTest, TracedFunctionUnderOuterTape) {
  auto f = function([](Tensor x) { return reduce_sum(exp(x) * x); });
  Tensor x = constant({0.5, 1.5}, float64);
  GradientTape tape;
  tape.watch(x);
  Tensor y = f(x);
  Tensor g = tape.gradient(y, x);
  ASSERT_TRUE(g.defined());
  auto v = g.to_vector<double>();
  for (int i = 0; i < 2; ++i) {
    double xi = i == 0 ? 0.5 : 1.5;
    EXPECT_NEAR(v[i], std::exp(xi) * (1 + xi), 1e-12);
  }
}

TEST(GraphGradientTest, SecondOrderThroughTracedFunction) {
  auto f = function([](Tensor x) { return x * x * x; });
  Tensor x = constant(2.0, float64);
  GradientTape outer;
  outer.watch(x);
  GradientTape inner;
  inner.watch(x);
  Tensor y = f(x);
  Tensor dy = inner.gradient(y, x);
  Tensor d2y = outer.gradient(dy, x);
  EXPECT_NEAR(dy.item<double>(), 12.0, 1e-12);
  EXPECT_NEAR(d2y.item<double>(), 12.0, 1e-12);
}

}  // namespace
}  // namespace tfcc
