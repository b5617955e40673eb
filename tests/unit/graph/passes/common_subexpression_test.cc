// common_subexpression_elimination: identical pure nodes and constants merge; random ops and
// variable reads do not.
#include <gtest/gtest.h>

#include "tests/unit/graph/passes/pass_test_util.h"

namespace tfcc::graph {
namespace {

using testing::golden;
using testing::trace;

TEST(CommonSubexpressionTest, MergesIdenticalNodesAndConstants) {
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        Tensor e1 = exp(a[0]) * 2.0f;
        Tensor e2 = exp(a[0]) * 2.0f;  // same op, same inputs, an equal constant
        Tensor s = reduce_sum(a[0], {0}) + reduce_sum(a[0], {0}, /*keepdims=*/true);
        return std::vector<Tensor>{e1 + e2, s};
      },
      {TensorSpec{PartialShape({3})}});
  Graph out = run_pass("common_subexpression_elimination", g);
  out = run_pass("dead_code_elimination", out);
  // keepdims differs: the two sums stay apart.
  EXPECT_EQ(testing::node_types(out), (std::vector<std::string>{"Arg", "Exp", "Const", "Mul", "Sum",
                                                                "Sum", "AddV2", "AddV2"}))
      << golden(g) << golden(out);
  Tensor args[] = {constant({0.5f, -1.f, 2.f})};
  std::vector<Tensor> a = run_graph(g, args), b = run_graph(out, args);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(testing::bitwise_equal(a[i], b[i]));
}

TEST(CommonSubexpressionTest, LeavesStatefulOpsAlone) {
  Variable v(constant({1.f, 2.f}), {.name = "v"});
  Graph g = trace(
      [&](const std::vector<Tensor>& a) {
        Tensor r1 = random::uniform({2}, 0, 1, float32, 3);
        Tensor r2 = random::uniform({2}, 0, 1, float32, 3);
        Tensor before = v.read_value();
        v.assign_add(a[0]);
        Tensor after = v.read_value();  // not the same value as `before`
        return std::vector<Tensor>{r1 - r2, after - before};
      },
      {TensorSpec{PartialShape({2})}});
  Graph out = run_pass("common_subexpression_elimination", g);
  EXPECT_EQ(golden(out), golden(g));
  Tensor args[] = {constant({10.f, 10.f})};
  EXPECT_EQ(run_graph(out, args)[1].to_vector<float>(), (std::vector<float>{10, 10}));
}

}  // namespace
}  // namespace tfcc::graph
