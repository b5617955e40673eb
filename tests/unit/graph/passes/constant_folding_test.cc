// constant_folding: pure ops on constants and static shape queries become constants; large
// results, stateful ops and ops that fail stay.
#include <gtest/gtest.h>

#include "tests/unit/graph/passes/pass_test_util.h"

namespace tfcc::graph {
namespace {

using testing::golden;
using testing::trace;

TEST(ConstantFoldingTest, FoldsConstantSubtreesAndStaticShapes) {
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        Tensor c = constant({1.f, 2.f, 3.f}) * 2.0f + 1.0f;  // constants only
        Tensor s = cast(shape(a[0]), float32);               // static shape (2, 3)
        return std::vector<Tensor>{a[0] * c, s};
      },
      {TensorSpec{PartialShape({2, 3})}});
  Graph out = run_pass("constant_folding", g);
  out = run_pass("dead_code_elimination", out);
  EXPECT_EQ(golden(out),
            "function f(%0: float32(2, 3)) {\n"
            "  %1 = Const[[3. 5. 7.]]() : float32(3,)\n"
            "  %2 = Const[[2. 3.]]() : float32(2,)\n"
            "  %3 = Mul(%0, %1) : float32(2, 3)\n"
            "  return %3, %2\n"
            "}\n")
      << golden(g);
  Tensor args[] = {constant({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}})};
  std::vector<Tensor> a = run_graph(g, args), b = run_graph(out, args);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(testing::bitwise_equal(a[i], b[i]));
}

TEST(ConstantFoldingTest, RespectsTheSizeLimit) {
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        Tensor big = ones({1000}) * 3.0f;  // 4000 bytes
        return std::vector<Tensor>{a[0] + big};
      },
      {TensorSpec{PartialShape({1000})}});
  PassOptions small;
  small.max_constant_bytes = 1024;
  Graph kept = run_pass("constant_folding", g, small);
  EXPECT_EQ(golden(kept), golden(g));
  Graph folded = run_pass("constant_folding", g);  // default limit: 1 MiB
  EXPECT_NE(golden(folded), golden(g));
}

TEST(ConstantFoldingTest, LeavesStatefulAndFailingOpsForRunTime) {
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        Tensor r = random::uniform({2}, 0, 1, float32, 5);
        Tensor bad = floordiv(constant({1, 2}), constant({0, 1}));  // raises when run
        return std::vector<Tensor>{r + a[0], bad};
      },
      {TensorSpec{PartialShape({2})}});
  Graph out = run_pass("constant_folding", g);
  EXPECT_EQ(golden(out), golden(g));
  Tensor args[] = {constant({0.f, 0.f})};
  EXPECT_THROW(run_graph(out, args), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::graph
