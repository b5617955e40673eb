// GradientOptions::on_gradient_ready: gradients reported as soon as they are final.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

bool same_bits(const Tensor& a, const Tensor& b) {
  return a.defined() == b.defined() &&
         (!a.defined() || (a.shape() == b.shape() && a.dtype() == b.dtype() &&
                           std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0));
}

struct TwoLayers {
  Variable w1{random::stateless_normal({4, 5}, {1, 1}), {.name = "w1"}};
  Variable b1{random::stateless_normal({5}, {1, 2}), {.name = "b1"}};
  Variable w2{random::stateless_normal({5, 3}, {1, 3}), {.name = "w2"}};
  Variable unused{zeros({2}), {.name = "unused"}};
  Tensor loss(const Tensor& x) {
    Tensor h = relu(matmul(x, w1) + b1);
    return reduce_sum(square(matmul(h, w2)));
  }
};

TEST(GradientReady, LastLayerFirstAndSameGradients) {
  TwoLayers m;
  Tensor x = random::stateless_normal({6, 4}, {2, 2});
  std::vector<Variable> vars = {m.w1, m.b1, m.w2, m.unused};
  std::vector<Tensor> expected;
  {
    GradientTape tape;
    expected = tape.gradient(m.loss(x), vars);
  }
  std::vector<size_t> order;
  std::vector<Tensor> seen(vars.size());
  GradientOptions options;
  options.on_gradient_ready = [&](size_t i, const Tensor& g) {
    order.push_back(i);
    seen[i] = g;
  };
  GradientTape tape;
  auto got = tape.gradient(m.loss(x), vars, options);
  // Once each, the second layer's weight before the first layer's; the unconnected one at once.
  ASSERT_EQ(order.size(), 4u);
  auto pos = [&](size_t i) { return std::find(order.begin(), order.end(), i) - order.begin(); };
  EXPECT_LT(pos(2), pos(0));
  EXPECT_LT(pos(2), pos(1));
  EXPECT_EQ(pos(3), 0);
  for (size_t i = 0; i < vars.size(); ++i) {
    EXPECT_TRUE(same_bits(got[i], expected[i])) << i;
    EXPECT_TRUE(same_bits(seen[i], got[i])) << i;
  }
  EXPECT_FALSE(got[3].defined());
}

TEST(GradientReady, AVariableReadTwiceIsReportedWhenBothReadsAreDifferentiated) {
  Variable w(Tensor::from_vector<float>({2.0f}), {.name = "w"});
  Variable v(Tensor::from_vector<float>({3.0f}), {.name = "v"});
  std::vector<std::pair<size_t, float>> reports;
  GradientOptions options;
  options.on_gradient_ready = [&](size_t i, const Tensor& g) {
    reports.emplace_back(i, g.to_vector<float>()[0]);
  };
  GradientTape tape;
  Tensor a = w * v;  // read 1 of w
  Tensor y = a * w;  // read 2 of w: y = w^2 v, dy/dw = 2wv = 12, dy/dv = w^2 = 4
  auto g = tape.gradient(reduce_sum(y), std::vector<Variable>{w, v}, options);
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_EQ(reports[0], (std::pair<size_t, float>{0, 12.0f}));  // final after read 1's gradient
  EXPECT_EQ(reports[1], (std::pair<size_t, float>{1, 4.0f}));
  EXPECT_FLOAT_EQ(g[0].to_vector<float>()[0], 12.0f);
}

TEST(GradientReady, InATraceEachGradientIsEmittedBeforeTheEarlierLayersBackprop) {
  TwoLayers m;
  std::vector<int> nodes_when_ready(3, -1);
  auto f = tfcc::function([&](Tensor x) {
    GradientOptions options;
    options.on_gradient_ready = [&](size_t i, const Tensor&) {
      nodes_when_ready[i] = graph::TraceContext::current()->graph().num_nodes();
    };
    GradientTape tape;
    auto g = tape.gradient(m.loss(x), std::vector<Variable>{m.w1, m.b1, m.w2}, options);
    return g[0];
  });
  f(random::stateless_normal({6, 4}, {2, 2}));
  // w2's gradient is reported while the nodes of w1's gradient are still to be emitted.
  EXPECT_GT(nodes_when_ready[2], 0);
  EXPECT_LT(nodes_when_ready[2], nodes_when_ready[0]);
}

}  // namespace
}  // namespace tfcc
