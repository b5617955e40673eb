#include "tfcc/io/summary/graph_export.h"

#include <gtest/gtest.h>

#include "tests/unit/io/summary/summary_test_util.h"
#include "tfcc/io/proto/graph.pb.h"
#include "tfcc/io/proto/message_io.h"
#include "tfcc/io/summary/summary.h"
#include "tfcc/tfcc.h"

namespace tfcc::summary {
namespace {

GraphDef parse_graph(std::string_view bytes) {
  GraphDef g;
  io::proto::parse(g, bytes, "test");
  return g;
}

std::vector<int64_t> dims(const tensorflow::TensorShapeProto& s) {
  std::vector<int64_t> out;
  for (const auto& d : s.dim()) out.push_back(d.size());
  return out;
}

std::vector<std::string> inputs(const NodeDef& n) { return {n.input().begin(), n.input().end()}; }

const NodeDef* find(const GraphDef& g, const std::string& op) {
  for (const auto& n : g.node()) {
    if (n.op() == op) return &n;
  }
  return nullptr;
}

TEST(GraphExport, TracedFunctionBecomesAGraphDef) {
  Variable w(Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, Shape{2, 3}), {.name = "dense/kernel"});
  auto f = tfcc::function([&](Tensor x) { return tfcc::relu(tfcc::matmul(x, w)); });
  auto concrete = f.get_concrete_function(TensorSpec{{-1, 2}, float32});
  GraphDef g = to_graph_def(concrete.graph());

  const NodeDef* arg = find(g, "Placeholder");
  ASSERT_NE(arg, nullptr);
  EXPECT_EQ(arg->attr().at("dtype").type(), tensorflow::DT_FLOAT);
  EXPECT_EQ(dims(arg->attr().at("_output_shapes").list().shape(0)), (std::vector<int64_t>{-1, 2}));
  const NodeDef* matmul = find(g, "MatMul");
  ASSERT_NE(matmul, nullptr);
  ASSERT_EQ(matmul->input_size(), 2);
  EXPECT_EQ(matmul->input(0), arg->name());
  EXPECT_EQ(dims(matmul->attr().at("_output_shapes").list().shape(0)),
            (std::vector<int64_t>{-1, 3}));
  EXPECT_EQ(matmul->attr().at("T").type(), tensorflow::DT_FLOAT);
  const NodeDef* relu = find(g, "Relu");
  ASSERT_NE(relu, nullptr);
  EXPECT_EQ(inputs(*relu), (std::vector<std::string>{matmul->name()}));
  const NodeDef* out = find(g, "Identity");
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(inputs(*out), (std::vector<std::string>{relu->name()}));
  // Every input names a node of the graph (TensorBoard draws the edge from it).
  std::set<std::string> names;
  for (const auto& n : g.node()) {
    EXPECT_TRUE(names.insert(n.name()).second) << "duplicate " << n.name();
  }
  for (const auto& n : g.node()) {
    for (std::string in : n.input()) {
      if (in[0] == '^') in = in.substr(1);
      in = in.substr(0, in.find(':'));
      EXPECT_TRUE(names.count(in)) << n.name() << " reads missing " << in;
    }
  }
  // It survives serialisation.
  EXPECT_EQ(parse_graph(io::proto::serialize(g)).node_size(), g.node_size());
}

TEST(GraphExport, BranchesBecomeNameScopes) {
  auto f = tfcc::function([](Tensor x) {
    return tfcc::cond(
        tfcc::reduce_sum(x) > 0.0f, [&] { return x * 2.0f; }, [&] { return -x; });
  });
  auto concrete = f.get_concrete_function(TensorSpec{{3}, float32});
  GraphDef g = to_graph_def(concrete.graph());
  const NodeDef* if_node = find(g, "If");
  ASSERT_NE(if_node, nullptr);
  bool then_scope = false, else_scope = false;
  for (const auto& n : g.node()) {
    then_scope = then_scope || n.name().starts_with(if_node->name() + "/then/");
    else_scope = else_scope || n.name().starts_with(if_node->name() + "/else/");
  }
  EXPECT_TRUE(then_scope);
  EXPECT_TRUE(else_scope);
}

using GraphExportWriterTest = testing::TempDirTest;

TEST_F(GraphExportWriterTest, GraphOfATracedFunctionIsWritten) {
  auto f = tfcc::function([](Tensor x) { return x * 2.0f; });
  auto concrete = f.get_concrete_function(TensorSpec{{2}, float32});
  EXPECT_FALSE(graph(concrete.graph()));
  auto writer = create_file_writer(path("run"));
  {
    auto scope = writer.as_default();
    EXPECT_TRUE(graph(concrete.graph()));
  }
  auto events = read_events(writer.path());
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(parse_graph(events[1].graph_def).node_size(),
            to_graph_def(concrete.graph()).node_size());
}

}  // namespace
}  // namespace tfcc::summary
