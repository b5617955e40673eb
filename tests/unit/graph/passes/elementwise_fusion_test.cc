// elementwise_fusion: which nodes fuse (golden graphs), and bit-for-bit equality with the
// unfused ops for every fusable op, in float32 and float64, across block and thread boundaries.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/unit/graph/passes/pass_test_util.h"
#include "tfcc/ops/fused_elementwise/fused_elementwise.h"

namespace tfcc::graph {
namespace {

using testing::golden;
using testing::trace;

Graph fuse(const Graph& g) {
  return run_pass("dead_code_elimination", run_pass("elementwise_fusion", g));
}

TEST(ElementwiseFusionTest, ChainWithScalarOperandsBecomesOneNode) {
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        return std::vector<Tensor>{relu(a[0] * a[1] + 1.0f) - a[1]};
      },
      {TensorSpec{PartialShape({4})}, TensorSpec{PartialShape({4})}});
  Graph out = fuse(g);
  EXPECT_EQ(golden(out),
            "function f(%0: float32(4,), %1: float32(4,)) {\n"
            "  %2 = Const[1.0]() : float32()\n"
            "  %3 = _FusedElementwise(%0, %1, %2) {program=[" +
                internal::str_cat(fused_elementwise::opcode("Mul"), ", 0, 1, ",
                                  fused_elementwise::opcode("AddV2"), ", 3, 2, ",
                                  fused_elementwise::opcode("Relu"), ", 4, -1, ",
                                  fused_elementwise::opcode("Sub"), ", 5, 1") +
                "], expression=\"v3 = Mul(x0, x1); v4 = AddV2(v3, x2); v5 = Relu(v4); v6 = "
                "Sub(v5, x1)\"} : float32(4,)\n"
                "  return %3\n"
                "}\n")
      << golden(g);
  Tensor args[] = {constant({-2.f, 0.5f, 3.f, -0.f}), constant({1.f, 2.f, -1.f, 4.f})};
  EXPECT_TRUE(testing::bitwise_equal(run_graph(out, args)[0], run_graph(g, args)[0]));
}

TEST(ElementwiseFusionTest, SharedIntermediatesAndBroadcastsBoundGroups) {
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        Tensor t = exp(a[0]) * 2.0f;  // used twice inside: fuses
        Tensor u = t * t + a[0];
        Tensor shared = u * 3.0f;  // also a graph output: ends a group
        Tensor v = tanh(shared) - 1.0f;
        Tensor b = v + a[1];  // a[1] is (3,) broadcast over (2, 3): not fused
        return std::vector<Tensor>{shared, b};
      },
      {TensorSpec{PartialShape({2, 3})}, TensorSpec{PartialShape({3})}});
  Graph out = fuse(g);
  EXPECT_EQ(testing::node_types(out),
            (std::vector<std::string>{"Arg", "Arg", "Const", "Const", "_FusedElementwise", "Const",
                                      "_FusedElementwise", "AddV2"}))
      << golden(out);
  Tensor args[] = {constant({{0.1f, -0.2f, 0.3f}, {1.f, 2.f, -3.f}}), constant({1.f, 2.f, 3.f})};
  std::vector<Tensor> a = run_graph(g, args), b = run_graph(out, args);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(testing::bitwise_equal(a[i], b[i])) << i;
}

// Values with the special cases of each op: signed zeros, NaN, infinities, halves (rounding),
// large and tiny magnitudes, plus a spread of ordinary values.
template <typename T>
std::vector<T> probe_values(size_t n) {
  std::vector<T> v = {T(0),
                      -T(0),
                      T(0.5),
                      T(-0.5),
                      T(1.5),
                      T(2.5),
                      T(-2.5),
                      T(1e30),
                      T(-1e30),
                      T(1e-30),
                      std::numeric_limits<T>::quiet_NaN(),
                      std::numeric_limits<T>::infinity(),
                      -std::numeric_limits<T>::infinity()};
  uint64_t s = 0x9e3779b97f4a7c15ULL;
  while (v.size() < n) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    v.push_back(static_cast<T>((static_cast<double>(s >> 11) / 9007199254740992.0 - 0.5) * 8));
  }
  return v;
}

