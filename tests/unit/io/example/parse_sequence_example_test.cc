// parse_single_sequence_example: context and feature lists as TensorFlow 2.21 parses them.
#include <gtest/gtest.h>

#include "tfcc/io/example/parse_example.h"
#include "tfcc/platform/errors.h"

namespace tfcc::io {
namespace {

std::string sequence_record() {
  SequenceExample s;
  s.context["len"] = Feature::int64s({2});
  s.feature_lists["tok"] = {Feature::int64s({7}), Feature::int64s({8, 9})};
  s.feature_lists["x"] = {Feature::floats({1, 2}), Feature::floats({3, 4}),
                          Feature::floats({5, 6})};
  s.feature_lists["w"] = {Feature::bytes({"a"}), Feature::bytes({"bc"})};
  return s.serialize();
}

TEST(ParseSequenceExample, ContextAndFeatureLists) {
  ParsedSequenceExample p =
      parse_single_sequence_example(sequence_record(), {{"len", FixedLenFeature{.dtype = int64}}},
                                    {{"tok", VarLenFeature{.dtype = int64}},
                                     {"x", FixedLenSequenceFeature{.shape = {2}, .dtype = float32}},
                                     {"w", FixedLenSequenceFeature{.dtype = uint8}}});
  EXPECT_EQ(p.context.at("len").values.item<int64_t>(), 2);
  const ParsedFeature& tok = p.feature_lists.at("tok");
  EXPECT_EQ(tok.indices.to_vector<int64_t>(), (std::vector<int64_t>{0, 0, 1, 0, 1, 1}));
  EXPECT_EQ(tok.values.to_vector<int64_t>(), (std::vector<int64_t>{7, 8, 9}));
  EXPECT_EQ(tok.dense_shape.to_vector<int64_t>(), (std::vector<int64_t>{2, 2}));
  const ParsedFeature& x = p.feature_lists.at("x");
  EXPECT_EQ(x.values.shape().dims(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(x.values.to_vector<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(p.feature_lists.at("w").strings(), (std::vector<std::string>{"a", "bc"}));
  EXPECT_EQ(p.feature_lists.at("w").shape, PartialShape({2}));
}

TEST(ParseSequenceExample, MissingLists) {
  ParsedSequenceExample p = parse_single_sequence_example(
      sequence_record(), {},
      {{"y", FixedLenSequenceFeature{.shape = {2}, .allow_missing = true}},
       {"v", VarLenFeature{}}});
  EXPECT_EQ(p.feature_lists.at("y").values.shape().dims(), (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(p.feature_lists.at("v").dense_shape.to_vector<int64_t>(), (std::vector<int64_t>{0, 0}));
  try {
    parse_single_sequence_example(sequence_record(), {},
                                  {{"y", FixedLenSequenceFeature{.shape = {2}}}}, "seq.tfrecord:3");
    FAIL() << "a missing required feature list parsed";
  } catch (const InvalidArgumentError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("'seq.tfrecord:3'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("feature list 'y'"), std::string::npos) << msg;
  }
}

TEST(ParseSequenceExample, TypedErrors) {
  const std::string rec = sequence_record();
  // A step with the wrong number of values, the wrong type, a missing context feature.
  EXPECT_THROW(
      parse_single_sequence_example(rec, {}, {{"tok", FixedLenSequenceFeature{.dtype = int64}}}),
      InvalidArgumentError);
  EXPECT_THROW(parse_single_sequence_example(
                   rec, {}, {{"x", FixedLenSequenceFeature{.shape = {2}, .dtype = int64}}}),
               InvalidArgumentError);
  EXPECT_THROW(parse_single_sequence_example(rec, {{"q", FixedLenFeature{.dtype = int64}}}, {}),
               InvalidArgumentError);
  // Specs in the wrong place.
  EXPECT_THROW(parse_single_sequence_example(rec, {{"x", FixedLenSequenceFeature{}}}, {}),
               InvalidArgumentError);
  EXPECT_THROW(parse_single_sequence_example(rec, {}, {{"x", FixedLenFeature{}}}),
               InvalidArgumentError);
  EXPECT_THROW(parse_single_sequence_example(rec.substr(0, rec.size() - 2), {}, {}),
               InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::io
