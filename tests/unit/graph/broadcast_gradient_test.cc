// Gradients of broadcasting ops inside traced functions whose shapes have unknown dimensions:
// decided at trace time where the static shapes tell (bitwise the eager gradient), otherwise at
// run time by BroadcastGradientArgs + _SumToShape; and a traced training epoch over batches of
// varying size (no drop_remainder) that matches the eager loop.
#include <gtest/gtest.h>

#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

using graph::Node;

TensorSpec spec(std::vector<int64_t> dims, DType dtype = float64) {
  return TensorSpec{PartialShape(std::move(dims)), dtype, ""};
}

Tensor seq(std::vector<int64_t> dims, double start) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(start + 0.25 * static_cast<double>(i % 7) - 0.1 * i);
  return Tensor::from_vector(v, Shape(dims));
}

// d/dx, d/dy of sum(tanh(z)^2) + sum(z) / 2 with z = op(x, y), by a tape (eager, or inside a
// trace). The loss itself has no broadcasting op between two tensors of unknown size.
std::vector<Tensor> grads_of(Tensor (*op)(const Operand&, const Operand&, Loc), const Tensor& x,
                             const Tensor& y) {
  GradientTape tape;
  tape.watch(x);
  tape.watch(y);
  Tensor z = op(x, y, Loc::current());
  Tensor loss = reduce_sum(square(tanh(z))) + reduce_sum(z) * 0.5;
  return tape.gradient(loss, std::vector<Tensor>{x, y});
}

int count_nodes(const ConcreteFunction& cf, const std::string& type) {
  int n = 0;
  for (const Node& node : cf.graph().nodes()) n += node.type_name() == type;
  return n;
}

void expect_same(const std::vector<Tensor>& traced, const std::vector<Tensor>& eager) {
  ASSERT_EQ(traced.size(), eager.size());
  for (size_t i = 0; i < eager.size(); ++i) {
    ASSERT_EQ(traced[i].shape(), eager[i].shape()) << i;
    EXPECT_EQ(traced[i].to_vector<double>(), eager[i].to_vector<double>()) << i;  // bitwise
  }
}

// The static shapes of the gradients a trace produced (recorded while tracing).
struct GradShapes {
  PartialShape gx, gy;
};

// grads_of(op, x, y) traced over `signature`; `shapes` receives the traced gradients' shapes.
auto traced_grads(Tensor (*op)(const Operand&, const Operand&, Loc),
                  std::vector<TensorSpec> signature, GradShapes& shapes) {
  return function(
      [op, &shapes](Tensor x, Tensor y) {
        std::vector<Tensor> g = grads_of(op, x, y);
        shapes.gx = g[0].partial_shape();
        shapes.gy = g[1].partial_shape();
        return g;
      },
      {.input_signature = std::move(signature)});
}

TEST(BroadcastGradientTest, UnknownBatchPlusVectorIsDecidedAtTraceTime) {
  GradShapes shapes;
  auto f = traced_grads(add, {spec({-1, 3}), spec({3})}, shapes);
  for (int64_t batch : {4, 1, 0}) {
    Tensor x = seq({batch, 3}, 0.5), y = seq({3}, -0.3);
    expect_same(f(x, y), grads_of(add, x, y));
  }
  EXPECT_EQ(f.tracing_count(), 1);
  EXPECT_EQ(shapes.gx, PartialShape({-1, 3}));
  EXPECT_EQ(shapes.gy, PartialShape({3}));
  EXPECT_EQ(count_nodes(f.get_concrete_function(spec({-1, 3}), spec({3})), "_SumToShape"), 0);
}

TEST(BroadcastGradientTest, UnknownBatchColumnTimesRow) {
  GradShapes shapes;
  auto f = traced_grads(multiply, {spec({-1, 1}), spec({1, 4})}, shapes);
  for (int64_t batch : {5, 1}) {
    Tensor x = seq({batch, 1}, 0.7), y = seq({1, 4}, -0.2);
    expect_same(f(x, y), grads_of(multiply, x, y));
  }
  EXPECT_EQ(f.tracing_count(), 1);
  EXPECT_EQ(shapes.gx, PartialShape({-1, 1}));
  EXPECT_EQ(shapes.gy, PartialShape({1, 4}));
}

// Both sides unknown: only the run-time shapes say which side was broadcast.
TEST(BroadcastGradientTest, AmbiguousShapesAreReducedAtRunTime) {
  GradShapes shapes;
  auto f = traced_grads(subtract, {spec({-1, 3}), spec({-1, 3})}, shapes);
  const std::pair<int64_t, int64_t> batches[] = {{5, 5}, {5, 1}, {1, 5}, {1, 1}, {0, 1}};
  for (auto [bx, by] : batches) {
    SCOPED_TRACE(testing::Message() << bx << " vs " << by);
    Tensor x = seq({bx, 3}, 0.1), y = seq({by, 3}, 0.9);
    expect_same(f(x, y), grads_of(subtract, x, y));
  }
  EXPECT_EQ(f.tracing_count(), 1);
  EXPECT_EQ(shapes.gx, PartialShape({-1, 3}));  // the known dimension survives the run-time path
  ConcreteFunction cf = f.get_concrete_function(spec({-1, 3}), spec({-1, 3}));
  EXPECT_EQ(count_nodes(cf, "BroadcastGradientArgs"), 2);
  EXPECT_EQ(count_nodes(cf, "_SumToShape"), 2);
  // Shapes that do not broadcast fail in the forward op, as eagerly.
  EXPECT_THROW(f(seq({2, 3}, 0), seq({4, 3}, 0)), InvalidArgumentError);
}

TEST(BroadcastGradientTest, UnknownRankVectorsAndSecondOrder) {
  // d/dx of sum((d/dy sum(x * y^2))^2) with x, y of unknown length: both backward passes go
  // through _SumToShape (and its own gradient).
  auto second = [](const Tensor& x, const Tensor& y) {
    GradientTape outer;
    outer.watch(x);
    GradientTape inner;
    inner.watch(y);
    Tensor dy = inner.gradient(reduce_sum(x * y * y), y);
    return outer.gradient(reduce_sum(dy * dy), x);
  };
  auto f = function([&](Tensor x, Tensor y) { return second(x, y); },
                    {.input_signature = std::vector<TensorSpec>{spec({-1}), spec({-1})}});
  const std::pair<int64_t, int64_t> sizes[] = {{3, 3}, {3, 1}, {1, 3}};
  for (auto [nx, ny] : sizes) {
    Tensor x = seq({nx}, 0.4), y = seq({ny}, -0.6);
    Tensor traced = f(x, y), eager = second(x, y);
    ASSERT_EQ(traced.shape(), eager.shape());
    std::vector<double> a = traced.to_vector<double>(), b = eager.to_vector<double>();
    for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-12 * (1 + std::abs(b[i])));
  }
  EXPECT_EQ(f.tracing_count(), 1);
}

// Traced training over batches without drop_remainder (a last batch of 2) is
// TracedIterationTest.TracedTrainingEpochMatchesTheEagerLoop in tests/unit/data.

}  // namespace
}  // namespace tfcc
