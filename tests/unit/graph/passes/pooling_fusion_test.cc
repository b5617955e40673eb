// max_pool_grad_relu_fusion: ReluGrad(MaxPoolGrad(x, y, g), x) becomes one _MaxPoolGradReluGrad
// with bitwise the same result; left alone when the pool gradient is read elsewhere or the
// ReluGrad masks by another tensor. And in a traced training step of conv + relu + max pool.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "tests/unit/graph/passes/pass_test_util.h"
#include "tfcc/ops/pool/pool_fused.h"

namespace tfcc::graph {
namespace {

using testing::bitwise_equal;
using testing::golden;
using testing::trace;

int count_of(const Graph& g, const std::string& op) {
  auto t = testing::node_types(g);
  return int(std::count(t.begin(), t.end(), op));
}

const std::vector<TensorSpec> kSpecs = {TensorSpec{PartialShape({2, 6, 6, 3})},
                                        TensorSpec{PartialShape({2, 3, 3, 3})}};

TEST(MaxPoolGradReluFusionTest, ReluGradOfMaxPoolGradBecomesOneNode) {
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        Tensor x = relu(a[0]);
        Tensor y = max_pool2d(x, {2}, {2}, "VALID");
        return std::vector<Tensor>{relu_grad(max_pool_grad(x, y, a[1], {2}, {2}, "VALID"), x)};
      },
      kSpecs);
  Graph out = run_pass("max_pool_grad_relu_fusion", g);
  EXPECT_EQ(count_of(out, "_MaxPoolGradReluGrad"), 1) << golden(out);
  EXPECT_EQ(count_of(out, "MaxPoolGrad"), 0) << golden(out);
  EXPECT_EQ(count_of(out, "ReluGrad"), 0) << golden(out);
  // Mean -1: about half of the windows are all zero after the ReLU, where the mask matters.
  Tensor args[] = {random::normal({2, 6, 6, 3}, -1, 1, float32, 3),
                   random::normal({2, 3, 3, 3}, 0, 1, float32, 4)};
  EXPECT_TRUE(bitwise_equal(run_graph(out, args)[0], run_graph(g, args)[0]));
}

TEST(MaxPoolGradReluFusionTest, SharedPoolGradientOrOtherMaskIsLeftAlone) {
  Graph shared = trace(
      [](const std::vector<Tensor>& a) {
        Tensor x = relu(a[0]);
        Tensor y = max_pool2d(x, {2}, {2}, "VALID");
        Tensor m = max_pool_grad(x, y, a[1], {2}, {2}, "VALID");
        return std::vector<Tensor>{relu_grad(m, x), m};  // m is an output too
      },
      kSpecs);
  EXPECT_EQ(golden(run_pass("max_pool_grad_relu_fusion", shared)), golden(shared));
  Graph other = trace(
      [](const std::vector<Tensor>& a) {
        Tensor x = relu(a[0]);
        Tensor y = max_pool2d(x, {2}, {2}, "VALID");
        // Masked by a tensor other than the pool's input: not the pattern.
        return std::vector<Tensor>{relu_grad(max_pool_grad(x, y, a[1], {2}, {2}, "VALID"), a[0])};
      },
      kSpecs);
  EXPECT_EQ(golden(run_pass("max_pool_grad_relu_fusion", other)), golden(other));
}

TEST(MaxPoolGradReluFusionTest, TracedConvReluPoolStepUsesIt) {
  Tensor x = random::normal({4, 10, 10, 2}, 0, 1, float32, 11);
  Variable w(random::normal({3, 3, 2, 5}, -0.2, 0.5, float32, 12));
  // A weighted sum, so windows whose maximum is a ReLU zero still get a gradient to mask.
  Tensor weights = random::normal({4, 4, 4, 5}, 0, 1, float32, 13);
  auto step = [&](const Tensor& in) {
    GradientTape tape;
    Tensor h = relu(conv2d(in, w.read_value(), {1}, "VALID"));
    Tensor loss = reduce_sum(max_pool2d(h, {2}, {2}, "VALID") * weights);
    return tape.gradient(loss, std::vector<Variable>{w})[0];
  };
  auto fused = function([&](const Tensor& in) { return step(in); });
  auto unfused = function([&](const Tensor& in) { return step(in); },
                          {.passes = {.disabled = {"max_pool_grad_relu_fusion"}}});
  EXPECT_TRUE(bitwise_equal(fused(x), unfused(x)));
  const TensorSpec spec{PartialShape({4, 10, 10, 2})};
  Graph on = fused.get_concrete_function(spec).optimized_graph();
  Graph off = unfused.get_concrete_function(spec).optimized_graph();
  EXPECT_EQ(count_of(on, "_MaxPoolGradReluGrad"), 1) << golden(on);
  EXPECT_EQ(count_of(off, "_MaxPoolGradReluGrad"), 0) << golden(off);
  // And the traced step computes what the eager one does (up to the fused conv's rounding).
  std::vector<float> got = fused(x).to_vector<float>(), want = step(x).to_vector<float>();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], 1e-4f * (1 + std::abs(want[i])));
}

TEST(MaxPoolGradReluFusionTest, FusedOpEqualsTheTwoOpsOnOverlappingWindows) {
  Tensor x = random::normal({2, 7, 6, 4}, 0, 1, float32, 21);
  Tensor y = max_pool2d(x, {3}, {2}, "SAME");
  Tensor g = random::normal(y.shape().dims(), 0, 1, float32, 22);
  EXPECT_TRUE(bitwise_equal(max_pool_grad_relu_grad(x, y, g, {3}, {2}, "SAME"),
                            relu_grad(max_pool_grad(x, y, g, {3}, {2}, "SAME"), x)));
}

}  // namespace
}  // namespace tfcc::graph
