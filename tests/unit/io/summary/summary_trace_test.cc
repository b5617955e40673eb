// Summaries inside traced functions, and trace_on / trace_export.
#include <gtest/gtest.h>

#include "tests/unit/io/summary/summary_test_util.h"
#include "tfcc/io/proto/message_io.h"
#include "tfcc/io/proto/summary.pb.h"
#include "tfcc/io/summary/summary.h"
#include "tfcc/platform/errors.h"
#include "tfcc/tfcc.h"

namespace tfcc::summary {
namespace {

class SummaryTraceTest : public testing::TempDirTest {
 protected:
  void TearDown() override {
    create_noop_writer().set_as_default();
    experimental::set_step(Step());
    trace_off();
    TempDirTest::TearDown();
  }
  // (step, tag, value) of every summary in `writer`'s file.
  static std::vector<std::tuple<int64_t, std::string, SummaryValue>> read_back(
      const SummaryWriter& writer) {
    writer.flush();
    std::vector<std::tuple<int64_t, std::string, SummaryValue>> out;
    for (const Event& e : read_events(writer.path())) {
      for (const auto& v : e.summary) out.emplace_back(e.step, v.tag, v);
    }
    return out;
  }
  static float scalar_of(const SummaryValue& v) {
    EXPECT_TRUE(v.tensor.has_value());
    return static_cast<float>(v.tensor->to_doubles().at(0));
  }
  static int count_nodes(const graph::Graph& g, const std::string& type) {
    int n = 0;
    for (const graph::Node& node : g.nodes()) {
      if (node.type_name() == type) ++n;
      for (const auto& sub : node.subgraphs) n += count_nodes(*sub, type);
    }
    return n;
  }
};

TEST_F(SummaryTraceTest, TracedFunctionWritesAScalarAtEachCall) {
  auto writer = create_file_writer(path("train"));
  auto scope = writer.as_default();
  Variable step(Tensor::scalar<int64_t>(10), {.name = "step", .trainable = false});
  auto f = function([&](Tensor x) {
    Tensor loss = reduce_mean(x * x);
    scalar("loss", loss, step);
    step.assign_add(Tensor::scalar<int64_t>(1));
    return loss;
  });
  for (float v : {1.f, 2.f, 3.f}) f(constant({v, v}));
  EXPECT_EQ(f.tracing_count(), 1);
  EXPECT_EQ(count_nodes(f.get_concrete_function(TensorSpec({2}, float32)).graph(), "WriteSummary"),
            1);
  auto events = read_back(writer);
  ASSERT_EQ(events.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    const auto& [s, tag, value] = events[static_cast<size_t>(i)];
    EXPECT_EQ(s, 10 + i);  // the variable, read when the node ran (before the increment)
    EXPECT_EQ(tag, "loss");
    EXPECT_FLOAT_EQ(scalar_of(value), static_cast<float>((i + 1) * (i + 1)));
    ASSERT_TRUE(value.metadata.has_value());
    EXPECT_EQ(value.metadata->plugin_name, "scalars");
  }
}

TEST_F(SummaryTraceTest, SymbolicStepAndHistogramAndText) {
  auto writer = create_file_writer(path("run"));
  auto scope = writer.as_default();
  auto f = function([&](Tensor x, Tensor step) {
    histogram("x", x, step);
    text("note", "traced", step);
    scalar("constant", 0.5, step);
    return x;
  });
  f(constant({1.f, 2.f, 3.f, 4.f}), Tensor::scalar<int64_t>(7));
  f(constant({5.f, 5.f, 5.f, 5.f}), Tensor::scalar<int64_t>(8));
  auto events = read_back(writer);
  ASSERT_EQ(events.size(), 6u);
  EXPECT_EQ(std::get<0>(events[0]), 7);
  EXPECT_EQ(std::get<1>(events[0]), "x");
  EXPECT_EQ(std::get<2>(events[0]).metadata->plugin_name, "histograms");
  std::vector<double> rows = std::get<2>(events[0]).tensor->to_doubles();
  std::vector<double> expected = {1, 2, 3, 4};
  EXPECT_EQ(rows, histogram_buckets(expected, kDefaultBucketCount));
  EXPECT_EQ(std::get<1>(events[1]), "note");
  EXPECT_EQ(std::get<2>(events[1]).tensor->string_val, std::vector<std::string>{"traced"});
  EXPECT_FLOAT_EQ(scalar_of(std::get<2>(events[2])), 0.5f);
  EXPECT_EQ(std::get<0>(events[3]), 8);
  std::vector<double> constant_rows = std::get<2>(events[3]).tensor->to_doubles();
  EXPECT_EQ(constant_rows.back(), 4.0);  // constant data: the last bucket holds every count
}

TEST_F(SummaryTraceTest, DefaultStepVariableIsReadAtEachCall) {
  auto writer = create_file_writer(path("run"));
  auto scope = writer.as_default();
  Variable iterations(Tensor::scalar<int64_t>(0), {.name = "iterations", .trainable = false});
  experimental::set_step(iterations);
  auto f = function([&](Tensor x) {
    iterations.assign_add(Tensor::scalar<int64_t>(1));
    scalar("x", x);
    return x;
  });
  f(Tensor::scalar<float>(1));
  f(Tensor::scalar<float>(2));
  auto events = read_back(writer);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(std::get<0>(events[0]), 1);
  EXPECT_EQ(std::get<0>(events[1]), 2);
  EXPECT_FLOAT_EQ(scalar_of(std::get<2>(events[1])), 2.f);
}

TEST_F(SummaryTraceTest, WithoutWriterTheFunctionHasNoSummaryNodeAndWritesNothing) {
  auto f = function([&](Tensor x) {
    EXPECT_FALSE(scalar("x", reduce_sum(x), 0));
    return x * 2.0f;
  });
  Tensor y = f(constant({1.f, 2.f}));
  EXPECT_EQ(y.to_vector<float>(), (std::vector<float>{2, 4}));
  EXPECT_EQ(count_nodes(f.get_concrete_function(TensorSpec({2}, float32)).graph(), "WriteSummary"),
            0);
  // As in TensorFlow, the writer is part of the trace: a writer set later does not reach it.
  auto writer = create_file_writer(path("late"));
  {
    auto scope = writer.as_default();
    f(constant({3.f, 4.f}));
  }
  EXPECT_TRUE(read_back(writer).empty());
}

TEST_F(SummaryTraceTest, RecordIfIsEvaluatedAtEachCall) {
  auto writer = create_file_writer(path("run"));
  auto scope = writer.as_default();
  bool record = false;
  auto cond = record_if([&] { return record; });
  auto f = function([&](Tensor x, Tensor step) {
    scalar("x", x, step);
    return x;
  });
  for (int64_t i = 0; i < 4; ++i) {
    record = i % 2 == 1;
    f(Tensor::scalar<float>(static_cast<float>(i)), Tensor::scalar<int64_t>(i));
  }
  auto events = read_back(writer);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(std::get<0>(events[0]), 1);
  EXPECT_EQ(std::get<0>(events[1]), 3);
}

TEST_F(SummaryTraceTest, MissingStepIsAnErrorAtTraceTime) {
  auto writer = create_file_writer(path("run"));
  auto scope = writer.as_default();
  auto f = function([&](Tensor x) {
    scalar("x", x);
    return x;
  });
  EXPECT_THROW(f(Tensor::scalar<float>(1)), InvalidArgumentError);
  auto g = function([&](Tensor x) {
    scalar("x", x, 0);
    return x;
  });
  EXPECT_THROW(g(constant({1.f, 2.f})), InvalidArgumentError);  // not a scalar
}

TEST_F(SummaryTraceTest, SummaryInsideWhileLoopWritesEveryIteration) {
  auto writer = create_file_writer(path("run"));
  auto scope = writer.as_default();
  auto f = function([&](Tensor n) {
    return while_loop([&](const Tensor& i) { return i < n; },
                      [&](const Tensor& i) {
                        scalar("i", cast(i, float32), cast(i, int64));
                        return i + 1;
                      },
                      constant(0));
  });
  f(constant(3));
  auto events = read_back(writer);
  ASSERT_EQ(events.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(std::get<0>(events[static_cast<size_t>(i)]), i);
    EXPECT_FLOAT_EQ(scalar_of(std::get<2>(events[static_cast<size_t>(i)])), static_cast<float>(i));
  }
}

// The GraphDefs inside a serialized RunMetadata (function_graphs[i].pre_optimization_graph).
std::vector<GraphDef> function_graphs(std::string_view run_metadata) {
  tensorflow::RunMetadata m;
  io::proto::parse(m, run_metadata, "RunMetadata");
  std::vector<GraphDef> out;
  for (const auto& fg : m.function_graphs()) out.push_back(fg.pre_optimization_graph());
  return out;
}

TEST_F(SummaryTraceTest, TraceExportWritesTheGraphsOfFunctionsThatRan) {
  Variable w(constant({{1.f}, {2.f}}), {.name = "w"});
  auto f = function([&](Tensor x) { return matmul(x, w.read_value()); });
  auto unused = function([&](Tensor x) { return x + 1.0f; });
  unused(constant({1.f}));  // runs before trace_on: not recorded
  auto writer = create_file_writer(path("func"));
  trace_on(/*graph=*/true);
  f(constant({{1.f, 1.f}}));
  f(constant({{2.f, 2.f}}));  // same graph: recorded once
  {
    auto scope = writer.as_default();
    EXPECT_TRUE(trace_export("my_func_trace", 0));
  }
  auto events = read_back(writer);
  ASSERT_EQ(events.size(), 1u);
  const auto& [step, tag, value] = events[0];
  EXPECT_EQ(step, 0);
  EXPECT_EQ(tag, "my_func_trace");
  ASSERT_TRUE(value.metadata.has_value());
  EXPECT_EQ(value.metadata->plugin_name, "graph_run_metadata_graph");
  EXPECT_EQ(value.metadata->plugin_content, "1");
  ASSERT_EQ(value.tensor->string_val.size(), 1u);
  std::vector<GraphDef> graphs = function_graphs(value.tensor->string_val[0]);
  ASSERT_EQ(graphs.size(), 1u);
  bool has_matmul = false;
  for (const NodeDef& n : graphs[0].node()) has_matmul |= n.op() == "MatMul";
  EXPECT_TRUE(has_matmul);
  // Tracing stopped: a second export is an error, and later runs are not recorded.
  EXPECT_THROW(trace_export("again", 1), FailedPreconditionError);
}

TEST_F(SummaryTraceTest, TraceExportWithoutWriterStopsTracing) {
  auto f = function([&](Tensor x) { return x * 3.0f; });
  trace_on();
  f(constant({1.f}));
  EXPECT_FALSE(trace_export("t", 0));
  EXPECT_THROW(trace_export("t", 0), FailedPreconditionError);
  trace_on();
  trace_on();  // already on: a warning, still on
  trace_off();
  EXPECT_THROW(trace_export("t", 0), FailedPreconditionError);
}

}  // namespace
}  // namespace tfcc::summary
