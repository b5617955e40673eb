// io::Example / SequenceExample: the bytes TensorFlow writes (tf_interop_formats.md §7), round
// trips through serialize / parse and TFRecord files.
#include "tfcc/io/example/example.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "tfcc/io/record/record_reader.h"
#include "tfcc/io/record/record_writer.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/platform/errors.h"

namespace tfcc::io {
namespace {

std::string hex_bytes(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size();) {
    if (hex[i] == ' ' || hex[i] == '\n') {
      ++i;
      continue;
    }
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    i += 2;
  }
  return out;
}

// Example{a: int64 [1,300,-1], b: float [0.5,2.0], c: bytes ["hi"]} as TensorFlow writes it.
const char* kExampleHex =
    "0a 38 0a 16 0a 01 61 12 11 1a 0f 0a 0d 01 ac 02 ff ff ff ff ff ff ff ff ff 01 "
    "0a 11 0a 01 62 12 0c 12 0a 0a 08 00 00 00 3f 00 00 00 40 "
    "0a 0b 0a 01 63 12 06 0a 04 0a 02 68 69";

TEST(Example, SerialisesToTensorFlowsBytes) {
  Example ex;
  ex.set("c", Feature::bytes({"hi"}))
      .set("a", Feature::int64s({1, 300, -1}))
      .set("b", Feature::floats({0.5f, 2.0f}));
  EXPECT_EQ(ex.serialize(), hex_bytes(kExampleHex));
  EXPECT_EQ(Example::parse(hex_bytes(kExampleHex)), ex);
}

TEST(Example, SequenceExampleSerialisesToTensorFlowsBytes) {
  SequenceExample s;
  s.context["len"] = Feature::int64s({2});
  s.feature_lists["tok"] = {Feature::int64s({7}), Feature::int64s({8, 9})};
  const std::string golden = hex_bytes(
      "0a 0e 0a 0c 0a 03 6c 65 6e 12 05 1a 03 0a 01 02 12 18 0a 16 0a 03 74 6f 6b 12 0f 0a 05 1a "
      "03 0a 01 07 0a 06 1a 04 0a 02 08 09");
  EXPECT_EQ(s.serialize(), golden);
  EXPECT_EQ(SequenceExample::parse(golden), s);
}

TEST(Example, FeatureFromTensorKeepsRowMajorValues) {
  Feature f = Feature::from_tensor(Tensor::from_vector<float>({1, 2, 3, 4}, Shape{2, 2}));
  EXPECT_EQ(f.kind(), Feature::Kind::kFloat);
  EXPECT_EQ(f.float_list(), (std::vector<float>{1, 2, 3, 4}));
  Feature i = Feature::from_tensor(Tensor::from_vector<int32_t>({5, -6}));
  EXPECT_EQ(i.kind(), Feature::Kind::kInt64);
  EXPECT_EQ(i.int64_list(), (std::vector<int64_t>{5, -6}));
  EXPECT_EQ(Feature::from_tensor(Tensor::scalar<bool>(true)).int64_list(),
            (std::vector<int64_t>{1}));
  EXPECT_EQ(Feature().kind(), Feature::Kind::kNone);
  EXPECT_EQ(Feature().size(), 0);
  EXPECT_THROW(Feature::from_tensor(Tensor()), InvalidArgumentError);
}

TEST(Example, EmptyFeaturesAndBinaryBytesRoundTrip) {
  Example ex;
  ex.set("none", Feature())
      .set("empty_floats", Feature::floats({}))
      .set("blob", Feature::bytes({std::string("\0\xff\x80", 3), ""}));
  Example back = Example::parse(ex.serialize());
  EXPECT_EQ(back, ex);
  EXPECT_EQ(back.features.at("empty_floats").kind(), Feature::Kind::kFloat);
}

TEST(Example, MalformedBytesAreDataLossNamingTheSource) {
  std::string good = hex_bytes(kExampleHex);
  try {
    Example::parse(good.substr(0, 30), "train.tfrecord record 4");
    FAIL() << "a truncated Example parsed";
  } catch (const DataLossError& e) {
    EXPECT_NE(std::string(e.what()).find("train.tfrecord record 4"), std::string::npos) << e.what();
  }
  EXPECT_THROW(SequenceExample::parse("\x0a\x05\x01"), DataLossError);
}

TEST(Example, RoundTripsThroughATFRecordFile) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("tfcc_example_test_" + std::to_string(::getpid()) + ".tfrecord"))
                               .string();
  std::vector<Example> written;
  {
    TFRecordWriter writer(path, "GZIP");
    for (int i = 0; i < 5; ++i) {
      Example ex;
      ex.set("x", Feature::floats({static_cast<float>(i), 0.25f * static_cast<float>(i)}))
          .set("y", Feature::int64s({i}))
          .set("id", Feature::bytes({"row" + std::to_string(i)}));
      writer.write(ex.serialize());
      written.push_back(ex);
    }
  }
  TFRecordReader reader(path, {.compression_type = "GZIP"});
  std::string record;
  size_t n = 0;
  while (reader.read_next(record)) {
    ASSERT_LT(n, written.size());
    EXPECT_EQ(Example::parse(record), written[n++]);
  }
  EXPECT_EQ(n, written.size());
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace tfcc::io
