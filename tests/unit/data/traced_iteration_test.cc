// Datasets and iterators inside traced functions: Dataset::reduce / for_each as one While loop
// per call, Iterator::get_next / get_next_as_optional_element / reduce as nodes that advance the
// iterator at every call.
#include <gtest/gtest.h>

#include "tfcc/autodiff/gradient_tape.h"
#include "tfcc/control_flow/control_flow.h"
#include "tfcc/data/dataset.h"
#include "tfcc/graph/trace/function.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/linalg/linalg.h"
#include "tfcc/ops/operators.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"
#include "tfcc/platform/errors.h"

namespace tfcc::data {
namespace {

// 10 float values in batches of 3 (the last batch has 1).
Dataset batched_values() {
  std::vector<float> v;
  for (int i = 1; i <= 10; ++i) v.push_back(static_cast<float>(i) * 0.5f);
  return Dataset::from_tensor_slices({Tensor::from_vector(v)}).batch(3);
}

std::vector<Tensor> add_sum(const std::vector<Tensor>& state, const Element& e) {
  return {state[0] + reduce_sum(e[0])};
}

int count_nodes(const graph::Graph& g, const std::string& type) {
  int n = 0;
  for (const graph::Node& node : g.nodes()) {
    if (node.type_name() == type) ++n;
    for (const auto& sub : node.subgraphs) n += count_nodes(*sub, type);
  }
  return n;
}

TEST(TracedIterationTest, SumOverADatasetInOneTracedCallEqualsEager) {
  Dataset ds = batched_values();
  float eager = ds.reduce({constant(0.f)}, add_sum)[0].item<float>();
  EXPECT_FLOAT_EQ(eager, 27.5f);
  auto f = tfcc::function([&]() { return ds.reduce({constant(0.f)}, add_sum)[0]; });
  EXPECT_FLOAT_EQ(f().item<float>(), eager);
  EXPECT_FLOAT_EQ(f().item<float>(), eager);  // each call iterates a fresh iterator
  EXPECT_EQ(f.tracing_count(), 1);
  const graph::Graph& g = f.get_concrete_function().graph();
  EXPECT_EQ(count_nodes(g, "AnonymousIterator"), 1);
  EXPECT_EQ(count_nodes(g, "While"), 1);
  EXPECT_EQ(count_nodes(g, "IteratorGetNextAsOptional"), 2);  // before the loop, in its body
  EXPECT_NE(g.to_string().find("IteratorGetNextAsOptional"), std::string::npos);
}

TEST(TracedIterationTest, ForEachUpdatesVariablesAtEveryCall) {
  Dataset ds = Dataset::range(1, 6);  // 1..5
  Variable total(Tensor::scalar<int64_t>(0), {.name = "total", .trainable = false});
  Variable count(Tensor::scalar<int64_t>(0), {.name = "count", .trainable = false});
  auto epoch = tfcc::function([&]() {
    ds.for_each([&](const Element& e) {
      total.assign_add(e[0]);
      count.assign_add(Tensor::scalar<int64_t>(1));
    });
  });
  epoch();
  EXPECT_EQ(total.read_value().item<int64_t>(), 15);
  epoch();
  EXPECT_EQ(total.read_value().item<int64_t>(), 30);
  EXPECT_EQ(count.read_value().item<int64_t>(), 10);
}

TEST(TracedIterationTest, EmptyDatasetRunsNoIteration) {
  Dataset ds = Dataset::range(0);
  auto f = tfcc::function([&]() {
    return ds.reduce({constant(7.f)},
                     [](auto& s, auto&) { return std::vector<Tensor>{s[0] * 2.0f}; })[0];
  });
  EXPECT_FLOAT_EQ(f().item<float>(), 7.f);
}

// The seed's `train(model, dataset, optimizer)` under tf.function: a whole epoch of gradient
// steps in one traced call gives the same weights as the eager loop.
TEST(TracedIterationTest, TracedTrainingEpochMatchesTheEagerLoop) {
  std::vector<float> xs, ys;
  for (int i = 0; i < 22; ++i) {
    float a = static_cast<float>(i % 7) * 0.3f - 1.f, b = static_cast<float>(i % 5) * 0.2f;
    xs.insert(xs.end(), {a, b});
    ys.push_back(2.f * a - 3.f * b + 0.5f);
  }
  Dataset ds = Dataset::from_tensor_slices(
                   {Tensor::from_vector(xs, {22, 2}), Tensor::from_vector(ys, {22, 1})})
                   // 5 batches of 4 and a last one of 2, as tf.data batches by default: the
                   // batch dimension is unknown in the trace, so the gradients of the
                   // broadcasting ops reduce over it at run time (BroadcastGradientArgs).
                   .batch(4);
  struct Model {
    Variable w{zeros({2, 1}), {.name = "w"}};
    Variable b{zeros({1}), {.name = "b"}};
    void step(const Element& batch) {
      GradientTape tape;
      Tensor pred = matmul(batch[0], w.read_value()) + b.read_value();
      Tensor loss = reduce_mean(square(pred - batch[1]));
      auto grads = tape.gradient(loss, std::vector<Variable>{w, b});
      w.assign_sub(grads[0] * 0.1f);
      b.assign_sub(grads[1] * 0.1f);
    }
  };
  Model eager, traced;
  for (int epoch = 0; epoch < 3; ++epoch) {
    for (const Element& batch : ds) eager.step(batch);
  }
  auto train = tfcc::function([&]() { ds.for_each([&](const Element& b) { traced.step(b); }); });
  for (int epoch = 0; epoch < 3; ++epoch) train();
  EXPECT_EQ(train.tracing_count(), 1);
  std::vector<float> we = eager.w.read_value().to_vector<float>();
  std::vector<float> wt = traced.w.read_value().to_vector<float>();
  for (size_t i = 0; i < we.size(); ++i) EXPECT_NEAR(wt[i], we[i], 1e-6f) << i;
  EXPECT_NEAR(traced.b.read_value().item<float>(), eager.b.read_value().item<float>(), 1e-6f);
  EXPECT_NE(we[0], 0.f);  // it did train
}

TEST(TracedIterationTest, IteratorAdvancesAcrossCallsAndKeepsItsState) {
  Iterator it = Dataset::range(10).make_iterator();
  auto two = tfcc::function([&]() {
    Element a = it.get_next();
    Element b = it.get_next();
    return a[0] + b[0];
  });
  EXPECT_EQ(two().item<int64_t>(), 0 + 1);
  EXPECT_EQ(two().item<int64_t>(), 2 + 3);
  EXPECT_EQ(it.get_next()[0].item<int64_t>(), 4);  // eager use continues where the graph stopped
  auto rest = tfcc::function([&]() {
    return it.reduce({Tensor::scalar<int64_t>(0)},
                     [](auto& s, const Element& e) { return std::vector<Tensor>{s[0] + e[0]}; })[0];
  });
  EXPECT_EQ(rest().item<int64_t>(), 5 + 6 + 7 + 8 + 9);
  EXPECT_FALSE(it.get_next_as_optional().has_value());  // exhausted by the traced loop
  EXPECT_EQ(rest().item<int64_t>(), 0);                 // nothing left
  try {
    two();
    FAIL() << "get_next past the end did not raise";
  } catch (const OutOfRangeError& e) {
    EXPECT_NE(std::string(e.what()).find("End of sequence"), std::string::npos) << e.what();
  }
}

TEST(TracedIterationTest, WhileLoopOverGetNextAsOptional) {
  Iterator it = Dataset::range(3, 8).make_iterator();  // 3..7
  auto count_and_sum = tfcc::function([&]() {
    OptionalElement first = it.get_next_as_optional_element();
    auto [has, value, n, sum] = while_loop(
        [](const Tensor& has, const Tensor&, const Tensor&, const Tensor&) { return has; },
        [&](const Tensor&, const Tensor& value, const Tensor& n, const Tensor& sum) {
          OptionalElement next = it.get_next_as_optional_element();
          return std::tuple{next.has_value, next.value[0], n + 1, sum + value};
        },
        std::tuple{first.has_value, first.value[0], constant(int64_t{0}), constant(int64_t{0})});
    return std::vector<Tensor>{n, sum};
  });
  std::vector<Tensor> r = count_and_sum();
  EXPECT_EQ(r[0].item<int64_t>(), 5);
  EXPECT_EQ(r[1].item<int64_t>(), 25);
  // Eagerly the same call gives tensors too; the end is has_value == false with a zero value.
  OptionalElement end = it.get_next_as_optional_element();
  EXPECT_FALSE(end.has_value.item<bool>());
  EXPECT_EQ(end.value[0].item<int64_t>(), 0);
}

TEST(TracedIterationTest, AnErrorInsideTheLoopReachesTheCaller) {
  Dataset ds = Dataset::from_generator(
      [] {
        auto i = std::make_shared<int64_t>(0);
        return [i]() -> std::optional<Element> {
          if (*i == 3) throw DataLossError("record 3 is corrupt");
          return Element{Tensor::scalar<int64_t>((*i)++)};
        };
      },
      {{int64, PartialShape{}}});
  auto f = tfcc::function([&]() { return ds.reduce({Tensor::scalar<int64_t>(0)}, add_sum)[0]; });
  EXPECT_THROW(f(), DataLossError);
  EXPECT_THROW(f(), DataLossError);  // a fresh iterator each call; the failed one was freed
}

TEST(TracedIterationTest, RunFunctionsEagerlyIteratesDirectly) {
  Dataset ds = batched_values();
  config::run_functions_eagerly(true);
  auto f = tfcc::function([&]() { return ds.reduce({constant(0.f)}, add_sum)[0]; });
  float v = f().item<float>();
  config::run_functions_eagerly(false);
  EXPECT_FLOAT_EQ(v, 27.5f);
}

}  // namespace
}  // namespace tfcc::data
