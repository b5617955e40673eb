// The generated classes against bytes TensorFlow writes, as given (and checked with protoc and
// TensorFlow) in shared/research: formats.md §1.10 and §4.2, tf_interop_formats.md §7. Each
// parses to the documented fields and, where the encoding is deterministic, serialises back to
// the same bytes. Also the limits io::proto::parse puts on untrusted bytes.
#include <gtest/gtest.h>

#include <cstring>

#include "tfcc/io/proto/example.pb.h"
#include "tfcc/io/proto/message_io.h"
#include "tfcc/io/proto/summary.pb.h"
#include "tfcc/io/proto/tensor_bundle.pb.h"
#include "tfcc/platform/errors.h"

namespace tfcc::io::proto {
namespace {

// "0a 01 61" -> the three bytes; text between quotes is taken literally.
std::string bytes(std::string_view spec) {
  std::string out;
  for (size_t i = 0; i < spec.size();) {
    if (spec[i] == ' ' || spec[i] == '\n') {
      ++i;
    } else if (spec[i] == '"') {
      size_t end = spec.find('"', i + 1);
      out.append(spec.substr(i + 1, end - i - 1));
      i = end + 1;
    } else {
      out.push_back(static_cast<char>(std::stoi(std::string(spec.substr(i, 2)), nullptr, 16)));
      i += 2;
    }
  }
  return out;
}

template <typename M>
M parsed(const std::string& b) {
  M m;
  parse(m, b, "test");
  return m;
}

TEST(WireCompat, EventFirstRecord) {
  std::string b = bytes(R"(09 00 00 00 40 fc 54 d9 41 1a 0d "brain.Event:2")");
  auto e = parsed<tensorflow::Event>(b);
  EXPECT_EQ(e.wall_time(), 1700000000.0);
  EXPECT_EQ(e.step(), 0);
  EXPECT_EQ(e.file_version(), "brain.Event:2");
  EXPECT_EQ(serialize(e), b);
}

TEST(WireCompat, EventTf2Scalar) {
  std::string b = bytes(
      R"(09 00 00 50 40 fc 54 d9 41 10 01 2a 21 0a 1f 0a 04 "loss" 42 0a 08 01 12 00 22 04 00 00 00 3f
         4a 0b 0a 09 0a 07 "scalars")");
  auto e = parsed<tensorflow::Event>(b);
  EXPECT_EQ(e.wall_time(), 1700000001.25);
  EXPECT_EQ(e.step(), 1);
  ASSERT_EQ(e.summary().value_size(), 1);
  const tensorflow::Summary::Value& v = e.summary().value(0);
  EXPECT_EQ(v.tag(), "loss");
  ASSERT_TRUE(v.has_tensor());
  EXPECT_EQ(v.tensor().dtype(), tensorflow::DT_FLOAT);
  EXPECT_TRUE(v.tensor().has_tensor_shape());  // the empty shape of a scalar is written
  EXPECT_EQ(v.tensor().tensor_shape().dim_size(), 0);
  float value;
  ASSERT_EQ(v.tensor().tensor_content().size(), sizeof value);
  std::memcpy(&value, v.tensor().tensor_content().data(), sizeof value);
  EXPECT_EQ(value, 0.5f);
  EXPECT_EQ(v.metadata().plugin_data().plugin_name(), "scalars");
  EXPECT_EQ(serialize(e), b);
}

TEST(WireCompat, EventTf1Scalar) {
  std::string b =
      bytes(R"(09 00 00 50 40 fc 54 d9 41 10 01 2a 0d 0a 0b 0a 04 "loss" 15 00 00 00 3f)");
  auto e = parsed<tensorflow::Event>(b);
  ASSERT_EQ(e.summary().value_size(), 1);
  EXPECT_TRUE(e.summary().value(0).has_simple_value());
  EXPECT_EQ(e.summary().value(0).simple_value(), 0.5f);
  EXPECT_EQ(serialize(e), b);
}

TEST(WireCompat, TwoNodeGraphDef) {
  std::string b = bytes(
      R"(0a 1d 0a 01 "x" 12 0b "Placeholder" 2a 0b 0a 05 "dtype" 12 02 30 01
         0a 27 0a 0c "dense/MatMul" 12 06 "MatMul" 1a 01 "x" 1a 0c "dense/kernel")");
  auto g = parsed<tensorflow::GraphDef>(b);
  ASSERT_EQ(g.node_size(), 2);
  EXPECT_EQ(g.node(0).op(), "Placeholder");
  EXPECT_EQ(g.node(0).attr().at("dtype").type(), tensorflow::DT_FLOAT);
  EXPECT_EQ(g.node(1).name(), "dense/MatMul");
  EXPECT_EQ(g.node(1).input(1), "dense/kernel");
  EXPECT_EQ(serialize(g), b);
}

// A float32 [2] entry of a checkpoint index (the golden index of bundle_test.cc).
TEST(WireCompat, BundleEntry) {
  std::string b = bytes("08 01 12 04 12 02 08 02 28 08 35 59 3c e5 35");
  auto e = parsed<tensorflow::BundleEntryProto>(b);
  EXPECT_EQ(e.dtype(), tensorflow::DT_FLOAT);
  ASSERT_EQ(e.shape().dim_size(), 1);
  EXPECT_EQ(e.shape().dim(0).size(), 2);
  EXPECT_EQ(e.size(), 8);
  EXPECT_EQ(e.crc32c(), 0x35e53c59u);
  EXPECT_EQ(serialize(e), b);
  auto h = parsed<tensorflow::BundleHeaderProto>(bytes("08 01 1a 02 08 01"));
  EXPECT_EQ(h.num_shards(), 1);
  EXPECT_EQ(h.version().producer(), 1);
}

TEST(WireCompat, Example) {
  std::string b = bytes(
      R"(0a 38 0a 16 0a 01 61 12 11 1a 0f 0a 0d 01 ac 02 ff ff ff ff ff ff ff ff ff 01
         0a 11 0a 01 62 12 0c 12 0a 0a 08 00 00 00 3f 00 00 00 40
         0a 0b 0a 01 63 12 06 0a 04 0a 02 68 69)");
  ASSERT_EQ(b.size(), 58u);
  auto ex = parsed<tensorflow::Example>(b);
  const auto& f = ex.features().feature();
  ASSERT_EQ(f.size(), 3u);
  const auto& a = f.at("a").int64_list().value();
  EXPECT_EQ(std::vector<int64_t>(a.begin(), a.end()), (std::vector<int64_t>{1, 300, -1}));
  const auto& fl = f.at("b").float_list().value();
  EXPECT_EQ(std::vector<float>(fl.begin(), fl.end()), (std::vector<float>{0.5f, 2.0f}));
  ASSERT_EQ(f.at("c").bytes_list().value_size(), 1);
  EXPECT_EQ(f.at("c").bytes_list().value(0), "hi");
  EXPECT_EQ(serialize(ex), b);  // map entries sorted by key, as TensorFlow writes them
}

TEST(WireCompat, SequenceExample) {
  std::string b = bytes(
      "0a 0e 0a 0c 0a 03 6c 65 6e 12 05 1a 03 0a 01 02 12 18 0a 16 0a 03 74 6f 6b 12 0f 0a 05 1a "
      "03 0a 01 07 0a 06 1a 04 0a 02 08 09");
  ASSERT_EQ(b.size(), 42u);
  auto s = parsed<tensorflow::SequenceExample>(b);
  EXPECT_EQ(s.context().feature().at("len").int64_list().value(0), 2);
  const auto& tok = s.feature_lists().feature_list().at("tok").feature();
  ASSERT_EQ(tok.size(), 2);
  EXPECT_EQ(tok[0].int64_list().value_size(), 1);
  EXPECT_EQ(tok[1].int64_list().value(1), 9);
  EXPECT_EQ(serialize(s), b);
}

// Readers accept the unpacked encoding of a packed field too (tf_interop_formats.md §7).
TEST(WireCompat, UnpackedRepeatedFieldsAreRead) {
  auto l = parsed<tensorflow::Int64List>(bytes("08 01 08 ac 02"));
  EXPECT_EQ(std::vector<int64_t>(l.value().begin(), l.value().end()),
            (std::vector<int64_t>{1, 300}));
  EXPECT_EQ(serialize(l), bytes("0a 03 01 ac 02"));  // written packed
}

TEST(MessageIo, MalformedBytesAreDataLossNamingTheSource) {
  std::string good = bytes(R"(09 00 00 00 40 fc 54 d9 41 1a 0d "brain.Event:2")");
  tensorflow::Event e;
  for (const std::string& bad : {good.substr(0, good.size() - 1), bytes("0a 05 61"), bytes("08 ff"),
                                 bytes("0b"), bytes("00 01"), std::string(11, '\xff')}) {
    try {
      parse(e, bad, "run/events.out.tfevents.1");
      ADD_FAILURE() << "accepted " << bad.size() << " malformed bytes";
    } catch (const DataLossError& err) {
      EXPECT_NE(std::string(err.what()).find("run/events.out.tfevents.1: malformed Event"),
                std::string::npos)
          << err.what();
    }
  }
}

// AttrValue -> ListValue -> NameAttrList -> AttrValue ... nests without bound in the schema;
// parsing stops at kMaxNestingDepth instead of recursing as deep as the bytes say.
TEST(MessageIo, NestingIsBounded) {
  auto nested = [](int levels) {
    tensorflow::AttrValue root;
    tensorflow::AttrValue* a = &root;
    for (int i = 0; i < levels; ++i) a = &(*a->mutable_func()->mutable_attr())["x"];
    a->set_i(7);
    return serialize(root);
  };
  tensorflow::AttrValue back;
  EXPECT_NO_THROW(parse(back, nested(10), "shallow"));  // 3 messages per level
  EXPECT_THROW(parse(back, nested(200), "deep"), DataLossError);
}

}  // namespace
}  // namespace tfcc::io::proto
