// dead_code_elimination: unused pure nodes go; arguments, variable writes, random ops and prints
// stay, in order.
#include <gtest/gtest.h>

#include <sstream>

#include "tests/unit/graph/passes/pass_test_util.h"

namespace tfcc::graph {
namespace {

using testing::golden;
using testing::trace;

TEST(DeadCodeTest, RemovesUnusedPureNodes) {
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        Tensor unused = exp(a[0]);
        Tensor also_unused = unused * a[1];
        (void)also_unused;
        return std::vector<Tensor>{a[0] + a[1]};
      },
      {TensorSpec{PartialShape({3})}, TensorSpec{PartialShape({3})}, TensorSpec{PartialShape({})}});
  EXPECT_EQ(golden(g),
            "function f(%0: float32(3,), %1: float32(3,), %2: float32()) {\n"
            "  %3 = Exp(%0) : float32(3,)\n"
            "  %4 = Mul(%3, %1) : float32(3,)\n"
            "  %5 = AddV2(%0, %1) : float32(3,)\n"
            "  return %5\n"
            "}\n");
  Graph out = run_pass("dead_code_elimination", g);
  // The unused argument stays: it is the signature.
  EXPECT_EQ(golden(out),
            "function f(%0: float32(3,), %1: float32(3,), %2: float32()) {\n"
            "  %3 = AddV2(%0, %1) : float32(3,)\n"
            "  return %3\n"
            "}\n");
  Tensor x = constant({1.f, 2.f, 3.f}), y = constant({4.f, 5.f, 6.f}), z = constant(0.f);
  Tensor args[] = {x, y, z};
  EXPECT_TRUE(testing::bitwise_equal(run_graph(out, args)[0], run_graph(g, args)[0]));
}

TEST(DeadCodeTest, KeepsSideEffects) {
  Variable v(constant({0.f, 0.f}), {.name = "v"});
  std::ostringstream printed;
  Graph g = trace(
      [&](const std::vector<Tensor>& a) {
        v.assign_add(a[0]);                                 // result unused: still runs
        Tensor r = random::uniform({2}, 0, 1, float32, 7);  // advances its generator
        (void)r;
        print_to(printed, "x =", a[0]);
        Tensor dead = a[0] * 3.0f;
        (void)dead;
        return std::vector<Tensor>{a[0] * 2.0f};
      },
      {TensorSpec{PartialShape({2})}});
  Graph out = run_pass("dead_code_elimination", g);
  std::vector<std::string> kept = testing::node_types(out);
  EXPECT_EQ(kept, (std::vector<std::string>{"Arg", "AssignAddVariableOp", "RandomUniform",
                                            "PrintV2", "Const", "Mul"}))
      << golden(out);
  Tensor args[] = {constant({1.f, 2.f})};
  std::vector<Tensor> r = run_graph(out, args);
  EXPECT_EQ(r[0].to_vector<float>(), (std::vector<float>{2, 4}));
  EXPECT_EQ(v.read_value().to_vector<float>(), (std::vector<float>{1, 2}));
  EXPECT_EQ(printed.str(), "x = [1. 2.]\n");
}

TEST(DeadCodeTest, UnchangedGraphReportsNoChange) {
  Graph g = trace([](const std::vector<Tensor>& a) { return std::vector<Tensor>{a[0] + a[0]}; },
                  {TensorSpec{PartialShape({2})}});
  PassOptions opts;
  EXPECT_FALSE(passes::dead_code_elimination(g, opts));
}

}  // namespace
}  // namespace tfcc::graph
