// contraction_fusion and batch_norm_folding: MatMul / Conv2D + BiasAdd (+ activation) become
// one fused node; an inference batch norm after a Conv2D folds into its filter and bias.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "tests/unit/graph/passes/pass_test_util.h"

namespace tfcc::graph {
namespace {

using testing::golden;
using testing::trace;

void expect_close(const Tensor& a, const Tensor& b, float tol) {
  ASSERT_EQ(a.shape(), b.shape());
  std::vector<float> x = a.to_vector<float>(), y = b.to_vector<float>();
  for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(x[i], y[i], tol * (1 + std::abs(y[i]))) << i;
}

Tensor seq(std::vector<int64_t> shape, float scale) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); ++i) v[i] = scale * static_cast<float>((i * 7 % 11)) - 0.3f;
  return Tensor::from_vector(v, Shape(shape));
}

TEST(ContractionFusionTest, MatMulBiasReluBecomesFusedMatMul) {
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        return std::vector<Tensor>{relu(nn::bias_add(matmul(a[0], a[1]), a[2]))};
      },
      {TensorSpec{PartialShape({4, 3})}, TensorSpec{PartialShape({3, 5})},
       TensorSpec{PartialShape({5})}});
  Graph out = run_pass("contraction_fusion", g);
  EXPECT_EQ(golden(out),
            "function f(%0: float32(4, 3), %1: float32(3, 5), %2: float32(5,)) {\n"
            "  %3 = _FusedMatMul(%0, %1, %2) {transpose_a=false, transpose_b=false, "
            "activation=\"Relu\", leakyrelu_alpha=0.2} : float32(4, 5)\n"
            "  return %3\n"
            "}\n")
      << golden(g);
  Tensor args[] = {seq({4, 3}, 0.1f), seq({3, 5}, 0.2f), seq({5}, 0.05f)};
  expect_close(run_graph(out, args)[0], run_graph(g, args)[0], 1e-6f);
}

TEST(ContractionFusionTest, SharedProductIsNotFused) {
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        Tensor p = matmul(a[0], a[1]);
        return std::vector<Tensor>{nn::bias_add(p, a[2]), p};  // p is an output too
      },
      {TensorSpec{PartialShape({2, 2})}, TensorSpec{PartialShape({2, 2})},
       TensorSpec{PartialShape({2})}});
  EXPECT_EQ(golden(run_pass("contraction_fusion", g)), golden(g));
}

TEST(BatchNormFoldingTest, InferenceBatchNormFoldsIntoConv) {
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        Tensor y = conv2d(a[0], a[1], {1}, "SAME");
        auto bn = nn::fused_batch_norm(y, a[2], a[3], a[4], a[5], {.is_training = false});
        return std::vector<Tensor>{relu(bn.y)};
      },
      {TensorSpec{PartialShape({1, 5, 5, 2})}, TensorSpec{PartialShape({3, 3, 2, 4})},
       TensorSpec{PartialShape({4})}, TensorSpec{PartialShape({4})}, TensorSpec{PartialShape({4})},
       TensorSpec{PartialShape({4})}});
  Graph out = optimize(g);
  std::vector<std::string> types = testing::node_types(out);
  EXPECT_EQ(std::count(types.begin(), types.end(), "FusedBatchNormV3"), 0) << golden(out);
  EXPECT_EQ(std::count(types.begin(), types.end(), "_FusedConv2D"), 1) << golden(out);
  Tensor var = seq({4}, 0.1f) + 1.0f;
  Tensor args[] = {seq({1, 5, 5, 2}, 0.1f), seq({3, 3, 2, 4}, 0.05f), seq({4}, 0.2f) + 0.5f,
                   seq({4}, 0.1f),          seq({4}, 0.3f),           var};
  expect_close(run_graph(out, args)[0], run_graph(g, args)[0], 1e-5f);
}

}  // namespace
}  // namespace tfcc::graph
