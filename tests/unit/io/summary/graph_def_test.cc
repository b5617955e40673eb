#include "tfcc/io/summary/graph_def.h"

#include <gtest/gtest.h>

#include "tests/unit/io/summary/summary_test_util.h"
#include "tfcc/io/proto/graph.pb.h"
#include "tfcc/io/proto/message_io.h"
#include "tfcc/io/summary/event_file_reader.h"
#include "tfcc/io/summary/summary.h"
#include "tfcc/platform/errors.h"

namespace tfcc::summary {
namespace {

std::string bytes(std::initializer_list<int> values) {
  std::string s;
  for (int v : values) s.push_back(static_cast<char>(v));
  return s;
}

GraphDef two_nodes() {
  GraphDef g;
  NodeDef* x = g.add_node();
  x->set_name("x");
  x->set_op("Placeholder");
  (*x->mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
  NodeDef* matmul = g.add_node();
  matmul->set_name("dense/MatMul");
  matmul->set_op("MatMul");
  // std::string, not const char*: GCC 12 at -O3 warns falsely (-Wrestrict) on the char* overload.
  for (std::string in : {"x", "dense/kernel"}) matmul->add_input(std::move(in));
  return g;
}

GraphDef parse_graph(std::string_view bytes) {
  GraphDef g;
  io::proto::parse(g, bytes, "test");
  return g;
}

// formats.md §1.10: checked there with protoc against TensorBoard's own graph protos.
TEST(GraphDef, GoldenTwoNodeGraph) {
  std::string expected = bytes({0x0a, 0x1d, 0x0a, 0x01}) + "x" + bytes({0x12, 0x0b}) +
                         "Placeholder" + bytes({0x2a, 0x0b, 0x0a, 0x05}) + "dtype" +
                         bytes({0x12, 0x02, 0x30, 0x01, 0x0a, 0x27, 0x0a, 0x0c}) + "dense/MatMul" +
                         bytes({0x12, 0x06}) + "MatMul" + bytes({0x1a, 0x01}) + "x" +
                         bytes({0x1a, 0x0c}) + "dense/kernel";
  std::string got = io::proto::serialize(two_nodes());
  EXPECT_EQ(got, expected);
  EXPECT_EQ(got.size(), 0x48u);
}

// Attributes are written sorted by name whatever the insertion order, so equal graphs give equal
// bytes (TensorBoard and tests compare them).
TEST(GraphDef, AttributesAreSerialisedInKeyOrder) {
  NodeDef a, b;
  for (const char* k : {"z", "a", "m"}) (*a.mutable_attr())[k].set_i(1);
  for (const char* k : {"m", "z", "a"}) (*b.mutable_attr())[k].set_i(1);
  std::string bytes_a = io::proto::serialize(a);
  EXPECT_EQ(bytes_a, io::proto::serialize(b));
  EXPECT_LT(bytes_a.find('a'), bytes_a.find('m'));
  EXPECT_LT(bytes_a.find('m'), bytes_a.find('z'));
}

TEST(GraphDef, MalformedBytesAreDataLoss) {
  std::string good = io::proto::serialize(two_nodes());
  EXPECT_THROW(parse_graph(good.substr(0, good.size() - 3)), DataLossError);
}

using GraphSummaryTest = testing::TempDirTest;

TEST_F(GraphSummaryTest, GraphIsWrittenAsEventGraphDefAtStepZero) {
  EXPECT_FALSE(graph(two_nodes()));  // no default writer
  auto writer = create_file_writer(path("run"));
  {
    auto scope = writer.as_default(5);
    EXPECT_TRUE(graph(two_nodes()));
  }
  auto events = read_events(writer.path());
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].step, 0);
  EXPECT_FALSE(events[1].has_summary);
  EXPECT_EQ(events[1].graph_def, io::proto::serialize(two_nodes()));
  EXPECT_EQ(parse_graph(events[1].graph_def).node(1).name(), "dense/MatMul");
}

}  // namespace
}  // namespace tfcc::summary
