// ExecutionPlan: the last-use table and the in-place decisions of small golden graphs.
#include "tfcc/graph/exec/plan.h"

#include <gtest/gtest.h>

#include "tests/unit/graph/passes/pass_test_util.h"

namespace tfcc::graph {
namespace {

using testing::golden;
using testing::trace;

TEST(ExecutionPlanTest, LastUseTableOfAChain) {
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        Tensor m = a[0] * a[1];  // read by Exp and AddV2: dies after AddV2
        Tensor e = exp(m);
        Tensor s = m + e;  // lends e (read once, last here); m is read twice
        return std::vector<Tensor>{relu(s), m};
      },
      {TensorSpec{PartialShape({4})}, TensorSpec{PartialShape({4})}});
  ASSERT_EQ(golden(g),
            "function f(%0: float32(4,), %1: float32(4,)) {\n"
            "  %2 = Mul(%0, %1) : float32(4,)\n"
            "  %3 = Exp(%2) : float32(4,)\n"
            "  %4 = AddV2(%2, %3) : float32(4,)\n"
            "  %5 = Relu(%4) : float32(4,)\n"
            "  return %5, %2\n"
            "}\n");
  ExecutionPlan plan(g);
  // m is returned: never freed nor lent; the arguments belong to the caller.
  EXPECT_EQ(plan.to_string(),
            "plan of 'f'\n"
            "  0 x (Arg): last read by Mul\n"
            "  1 x_1 (Arg): last read by Mul\n"
            "  2 Mul (Mul): last read by the caller; frees x:0, x_1:0\n"
            "  3 Exp (Exp): last read by AddV2\n"
            "  4 AddV2 (AddV2): last read by Relu; lends Exp:0\n"
            "  5 Relu (Relu): last read by the caller; lends AddV2:0\n");
  EXPECT_EQ(plan.last_use({2, 0}), ExecutionPlan::kGraphOutput);
  EXPECT_EQ(plan.last_use({3, 0}), 4);
  EXPECT_EQ(plan.donated_inputs(4), uint64_t{0b10});
  EXPECT_EQ(plan.donated_inputs(5), uint64_t{0b1});

  Tensor x = constant({1.f, -2.f, 3.f, -4.f}), y = constant({0.5f, 0.5f, 0.5f, 0.5f});
  Tensor args[] = {x, y};
  RunStats stats;
  std::vector<Tensor> out = run_plan(plan, args, &stats);
  EXPECT_EQ(stats.kernels, 4);
  EXPECT_EQ(stats.in_place_nodes, (std::vector<std::string>{"AddV2", "Relu"}));
  Tensor m = x * y;
  EXPECT_TRUE(testing::bitwise_equal(out[0], relu(m + exp(m))));
  EXPECT_TRUE(testing::bitwise_equal(out[1], m));
}

TEST(ExecutionPlanTest, UnreadOutputsAreFreedByTheirOwnNode) {
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        Tensor unused = exp(a[0]);
        (void)unused;
        return std::vector<Tensor>{a[0] + 1.0f};
      },
      {TensorSpec{PartialShape({2})}});
  ExecutionPlan plan(g);
  EXPECT_EQ(plan.last_use({1, 0}), ExecutionPlan::kUnused);
  EXPECT_EQ(plan.released_after(1), (std::vector<ValueRef>{{1, 0}}));
  // Neither the argument nor the constant is lent to AddV2: the caller and the graph own them.
  EXPECT_EQ(plan.donated_inputs(3), uint64_t{0});
}

TEST(ExecutionPlanTest, ValuesReadByControlFlowAreNeverLent) {
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        Tensor m = a[0] * 2.0f;
        // The branch may return m itself; overwriting m later would change the If's result.
        Tensor c = cond(
            a[1], [&] { return m; }, [&] { return m + 1.0f; });
        return std::vector<Tensor>{relu(m) + c};
      },
      {TensorSpec{PartialShape({3})}, TensorSpec{PartialShape({}), bool_}});
  ExecutionPlan plan(g);
  int relu_id = -1, if_id = -1;
  for (int id = 0; id < g.num_nodes(); ++id) {
    if (g.node(id).type_name() == "Relu") relu_id = id;
    if (g.node(id).kind == NodeKind::kIf) if_id = id;
  }
  ASSERT_GE(relu_id, 0);
  ASSERT_GE(if_id, 0);
  EXPECT_EQ(plan.donated_inputs(relu_id), uint64_t{0}) << plan.to_string();
  EXPECT_EQ(plan.subplans(if_id).size(), 2u);
  Tensor x = constant({1.f, -2.f, 3.f});
  for (bool p : {true, false}) {
    Tensor args[] = {x, Tensor::scalar(p)};
    std::vector<Tensor> out = run_plan(plan, args);
    Tensor m = x * 2.0f;
    EXPECT_TRUE(testing::bitwise_equal(out[0], relu(m) + (p ? m : m + 1.0f)));
  }
}

TEST(ExecutionPlanTest, PlansAreCachedPerGraph) {
  auto g = std::make_shared<const Graph>(
      trace([](const std::vector<Tensor>& a) { return std::vector<Tensor>{relu(a[0] * 2.0f)}; },
            {TensorSpec{PartialShape({2})}}));
  auto p1 = ExecutionPlan::get(g);
  auto p2 = ExecutionPlan::get(g);
  EXPECT_EQ(p1.get(), p2.get());
  EXPECT_EQ(&p1->graph(), g.get());
  auto other = std::make_shared<const Graph>(*g);
  EXPECT_NE(ExecutionPlan::get(other).get(), p1.get());
}

}  // namespace
}  // namespace tfcc::graph
