#include "tfcc/io/summary/event.h"

#include <gtest/gtest.h>

#include <cstring>

#include "tfcc/io/record/record_format.h"
#include "tfcc/platform/errors.h"

namespace tfcc::summary {
namespace {

std::string bytes(std::initializer_list<int> values) {
  std::string s;
  for (int v : values) s.push_back(static_cast<char>(v));
  return s;
}

SummaryValue tf2_scalar(const std::string& tag, float v) {
  SummaryValue value;
  value.tag = tag;
  value.tensor.emplace();
  value.tensor->dtype = kDtFloat;
  value.tensor->tensor_content.assign(reinterpret_cast<const char*>(&v), 4);
  value.metadata.emplace();
  value.metadata->plugin_name = "scalars";
  return value;
}

// formats.md §1.10, checked there with protoc against TensorBoard's own protos.
TEST(Event, GoldenFirstRecord) {
  Event e;
  e.wall_time = 1700000000.0;
  e.file_version = "brain.Event:2";
  std::string framed;
  io::internal::append_framed_record(framed, e.serialize());
  std::string expected =
      bytes({0x18, 0,    0,    0,    0,    0,    0,    0,    0xa3, 0x7f, 0x4b, 0x22,
             0x09, 0x00, 0x00, 0x00, 0x40, 0xfc, 0x54, 0xd9, 0x41, 0x1a, 0x0d}) +
      "brain.Event:2" + bytes({0xec, 0xed, 0x8f, 0x9d});
  EXPECT_EQ(framed, expected);
}

TEST(Event, GoldenTf2Scalar) {
  Event e;
  e.wall_time = 1700000001.25;
  e.step = 1;
  e.summary.push_back(tf2_scalar("loss", 0.5f));
  std::string expected = bytes({0x09, 0x00, 0x00, 0x50, 0x40, 0xfc, 0x54, 0xd9, 0x41, 0x10, 0x01,
                                0x2a, 0x21, 0x0a, 0x1f, 0x0a, 0x04}) +
                         "loss" +
                         bytes({0x42, 0x0a, 0x08, 0x01, 0x12, 0x00, 0x22, 0x04, 0x00, 0x00, 0x00,
                                0x3f, 0x4a, 0x0b, 0x0a, 0x09, 0x0a, 0x07}) +
                         "scalars";
  std::string payload = e.serialize();
  EXPECT_EQ(payload, expected);
  std::string framed;
  io::internal::append_framed_record(framed, payload);
  EXPECT_EQ(framed.substr(0, 12), bytes({0x2e, 0, 0, 0, 0, 0, 0, 0, 0xc5, 0xcb, 0x57, 0xfa}));
  EXPECT_EQ(framed.substr(framed.size() - 4), bytes({0x32, 0x28, 0x2f, 0x1c}));
}

TEST(Event, GoldenTf1Scalar) {
  Event e;
  e.wall_time = 1700000001.25;
  e.step = 1;
  SummaryValue v;
  v.tag = "loss";
  v.simple_value = 0.5f;
  e.summary.push_back(v);
  std::string expected = bytes({0x09, 0x00, 0x00, 0x50, 0x40, 0xfc, 0x54, 0xd9, 0x41, 0x10, 0x01,
                                0x2a, 0x0d, 0x0a, 0x0b, 0x0a, 0x04}) +
                         "loss" + bytes({0x15, 0x00, 0x00, 0x00, 0x3f});
  EXPECT_EQ(e.serialize(), expected);
}

TEST(Event, ParseInvertsSerialize) {
  Event e;
  e.wall_time = 1.5;
  e.step = -3;  // negative steps take ten varint bytes
  SummaryValue h;
  h.tag = "h";
  h.histo = HistogramProto{.min = -1,
                           .max = 2,
                           .num = 3,
                           .sum = 1,
                           .sum_squares = 5,
                           .bucket_limit = {0, 2},
                           .bucket = {1, 2}};
  e.summary.push_back(h);
  SummaryValue t;
  t.tag = "text";
  t.tensor.emplace();
  t.tensor->dtype = kDtString;
  t.tensor->shape = {2};
  t.tensor->string_val = {"a", std::string("b\0c", 3)};
  t.metadata = SummaryMetadata{.plugin_name = "text",
                               .plugin_content = "\x08\x01",
                               .display_name = "T",
                               .summary_description = "d",
                               .data_class = kDataClassTensor};
  e.summary.push_back(t);
  e.summary.push_back(tf2_scalar("s", 2.0f));
  Event back = Event::parse(e.serialize());
  EXPECT_EQ(back.wall_time, 1.5);
  EXPECT_EQ(back.step, -3);
  ASSERT_EQ(back.summary.size(), 3u);
  ASSERT_TRUE(back.summary[0].histo);
  EXPECT_EQ(back.summary[0].histo->bucket, (std::vector<double>{1, 2}));
  EXPECT_EQ(back.summary[0].histo->sum_squares, 5);
  EXPECT_EQ(back.summary[1].tensor->string_val, t.tensor->string_val);
  EXPECT_EQ(back.summary[1].tensor->shape, (std::vector<int64_t>{2}));
  EXPECT_EQ(back.summary[1].metadata->plugin_content, "\x08\x01");
  EXPECT_EQ(back.summary[1].metadata->data_class, kDataClassTensor);
  EXPECT_EQ(back.summary[1].metadata->summary_description, "d");
  EXPECT_EQ(back.summary[2].tensor->to_doubles(), (std::vector<double>{2.0}));
  EXPECT_EQ(back.serialize(), e.serialize());
  // graph_def, file_version and summary are a oneof: one per event.
  Event g;
  g.graph_def = std::string("\x0a\x00", 2);
  EXPECT_EQ(Event::parse(g.serialize()).graph_def, g.graph_def);
  g.file_version = "brain.Event:2";
  EXPECT_THROW(g.serialize(), InvalidArgumentError);
}

TEST(TensorProto, ToDoublesReadsContentOrRepeatedValues) {
  TensorProto t;
  t.dtype = kDtDouble;
  t.shape = {2, 3};
  double values[6] = {1, 2, 3, 4, 5, 6};
  t.tensor_content.assign(reinterpret_cast<const char*>(values), sizeof values);
  EXPECT_EQ(t.to_doubles(), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  t.tensor_content.resize(40);  // five values for six elements
  EXPECT_THROW(t.to_doubles(), DataLossError);
  TensorProto f;
  f.dtype = kDtFloat;
  f.float_val = {0.25f};
  EXPECT_EQ(f.to_doubles(), (std::vector<double>{0.25}));  // scalar
  f.shape = {3};
  EXPECT_EQ(f.to_doubles(), (std::vector<double>{0.25, 0.25, 0.25}));  // TF fills with the last
  TensorProto s;
  s.dtype = kDtString;
  EXPECT_THROW(s.to_doubles(), DataLossError);
  TensorProto huge;
  huge.dtype = kDtFloat;
  huge.shape = {int64_t{1} << 40, int64_t{1} << 40};
  EXPECT_THROW(huge.to_doubles(), DataLossError);
}

TEST(Event, MalformedPayloadIsDataLoss) {
  std::string good = [] {
    Event e;
    e.step = 5;
    e.summary.push_back(tf2_scalar("loss", 1.0f));
    return e.serialize();
  }();
  for (size_t cut = 1; cut < good.size(); ++cut) {
    // Every prefix either parses (it ended between fields) or raises DataLossError.
    try {
      Event::parse(good.substr(0, cut));
    } catch (const DataLossError&) {
    }
  }
  EXPECT_THROW(Event::parse(good.substr(0, good.size() - 1)), DataLossError);
}

}  // namespace
}  // namespace tfcc::summary
