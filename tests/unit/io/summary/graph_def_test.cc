#include "tfcc/io/summary/graph_def.h"

#include <gtest/gtest.h>

#include "tests/unit/io/summary/summary_test_util.h"
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
  g.node.push_back(
      {.name = "x", .op = "Placeholder", .attr = {{"dtype", AttrValue::type_of(kDtFloat)}}});
  g.node.push_back({.name = "dense/MatMul", .op = "MatMul", .input = {"x", "dense/kernel"}});
  return g;
}

// formats.md §1.10: checked there with protoc against TensorBoard's own graph protos.
TEST(GraphDef, GoldenTwoNodeGraph) {
  std::string expected = bytes({0x0a, 0x1d, 0x0a, 0x01}) + "x" + bytes({0x12, 0x0b}) +
                         "Placeholder" + bytes({0x2a, 0x0b, 0x0a, 0x05}) + "dtype" +
                         bytes({0x12, 0x02, 0x30, 0x01, 0x0a, 0x27, 0x0a, 0x0c}) + "dense/MatMul" +
                         bytes({0x12, 0x06}) + "MatMul" + bytes({0x1a, 0x01}) + "x" +
                         bytes({0x1a, 0x0c}) + "dense/kernel";
  std::string got = two_nodes().serialize();
  EXPECT_EQ(got, expected);
  EXPECT_EQ(got.size(), 0x48u);
}

TEST(GraphDef, EveryAttributeKindRoundTrips) {
  NodeDef n{.name = "scope/op", .op = "Custom", .input = {"a:1", "^b"}, .device = "/cpu:0"};
  n.attr["s"] = AttrValue::string("text");
  n.attr["i"] = AttrValue::integer(-5);
  n.attr["f"] = AttrValue::floating(0.5f);
  n.attr["b"] = AttrValue::boolean(false);  // a oneof default is still written
  n.attr["T"] = AttrValue::type_of(kDtDouble);
  n.attr["shape"] = AttrValue::shape_of({.dims = {-1, 3}});
  n.attr["ranks"] = AttrValue::shape_of({.unknown_rank = true});
  n.attr["strides"] = AttrValue::int_list({1, 2, 2, 1});
  n.attr["scales"] = AttrValue::float_list({0.25f});
  n.attr["names"] = AttrValue::string_list({"p", "q"});
  n.attr["Tout"] = AttrValue::type_list({kDtFloat, kDtInt64});
  n.attr["_output_shapes"] = AttrValue::shape_list({{.dims = {2, 3}}, {.dims = {}}});
  GraphDef g;
  g.node.push_back(n);
  g.producer = 1234;
  GraphDef back = GraphDef::parse(g.serialize());
  ASSERT_EQ(back.node.size(), 1u);
  const NodeDef& m = back.node[0];
  EXPECT_EQ(back.producer, 1234);
  EXPECT_EQ(m.input, n.input);
  EXPECT_EQ(m.device, "/cpu:0");
  EXPECT_EQ(m.attr.at("s").s, "text");
  EXPECT_EQ(m.attr.at("i").i, -5);
  EXPECT_EQ(m.attr.at("f").f, 0.5f);
  EXPECT_EQ(m.attr.at("b").kind, AttrValue::Kind::kBool);
  EXPECT_FALSE(m.attr.at("b").b);
  EXPECT_EQ(m.attr.at("T").type, kDtDouble);
  EXPECT_EQ(m.attr.at("shape").shape.dims, (std::vector<int64_t>{-1, 3}));
  EXPECT_TRUE(m.attr.at("ranks").shape.unknown_rank);
  EXPECT_EQ(m.attr.at("strides").ints, (std::vector<int64_t>{1, 2, 2, 1}));
  EXPECT_EQ(m.attr.at("scales").floats, (std::vector<float>{0.25f}));
  EXPECT_EQ(m.attr.at("names").strings, (std::vector<std::string>{"p", "q"}));
  EXPECT_EQ(m.attr.at("Tout").types, (std::vector<int>{kDtFloat, kDtInt64}));
  ASSERT_EQ(m.attr.at("_output_shapes").shapes.size(), 2u);
  EXPECT_EQ(m.attr.at("_output_shapes").shapes[0].dims, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(back.serialize(), g.serialize());
}

TEST(GraphDef, MalformedBytesAreDataLoss) {
  std::string good = two_nodes().serialize();
  EXPECT_THROW(GraphDef::parse(good.substr(0, good.size() - 3)), DataLossError);
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
  EXPECT_EQ(events[1].graph_def, two_nodes().serialize());
  EXPECT_EQ(GraphDef::parse(events[1].graph_def).node[1].name, "dense/MatMul");
}

}  // namespace
}  // namespace tfcc::summary
