// Gradients through cond and while_loop: eager tape vs tape inside a trace vs outer tape on a
// traced function, and against central differences (float64), nested too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

using Fn = std::function<Tensor(const Tensor&)>;

Tensor eager_grad(const Fn& fn, const Tensor& x) {
  GradientTape tape;
  tape.watch(x);
  return tape.gradient(reduce_sum(fn(x)), x);
}

void expect_close(const Tensor& a, const Tensor& b, double tol, const char* what) {
  ASSERT_TRUE(a.defined()) << what;
  ASSERT_TRUE(b.defined()) << what;
  auto va = a.to_vector<double>(), vb = b.to_vector<double>();
  ASSERT_EQ(va.size(), vb.size()) << what;
  for (size_t i = 0; i < va.size(); ++i) {
    EXPECT_NEAR(va[i], vb[i], tol * std::max(1.0, std::abs(vb[i]))) << what << " element " << i;
  }
}

// Checks the gradient of sum(fn(x)) four ways.
void check_gradients(const Fn& fn, const Tensor& x) {
  Tensor eager = eager_grad(fn, x);
  // A tape inside the traced function: the backward pass is If / While nodes in the graph.
  auto inside = function([&](Tensor t) { return eager_grad(fn, t); });
  expect_close(inside(x), eager, 1e-10, "tape inside the trace");
  // A traced function called under an outer tape.
  auto traced = function([&](Tensor t) { return fn(t); });
  GradientTape tape;
  tape.watch(x);
  Tensor outer = tape.gradient(reduce_sum(traced(x)), x);
  expect_close(outer, eager, 1e-10, "outer tape");
  // Central differences (of the traced function under a tape).
  auto jac = test::compute_gradient(
      [&](const std::vector<Tensor>& in) { return reduce_sum(traced(in[0])); }, {x});
  EXPECT_LT(test::max_error(jac), 1e-6);
}

TEST(ControlFlowGradientTest, Cond) {
  Fn fn = [](const Tensor& x) {
    return cond(
        reduce_sum(x) > 0.0, [&] { return sin(x) * x; }, [&] { return exp(x); });
  };
  check_gradients(fn, constant({0.3, 0.7}, float64));
  check_gradients(fn, constant({-0.3, -0.7}, float64));
}

TEST(ControlFlowGradientTest, CondCapturingOuterValues) {
  Fn fn = [](const Tensor& x) {
    Tensor y = x * x;
    return cond(
        x(0) > 0.0, [&] { return y * 3.0; }, [&] { return y + x; });
  };
  check_gradients(fn, constant({0.5, 1.5}, float64));
  check_gradients(fn, constant({-0.5, 1.5}, float64));
}

TEST(ControlFlowGradientTest, WhileLoop) {
  Fn fn = [](const Tensor& x) {
    auto [i, v] = while_loop([](const Tensor& i, const Tensor&) { return i < 3; },
                             [&](const Tensor& i, const Tensor& v) {
                               return std::tuple{i + 1, tanh(v * x) + v};
                             },
                             std::tuple{constant(0), x});
    (void)i;
    return v;
  };
  check_gradients(fn, constant({0.2, -0.4}, float64));
}

TEST(ControlFlowGradientTest, NestedCondInWhile) {
  Fn fn = [](const Tensor& x) {
    return while_loop([](const Tensor& v) { return reduce_sum(v) < 4.0; },
                      [&](const Tensor& v) {
                        return cond(
                            v(0) > 1.0, [&] { return v * 1.5 + x; }, [&] { return v + square(x); });
                      },
                      x);
  };
  check_gradients(fn, constant({0.6, 0.3}, float64));
}

TEST(ControlFlowGradientTest, NestedWhileInWhile) {
  Fn fn = [](const Tensor& x) {
    auto [i, v] = while_loop([](const Tensor& i, const Tensor&) { return i < 2; },
                             [&](const Tensor& i, const Tensor& v) {
                               auto [j, w] =
                                   while_loop([](const Tensor& j, const Tensor&) { return j < 2; },
                                              [&](const Tensor& j, const Tensor& w) {
                                                return std::tuple{j + 1, sin(w) * x};
                                              },
                                              std::tuple{constant(0), v});
                               (void)j;
                               return std::tuple{i + 1, w + v};
                             },
                             std::tuple{constant(0), x});
    (void)i;
    return v;
  };
  check_gradients(fn, constant({0.4, 0.9}, float64));
}

TEST(ControlFlowGradientTest, ForRangeWithTensorArray) {
  Fn fn = [](const Tensor& x) {
    // Size and element shape known at trace time: the array is one fixed-shape loop tensor.
    int64_t n = x.shape().dim(0);
    TensorArray ta = for_range(
        n, [&](const Tensor& i, TensorArray t) { return t.write(i, sin(gather(x, i)) * 2.0); },
        TensorArray(float64, n));
    return ta.stack();
  };
  check_gradients(fn, constant({0.1, 0.5, 0.9}, float64));
}

// Variables read inside a branch or a loop body: the gradient reaches the variable through the
// If / While node, traced exactly as eagerly.
TEST(ControlFlowGradientTest, VariablesReadInsideBranchesAndLoops) {
  Variable w(constant({0.3, -0.6}, float64));
  auto loss_of = [&](const Tensor& x) {
    Tensor a = cond(
        reduce_sum(x) > 0.0, [&] { return x * w; }, [&] { return x + w; });
    return reduce_sum(while_loop([](const Tensor& v) { return reduce_sum(v) < 5.0; },
                                 [&](const Tensor& v) { return v + exp(w * 0.5) + 0.5; }, a));
  };
  auto grad_of = [&](const Tensor& x) {
    GradientTape tape;
    Tensor loss = loss_of(x);
    return tape.gradient(loss, std::vector<Variable>{w})[0];
  };
  auto traced = function([&](Tensor x) { return grad_of(x); });
  for (Tensor x : {constant({1.0, 2.0}, float64), constant({-1.0, -2.0}, float64)}) {
    Tensor eager = grad_of(x);
    Tensor graph = traced(x);
    ASSERT_TRUE(graph.defined());
    auto a = graph.to_vector<double>(), b = eager.to_vector<double>();
    for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-10) << i;
  }
}

// A variable read in a cond nested in a loop body: the read becomes an input of the inner If
// node, then of the While node, and the gradient reaches it through both.
TEST(ControlFlowGradientTest, VariableReadInsideCondNestedInLoop) {
  Variable w(constant({0.7, -0.2}, float64));
  auto grad_of = [&](const Tensor& x) {
    GradientTape tape;
    Tensor y = while_loop([](const Tensor& v) { return reduce_sum(v) < 6.0; },
                          [&](const Tensor& v) {
                            return cond(
                                reduce_sum(v) > 2.0, [&] { return v * w + 2.0; },
                                [&] { return v + square(w) + 0.5; });
                          },
                          x);
    return tape.gradient(reduce_sum(y), std::vector<Variable>{w})[0];
  };
  auto traced = function([&](Tensor x) { return grad_of(x); });
  Tensor x = constant({0.5, 0.25}, float64);
  auto a = traced(x).to_vector<double>(), b = grad_of(x).to_vector<double>();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-10) << i;
  EXPECT_NE(b[0], 0.0);
}

}  // namespace
}  // namespace tfcc
