// parse_single_example in the input pipeline (Dataset::map over a TFRecordDataset, sequential
// and parallel) and inside tfcc::function (one ParseExampleV2 host node).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "tfcc/data/tfrecord.h"
#include "tfcc/graph/graph.h"
#include "tfcc/io/example/parse_example.h"
#include "tfcc/io/record/record_writer.h"
#include "tfcc/ops/operators.h"
#include "tfcc/platform/errors.h"

namespace tfcc::io {
namespace {

const FeatureSpecs& spec() {
  static const FeatureSpecs s{{"x", FixedLenFeature{.shape = {2}, .dtype = float32}},
                              {"y", FixedLenFeature{.dtype = int64}},
                              {"name", FixedLenFeature{.dtype = uint8}},
                              {"tags", VarLenFeature{.dtype = int64}}};
  return s;
}

Example example(int i) {
  std::vector<int64_t> tags(static_cast<size_t>(i % 3), i);
  return Example{}
      .set("x", Feature::floats({static_cast<float>(i), -0.5f * static_cast<float>(i)}))
      .set("y", Feature::int64s({i * 10}))
      .set("name", Feature::bytes({"rec" + std::to_string(i)}))
      .set("tags", Feature::int64s(tags));
}

class ParseExamplePipeline : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (std::filesystem::temp_directory_path() /
             ("tfcc_parse_example_pipeline_" + std::to_string(::getpid()) + ".tfrecord"))
                .string();
    TFRecordWriter writer(path_);
    for (int i = 0; i < 10; ++i) writer.write(example(i).serialize());
  }
  void TearDown() override { std::filesystem::remove(path_); }
  std::string path_;
};

TEST_F(ParseExamplePipeline, MapsATFRecordDatasetThroughParseSingleExample) {
  for (int64_t calls : {int64_t{0}, int64_t{3}}) {
    data::Dataset ds = data::tfrecord_dataset({path_}).map(
        [](Tensor record) {
          ParsedExample f = parse_single_example(record, spec());
          return std::tuple{f.at("x").values, f.at("y").values, f.at("name").values,
                            f.at("tags").values};
        },
        {.num_parallel_calls = calls,
         .output_spec = data::ElementSpec{{float32, PartialShape{2}},
                                          {int64, PartialShape(std::vector<int64_t>{})},
                                          {uint8, PartialShape{-1}},
                                          {int64, PartialShape{-1}}}});
    int i = 0;
    for (const data::Element& e : ds) {
      EXPECT_EQ(e[0].to_vector<float>(),
                (std::vector<float>{static_cast<float>(i), -0.5f * static_cast<float>(i)}));
      EXPECT_EQ(e[1].item<int64_t>(), i * 10);
      EXPECT_EQ(data::tensor_bytes(e[2]), "rec" + std::to_string(i));
      EXPECT_EQ(e[3].num_elements(), i % 3);
      ++i;
    }
    EXPECT_EQ(i, 10);
    // Batching the parsed features: (4, 2) floats and (4,) labels.
    data::Dataset batched = data::tfrecord_dataset({path_})
                                .map([](Tensor record) {
                                  ParsedExample f = parse_single_example(record, spec());
                                  return std::tuple{f.at("x").values, f.at("y").values};
                                })
                                .batch(4);
    std::vector<int64_t> labels;
    for (const data::Element& b : batched) {
      EXPECT_EQ(b[0].shape().dim(1), 2);
      for (int64_t y : b[1].to_vector<int64_t>()) labels.push_back(y);
    }
    EXPECT_EQ(labels, (std::vector<int64_t>{0, 10, 20, 30, 40, 50, 60, 70, 80, 90}));
  }
}

TEST_F(ParseExamplePipeline, ABadRecordInTheMapRaisesTheParseError) {
  {
    TFRecordWriter writer(path_);
    writer.write(example(1).serialize());
    writer.write(Example{}.set("x", Feature::int64s({1, 2})).serialize());
  }
  data::Dataset ds = data::tfrecord_dataset({path_}).map([](Tensor record) {
    return parse_single_example(record, {{"x", spec().at("x")}}).at("x").values;
  });
  int parsed = 0;
  try {
    for (const data::Element& e : ds) parsed += static_cast<int>(e.size());
    FAIL() << "the int64 feature parsed as float32";
  } catch (const InvalidArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("feature 'x': data types don't match"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(parsed, 1);
}

TEST_F(ParseExamplePipeline, ParsesInsideATracedFunction) {
  auto f = function(
      [](Tensor record) {
        ParsedExample p = parse_single_example(record, spec());
        EXPECT_TRUE(p.at("x").values.is_symbolic());
        EXPECT_EQ(p.at("x").values.partial_shape(), PartialShape({2}));
        EXPECT_EQ(p.at("tags").indices.partial_shape(), PartialShape({-1, 1}));
        return std::tuple{p.at("x").values * 2.0f, p.at("y").values, p.at("name").values,
                          p.at("name").byte_splits, p.at("tags").dense_shape};
      },
      {.name = "parse",
       .input_signature = std::vector<TensorSpec>{{PartialShape{-1}, uint8, "record"}}});
  for (int i : {3, 5}) {
    const std::string rec = example(i).serialize();
    auto [x2, y, name, splits, tags_shape] = f(
        Tensor::from_bytes(uint8, Shape{static_cast<int64_t>(rec.size())}, rec.data(), rec.size()));
    EXPECT_EQ(x2.to_vector<float>(), (std::vector<float>{2.0f * i, -1.0f * i}));
    EXPECT_EQ(y.item<int64_t>(), i * 10);
    EXPECT_EQ(data::tensor_bytes(name), "rec" + std::to_string(i));
    EXPECT_EQ(splits.to_vector<int64_t>(), (std::vector<int64_t>{0, 4}));
    EXPECT_EQ(tags_shape.to_vector<int64_t>(), (std::vector<int64_t>{i % 3}));
  }
  const std::string text =
      f.get_concrete_function(TensorSpec{PartialShape{-1}, uint8, "record"}).graph().to_string();
  EXPECT_NE(text.find("ParseExampleV2"), std::string::npos) << text;
  const std::string bad = Example{}.set("y", Feature::floats({1})).serialize();
  EXPECT_THROW(
      f(Tensor::from_bytes(uint8, Shape{static_cast<int64_t>(bad.size())}, bad.data(), bad.size())),
      InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::io
