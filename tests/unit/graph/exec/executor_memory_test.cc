// The executor's memory behaviour: in-place outputs only where nothing else can see the buffer,
// intermediates freed after their last use, and a traced chain's peak below eager's.
#include <gtest/gtest.h>

#include "tests/unit/graph/passes/pass_test_util.h"
#include "tfcc/core/allocator.h"
#include "tfcc/graph/exec/plan.h"

namespace tfcc::graph {
namespace {

using testing::trace;

constexpr int64_t kN = 1 << 18;  // 1 MiB of float32: one allocator size class

// Bytes the allocator hands out for one kN-float buffer.
int64_t buffer_bytes() {
  Allocator& a = cpu_allocator();
  const int64_t before = a.stats().bytes_in_use;
  Tensor t = Tensor::empty(float32, Shape{kN});
  return a.stats().bytes_in_use - before;
}

// Peak bytes in use above the starting level while `fn` runs.
template <typename F>
int64_t peak_increase(F&& fn) {
  Allocator& a = cpu_allocator();
  const int64_t base = a.stats().bytes_in_use;
  a.reset_peak();
  fn();
  return a.stats().peak_bytes_in_use - base;
}

TEST(ExecutorMemoryTest, ChainWritesInPlaceAndAllocatesOnce) {
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        return std::vector<Tensor>{relu(exp(a[0] * 2.0f) + 1.0f) * 3.0f};
      },
      {TensorSpec{PartialShape({kN})}});
  ExecutionPlan plan(g);
  Tensor x = random::uniform({kN}, -1, 1);
  Tensor args[] = {x};
  RunStats stats;
  const auto before = cpu_allocator().stats().num_allocs;
  std::vector<Tensor> out = run_plan(plan, args, &stats);
  // Mul allocates; Exp, AddV2, Relu and the last Mul reuse that one buffer.
  EXPECT_EQ(cpu_allocator().stats().num_allocs - before, 1);
  EXPECT_EQ(stats.in_place_nodes, (std::vector<std::string>{"Exp", "AddV2", "Relu", "Mul_1"}));
  EXPECT_TRUE(testing::bitwise_equal(out[0], relu(exp(x * 2.0f) + 1.0f) * 3.0f));
  // The argument is the caller's: untouched.
  EXPECT_TRUE(testing::bitwise_equal(x, args[0]));
}

TEST(ExecutorMemoryTest, LiveInputIsNotOverwritten) {
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        Tensor m = a[0] * 2.0f;
        return std::vector<Tensor>{relu(m) + m};  // m outlives Relu
      },
      {TensorSpec{PartialShape({4})}});
  ExecutionPlan plan(g);
  Tensor x = constant({1.f, -2.f, 3.f, -4.f});
  Tensor args[] = {x};
  RunStats stats;
  std::vector<Tensor> out = run_plan(plan, args, &stats);
  EXPECT_EQ(stats.in_place_nodes, std::vector<std::string>{"AddV2"});  // over Relu's result
  EXPECT_EQ(out[0].to_vector<float>(), (std::vector<float>{4, -4, 12, -8}));
}

TEST(ExecutorMemoryTest, GraphOutputsAndViewsAreNotOverwritten) {
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        Tensor m = a[0] * 2.0f;
        Tensor view = reshape(m, {2, 2});  // shares m's buffer
        return std::vector<Tensor>{view, relu(m)};
      },
      {TensorSpec{PartialShape({4})}});
  ExecutionPlan plan(g);
  Tensor args[] = {constant({1.f, -2.f, 3.f, -4.f})};
  RunStats stats;
  std::vector<Tensor> out = run_plan(plan, args, &stats);
  // The plan lends m to Relu (its last reader), but the buffer has a second holder: the view.
  EXPECT_TRUE(stats.in_place_nodes.empty());
  EXPECT_NE(out[0].raw_data(), out[1].raw_data());
  EXPECT_EQ(out[0].to_vector<float>(), (std::vector<float>{2, -4, 6, -8}));
  EXPECT_EQ(out[1].to_vector<float>(), (std::vector<float>{2, 0, 6, 0}));
}