template <typename T>
void check_every_op() {
  const size_t n = 40000;  // several 8 KiB blocks, and above the parallel grain
  std::vector<T> xs = probe_values<T>(n), ys = probe_values<T>(n + 7);
  ys.erase(ys.begin(), ys.begin() + 7);  // a different pairing
  Tensor x = Tensor::from_vector(xs, Shape{static_cast<int64_t>(n)});
  Tensor y = Tensor::from_vector(ys, Shape{static_cast<int64_t>(n)});
  const DType dt = dtype_of<T>();
  for (const std::string& name : fused_elementwise::fusable_ops()) {
    SCOPED_TRACE(name + " " + std::string(dtype_name(dt)));
    const OpDef& op = op_def(name);
    const bool binary = op.inputs().size() == 2;
    // (x * 0.75 + y) -> op -> with a second operand: the op sits inside a fused chain.
    auto chain = [&](const std::vector<Tensor>& a) {
      Tensor pre = a[0] * Tensor::scalar<T>(T(0.75)) + a[1];
      std::vector<Tensor> in;
      in.reserve(2);
      in.push_back(pre);
      if (binary) in.push_back(a[1]);
      Tensor mid = dispatch1(op, in, {});
      return std::vector<Tensor>{mid - a[0]};
    };
    Graph g = trace(chain, {TensorSpec{PartialShape({static_cast<int64_t>(n)}), dt},
                            TensorSpec{PartialShape({static_cast<int64_t>(n)}), dt}});
    Graph out = fuse(g);
    ASSERT_EQ(testing::node_types(out),
              (std::vector<std::string>{"Arg", "Arg", "Const", "_FusedElementwise"}))
        << golden(out);
    Tensor args[] = {x, y};
    Tensor fused = run_graph(out, args)[0];
    Tensor eager = chain({x, y})[0];
    EXPECT_TRUE(testing::bitwise_equal(fused, eager));
    // Scalar inputs broadcast: y as a one-element tensor.
    Tensor s = Tensor::from_vector(std::vector<T>{T(0.25)}, Shape{1});
    Graph gs = trace(chain, {TensorSpec{PartialShape({static_cast<int64_t>(n)}), dt},
                             TensorSpec{PartialShape({1}), dt}});
    Tensor sargs[] = {x, s};
    EXPECT_TRUE(testing::bitwise_equal(run_graph(fuse(gs), sargs)[0], chain({x, s})[0]));
  }
}

TEST(ElementwiseFusionTest, EveryOpBitwiseFloat32) { check_every_op<float>(); }
TEST(ElementwiseFusionTest, EveryOpBitwiseFloat64) { check_every_op<double>(); }

TEST(ElementwiseFusionTest, NoMultiplyAddContraction) {
  // a * b + c rounded twice (0) differs from fma(a, b, c) (2^-24) for these values.
  const float a = 1.0f + 0x1p-12f, b = a, c = -(1.0f + 0x1p-11f);
  volatile float p = a * b;  // two roundings, as the eager Mul then AddV2
  const float expected = p + c;
  ASSERT_NE(expected, std::fma(a, b, c));
  Graph g =
      trace([](const std::vector<Tensor>& t) { return std::vector<Tensor>{t[0] * t[1] + t[2]}; },
            {TensorSpec{PartialShape({64})}, TensorSpec{PartialShape({64})},
             TensorSpec{PartialShape({64})}});
  Tensor args[] = {fill({64}, a), fill({64}, b), fill({64}, c)};
  std::vector<float> r = run_graph(fuse(g), args)[0].to_vector<float>();
  for (float v : r) EXPECT_EQ(v, expected);
}

TEST(ElementwiseFusionTest, FunctionsRunTheFusedGraph) {
  auto f = function([](Tensor x) { return sigmoid(x * 2.0f - 1.0f) * x; });
  ConcreteFunction cf = f.get_concrete_function(TensorSpec{PartialShape({5})});
  EXPECT_EQ(testing::node_types(cf.optimized_graph()),
            (std::vector<std::string>{"Arg", "Const", "Const", "_FusedElementwise"}))
      << golden(cf.optimized_graph());
  EXPECT_EQ(testing::node_types(cf.graph()),  // the traced graph is kept as traced
            (std::vector<std::string>{"Arg", "Const", "Mul", "Const", "Sub", "Sigmoid", "Mul"}));
  Tensor x = constant({-1.f, 0.f, 0.5f, 2.f, 7.f});
  EXPECT_TRUE(testing::bitwise_equal(f(x), sigmoid(x * 2.0f - 1.0f) * x));
}

}  // namespace
}  // namespace tfcc::graph
