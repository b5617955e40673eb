// The pass manager: order, switches (options, FunctionOptions, TFCC_DISABLE_PASSES), graph
// dumps, subgraphs, and that a traced training step gives the same numbers with passes on.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "tests/unit/graph/passes/pass_test_util.h"
#include "tfcc/ops/fused_elementwise/fused_elementwise.h"
#include "tfcc/platform/file.h"

namespace tfcc::graph {
namespace {

using testing::golden;
using testing::trace;

Graph sample() {
  return trace(
      [](const std::vector<Tensor>& a) {
        Tensor k = constant({2.f}) * 3.0f;  // folds
        return std::vector<Tensor>{exp(a[0] * k) + 1.0f};
      },
      {TensorSpec{PartialShape({4})}});
}

bool has_node(const Graph& g, const std::string& type) {
  for (const Node& n : g.nodes()) {
    if (n.type_name() == type) return true;
  }
  return false;
}

TEST(PassManagerTest, DeclaredOrder) {
  EXPECT_EQ(pass_names(),
            (std::vector<std::string>{
                "batch_norm_folding", "constant_folding", "arithmetic_simplification",
                "common_subexpression_elimination", "contraction_fusion",
                "max_pool_grad_relu_fusion", "elementwise_fusion", "dead_code_elimination"}));
}

TEST(PassManagerTest, OptimizesAndSwitchesPassesOffByName) {
  Graph g = sample();
  Graph all = optimize(g);
  EXPECT_EQ(golden(all),
            "function f(%0: float32(4,)) {\n"
            "  %1 = Const[[6.]]() : float32(1,)\n"
            "  %2 = Const[1.0]() : float32()\n"
            "  %3 = _FusedElementwise(%0, %1, %2) {program=[" +
                internal::str_cat(fused_elementwise::opcode("Mul"), ", 0, 1, ",
                                  fused_elementwise::opcode("Exp"), ", 3, -1, ",
                                  fused_elementwise::opcode("AddV2"), ", 4, 2") +
                "], expression=\"v3 = Mul(x0, x1); v4 = Exp(v3); v5 = AddV2(v4, x2)\"} : "
                "float32(4,)\n"
                "  return %3\n"
                "}\n")
      << golden(g);
  PassOptions no_fusion;
  no_fusion.disabled = {"elementwise_fusion"};
  Graph partial = optimize(g, no_fusion);
  EXPECT_FALSE(has_node(partial, "_FusedElementwise"));
  EXPECT_FALSE(has_node(partial, "Mul") && has_node(partial, "Const") &&
               partial.num_nodes() == g.num_nodes());
  PassOptions off;
  off.enabled = false;
  EXPECT_EQ(optimize(g, off).to_string(), g.to_string());
  PassOptions typo;
  typo.disabled = {"constant_fold"};
  EXPECT_THROW(optimize(g, typo), InvalidArgumentError);
  EXPECT_THROW(run_pass("no_such_pass", g), InvalidArgumentError);
}

TEST(PassManagerTest, EnvironmentSwitches) {
  Graph g = sample();
  ::setenv("TFCC_DISABLE_PASSES", "elementwise_fusion, constant_folding", 1);
  Graph out = optimize(g);
  ::unsetenv("TFCC_DISABLE_PASSES");
  EXPECT_FALSE(has_node(out, "_FusedElementwise"));
  EXPECT_TRUE(has_node(out, "Mul"));
  ::setenv("TFCC_DISABLE_PASSES", "all", 1);
  EXPECT_EQ(optimize(g).to_string(), g.to_string());
  ::unsetenv("TFCC_DISABLE_PASSES");
}

TEST(PassManagerTest, DumpsEachPassBeforeAndAfter) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("tfcc_dump_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  ::setenv("TFCC_DUMP_GRAPHS", dir.c_str(), 1);
  Graph out = optimize(sample());
  ::unsetenv("TFCC_DUMP_GRAPHS");
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  ASSERT_EQ(names.size(), 2 * pass_names().size());
  EXPECT_NE(names.front().find(".01.after.batch_norm_folding.txt"), std::string::npos)
      << names.front();
  EXPECT_NE(names.back().find(".before.dead_code_elimination.txt"), std::string::npos)
      << names.back();
  // The last "after" file is the optimised graph.
  std::string last;
  for (const std::string& n : names) {
    if (n.find("after.dead_code_elimination") != std::string::npos) last = n;
  }
  EXPECT_EQ(read_file((dir / last).string()), out.to_string());
  fs::remove_all(dir);
}

TEST(PassManagerTest, FunctionOptionsAndSubgraphs) {
  auto body = [](Tensor x) {
    return cond(
        reduce_sum(x) > 0.0f, [&] { return exp(x * 2.0f) + 1.0f; }, [&] { return x - 1.0f; });
  };
  auto on = function(body);
  auto off = function(body, {.passes = {.enabled = false}});
  Tensor x = constant({0.5f, 1.f, -0.25f});
  EXPECT_TRUE(testing::bitwise_equal(on(x), off(x)));
  EXPECT_TRUE(testing::bitwise_equal(on(-x), off(-x)));
  ConcreteFunction cf = on.get_concrete_function(TensorSpec{PartialShape({3})});
  EXPECT_NE(cf.optimized_graph().to_string().find("_FusedElementwise"), std::string::npos)
      << cf.optimized_graph().to_string();
  ConcreteFunction raw = off.get_concrete_function(TensorSpec{PartialShape({3})});
  EXPECT_EQ(raw.optimized_graph().to_string(), raw.graph().to_string());
  auto typo = function(body, {.passes = {.disabled = {"fusion"}}});
  EXPECT_THROW(typo(x), InvalidArgumentError);
}

TEST(PassManagerTest, TrainingStepMatchesUnoptimised) {
  // w <- w - 0.1 * d/dw mean((tanh(x w) * 2 + 1 - y)^2): the backward pass is traced into the
  // same graph, so the passes optimise it too.
  auto make_step = [](Variable w, bool passes) {
    return function(
        [w](Tensor x, Tensor y) {
          GradientTape tape;
          Tensor pred = tanh(matmul(x, w.read_value())) * 2.0f + 1.0f;
          Tensor loss = reduce_mean(square(pred - y));
          Tensor grad = tape.gradient(loss, std::vector<Variable>{w})[0];
          w.assign_sub(grad * 0.1f);
          return loss;
        },
        {.passes = {.enabled = passes}});
  };
  Tensor init = constant({{0.1f, -0.2f}, {0.3f, 0.05f}, {-0.1f, 0.2f}});
  Variable w1(init, {.name = "w1"}), w2(init, {.name = "w2"});
  auto fast = make_step(w1, true);
  auto plain = make_step(w2, false);
  Tensor x = constant({{1.f, 2.f, 3.f}, {-1.f, 0.5f, 2.f}, {0.f, 1.f, -2.f}, {2.f, 2.f, 2.f}});
  Tensor y = constant({{1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}, {0.f, 0.f}});
  for (int step = 0; step < 5; ++step) {
    Tensor a = fast(x, y), b = plain(x, y);
    EXPECT_TRUE(testing::bitwise_equal(a, b)) << step;
  }
  EXPECT_TRUE(testing::bitwise_equal(w1.read_value(), w2.read_value()));
}

}  // namespace
}  // namespace tfcc::graph