TEST(ExecutorMemoryTest, VariableValueIsNotOverwritten) {
  Variable v(constant({1.f, -2.f, 3.f}), {.name = "v"});
  auto f = function([&](Tensor x) { return relu(v.read_value()) + x; });
  Tensor x = constant({1.f, 1.f, 1.f});
  Tensor y = f(x);
  EXPECT_EQ(y.to_vector<float>(), (std::vector<float>{2, 1, 4}));
  EXPECT_EQ(v.read_value().to_vector<float>(), (std::vector<float>{1, -2, 3}));
  y = f(x);  // the cached plan, again
  EXPECT_EQ(v.read_value().to_vector<float>(), (std::vector<float>{1, -2, 3}));
}

TEST(ExecutorMemoryTest, OptimizerUpdatesInPlaceOnceTheStepsReadsAreDead) {
  // The forward pass's read of w shares w's buffer; the plan drops it after its last reader, so
  // the fused SGD update finds the buffer unshared and writes it in place (no copy-on-write).
  Variable w(constant({1.f, 2.f, 3.f}), {.name = "w"});
  auto step = function([&](Tensor x) {
    GradientTape tape;
    Tensor loss = reduce_sum(w.read_value() * x);
    Tensor g = tape.gradient(loss, std::vector<Variable>{w})[0];
    training::apply_gradient_descent(w, 0.5f, g);
    return loss;
  });
  Tensor x = constant({1.f, 1.f, 2.f});
  step(x);  // traces
  const void* before = w.read_value().raw_data();
  Tensor loss = step(x);
  EXPECT_EQ(w.read_value().raw_data(), before);
  EXPECT_EQ(w.read_value().to_vector<float>(), (std::vector<float>{0, 1, 1}));
  EXPECT_EQ(loss.item<float>(), 0.5f * 1 + 1.5f * 1 + 2.f * 2);
}

TEST(ExecutorMemoryTest, IntermediatesAreFreedAfterTheirLastUse) {
  // Without in-place ops (MatMul declares none), a chain still holds at most two buffers at once:
  // each product is freed as soon as the next one has been computed.
  const int64_t n = 256;
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        Tensor h = a[0];
        for (int i = 0; i < 6; ++i) h = matmul(h, a[1]);
        return std::vector<Tensor>{h};
      },
      {TensorSpec{PartialShape({n, n})}, TensorSpec{PartialShape({n, n})}});
  ExecutionPlan plan(g);
  Tensor args[] = {random::uniform({n, n}), random::uniform({n, n}, 0, 0.01)};
  const int64_t one = static_cast<int64_t>(n * n * sizeof(float));
  std::vector<Tensor> out;
  const int64_t peak = peak_increase([&] { out = run_plan(plan, args); });
  EXPECT_LE(peak, 2 * one + one / 4) << "peak " << peak << " bytes";
}

TEST(ExecutorMemoryTest, TracedChainPeaksBelowEager) {
  config::threading::set_intra_op_parallelism_threads(1);
  auto chain = [](const Tensor& x) { return sqrt(relu(tanh(exp(x * 0.5f) - 1.0f) + 2.0f) * 3.0f); };
  // Passes off: the memory saved here is the executor's, not the elementwise fusion's.
  auto traced = function([&](Tensor x) { return chain(x); }, {.passes = {.enabled = false}});
  Tensor x = random::uniform({kN}, -1, 1);
  Tensor warm = traced(x);  // trace outside the measurement
  Tensor eager_out, traced_out;
  const int64_t eager = peak_increase([&] { eager_out = chain(x); });
  const int64_t graph = peak_increase([&] { traced_out = traced(x); });
  EXPECT_TRUE(testing::bitwise_equal(eager_out, traced_out));
  // Eager holds every temporary of the expression until its end; the plan writes each op over
  // the previous one's buffer.
  EXPECT_EQ(graph, buffer_bytes());
  EXPECT_GE(eager, 6 * buffer_bytes());
  config::threading::set_intra_op_parallelism_threads(0);
}

}  // namespace
}  // namespace tfcc::graph
