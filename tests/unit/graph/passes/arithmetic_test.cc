// arithmetic_simplification: exact identities go, anything that changes a bit, a dtype or a
// shape stays.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/unit/graph/passes/pass_test_util.h"

namespace tfcc::graph {
namespace {

using testing::golden;
using testing::trace;

Graph simplify(const Graph& g) {
  return run_pass("dead_code_elimination", run_pass("arithmetic_simplification", g));
}

TEST(ArithmeticTest, RemovesExactIdentities) {
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        Tensor x = a[0];
        Tensor y = ((x * 1.0f) / 1.0f - 0.0f) + (-0.0f);
        y = 1.0f * identity(identity(y));
        y = cast(y, float32);
        return std::vector<Tensor>{y};
      },
      {TensorSpec{PartialShape({3})}});
  EXPECT_EQ(golden(simplify(g)),
            "function f(%0: float32(3,)) {\n"
            "  return %0\n"
            "}\n")
      << golden(g);
}

TEST(ArithmeticTest, KeepsWhatIsNotAnIdentity) {
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        Tensor plus_zero = a[0] + 0.0f;        // -0.0 + 0.0 is +0.0: not an identity for floats
        Tensor widened = a[0] * ones({2, 3});  // broadcasts to a larger shape
        Tensor twice = a[0] * 2.0f;
        return std::vector<Tensor>{plus_zero, widened, twice};
      },
      {TensorSpec{PartialShape({3})}});
  Graph out = simplify(g);
  EXPECT_EQ(golden(out), golden(run_pass("dead_code_elimination", g)));
  const float nz = -0.0f;
  Tensor args[] = {constant({nz, 1.f, std::numeric_limits<float>::quiet_NaN()})};
  std::vector<Tensor> a = run_graph(g, args), b = run_graph(out, args);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(testing::bitwise_equal(a[i], b[i]));
  EXPECT_FALSE(std::signbit(b[0].to_vector<float>()[0]));
}

TEST(ArithmeticTest, IntegerAddZeroGoes) {
  Graph g = trace([](const std::vector<Tensor>& a) { return std::vector<Tensor>{a[0] + 0}; },
                  {TensorSpec{PartialShape({2}), int32}});
  EXPECT_EQ(golden(simplify(g)),
            "function f(%0: int32(2,)) {\n"
            "  return %0\n"
            "}\n");
}

TEST(ArithmeticTest, MergesTransposesAndReshapes) {
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        Tensor t = transpose(transpose(a[0], {1, 0, 2}), {1, 0, 2});  // identity
        Tensor u = transpose(transpose(a[0], {1, 2, 0}), {1, 2, 0});  // = perm {2, 0, 1}
        Tensor r = reshape(reshape(a[0], {6, 4}), {4, 6});
        Tensor same = reshape(a[0], {2, 3, 4});
        return std::vector<Tensor>{t, u, r, same};
      },
      {TensorSpec{PartialShape({2, 3, 4})}});
  Graph out = simplify(g);
  EXPECT_EQ(golden(out),
            "function f(%0: float32(2, 3, 4)) {\n"
            "  %1 = Transpose(%0) {perm=[2, 0, 1]} : float32(4, 2, 3)\n"
            "  %2 = Reshape(%0) {shape=[4, 6]} : float32(4, 6)\n"
            "  return %0, %1, %2, %0\n"
            "}\n")
      << golden(g);
  std::vector<float> v(24);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
  Tensor args[] = {Tensor::from_vector(v, Shape{2, 3, 4})};
  std::vector<Tensor> a = run_graph(g, args), b = run_graph(out, args);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(testing::bitwise_equal(a[i], b[i])) << i;
}

}  // namespace
}  // namespace tfcc::graph
