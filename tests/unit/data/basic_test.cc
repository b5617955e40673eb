// Sources: from_tensors, from_tensor_slices, range, from_generator, zip; iteration helpers.
#include <gtest/gtest.h>

#include "tests/unit/data/test_util.h"
#include "tfcc/data/dataset.h"

namespace tfcc::data {
namespace {

using testing::ints;
using testing::iota;

TEST(RangeTest, CountsLikeTensorFlow) {
  EXPECT_EQ(ints(Dataset::range(5)), iota(5));
  EXPECT_EQ(ints(Dataset::range(2, 10, 3)), (std::vector<int64_t>{2, 5, 8}));
  EXPECT_EQ(ints(Dataset::range(5, 1, -2)), (std::vector<int64_t>{5, 3}));
  EXPECT_EQ(Dataset::range(2, 10, 3).cardinality(), 3);
  EXPECT_EQ(Dataset::range(5, 1, -2).cardinality(), 2);
  EXPECT_TRUE(ints(Dataset::range(3, 3)).empty());
  EXPECT_THROW(Dataset::range(0, 3, 0), InvalidArgumentError);
  const ElementSpec& spec = Dataset::range(3).element_spec();
  ASSERT_EQ(spec.size(), 1u);
  EXPECT_EQ(spec[0].dtype, int64);
  EXPECT_EQ(spec_string(spec), "TensorSpec(shape=(), dtype=int64)");
}

TEST(RangeTest, StopsAtInt64Max) {
  int64_t big = INT64_MAX - 1;
  EXPECT_EQ(ints(Dataset::range(big, INT64_MAX, 5)), (std::vector<int64_t>{big}));
}

TEST(FromTensorsTest, OneElement) {
  Tensor x = Tensor::from_vector<float>({1, 2, 3});
  Dataset d = Dataset::from_tensors({x, Tensor::scalar<int64_t>(7)});
  EXPECT_EQ(d.cardinality(), 1);
  auto all = d.as_vector();
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0][0].to_vector<float>(), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(all[0][1].item<int64_t>(), 7);
}

TEST(FromTensorSlicesTest, SlicesEveryComponentAlongAxis0) {
  Tensor x = Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, Shape{3, 2});
  Tensor y = Tensor::from_vector<int64_t>({10, 20, 30});
  Dataset d = Dataset::from_tensor_slices({x, y});
  EXPECT_EQ(d.cardinality(), 3);
  EXPECT_EQ(d.element_spec()[0].shape, PartialShape{2});
  EXPECT_EQ(d.element_spec()[1].shape, PartialShape(Shape{}));
  auto all = d.as_vector();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[2][0].to_vector<float>(), (std::vector<float>{5, 6}));
  EXPECT_EQ(all[2][1].item<int64_t>(), 30);
}

TEST(FromTensorSlicesTest, MismatchedFirstDimensionsAreRejected) {
  Tensor x = Tensor::from_vector<float>({1, 2, 3});
  Tensor y = Tensor::from_vector<float>({1, 2});
  try {
    Dataset::from_tensor_slices({x, y});
    FAIL();
  } catch (const InvalidArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("Dimensions 3 and 2 are not compatible"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(Dataset::from_tensor_slices({Tensor::scalar<float>(1)}), InvalidArgumentError);
}

TEST(IteratorTest, GetNextRaisesOutOfRangeAtTheEnd) {
  Iterator it = Dataset::range(1).make_iterator();
  EXPECT_EQ(it.get_next()[0].item<int64_t>(), 0);
  EXPECT_THROW(it.get_next(), OutOfRangeError);
  EXPECT_FALSE(it.get_next_as_optional().has_value());
  EXPECT_EQ(Dataset::range(4, 9).take_one()[0].item<int64_t>(), 4);
  EXPECT_THROW(Dataset::range(0).take_one(), OutOfRangeError);
}

TEST(IteratorTest, EachRangeForIsAFreshPass) {
  Dataset d = Dataset::range(3);
  EXPECT_EQ(ints(d), iota(3));
  EXPECT_EQ(ints(d), iota(3));
}

TEST(FromGeneratorTest, CallsTheFactoryPerIteration) {
  int made = 0;
  Dataset d = Dataset::from_generator(
      [&made] {
        ++made;
        return [i = int64_t{0}]() mutable -> std::optional<Element> {
          if (i == 3) return std::nullopt;
          return Element{Tensor::scalar<int64_t>(i++ * 10)};
        };
      },
      {{int64, PartialShape(Shape{})}});
  EXPECT_EQ(ints(d), (std::vector<int64_t>{0, 10, 20}));
  EXPECT_EQ(ints(d), (std::vector<int64_t>{0, 10, 20}));
  EXPECT_EQ(made, 2);
}

TEST(FromGeneratorTest, ElementsAreCheckedAgainstTheSignature) {
  auto gen = [] {
    return [i = 0]() mutable -> std::optional<Element> {
      if (i++ == 0) return Element{Tensor::from_vector<float>({1, 2})};
      return Element{Tensor::from_vector<float>({1, 2, 3})};
    };
  };
  Dataset ok = Dataset::from_generator(gen, {{float32, PartialShape{-1}}});
  EXPECT_EQ(ok.take(2).as_vector().size(), 2u);
  Dataset bad = Dataset::from_generator(gen, {{float32, PartialShape{2}}});
  Iterator it = bad.make_iterator();
  it.get_next();
  try {
    it.get_next();
    FAIL();
  } catch (const InvalidArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("did not match the expected type"), std::string::npos);
  }
  Dataset wrong_dtype = Dataset::from_generator(gen, {{int64, PartialShape{-1}}});
  EXPECT_THROW(wrong_dtype.take_one(), InvalidArgumentError);
}

TEST(ZipTest, EndsWithTheShortestAndFlattensComponents) {
  Dataset a = Dataset::range(5);
  Dataset b = Dataset::range(100, 103);
  Dataset z = Dataset::zip({a, b, a});
  EXPECT_EQ(z.cardinality(), 3);
  EXPECT_EQ(z.element_spec().size(), 3u);
  auto all = z.as_vector();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[1][0].item<int64_t>(), 1);
  EXPECT_EQ(all[1][1].item<int64_t>(), 101);
  EXPECT_EQ(all[1][2].item<int64_t>(), 1);
}

TEST(BytesTensorTest, RoundTrips) {
  Tensor t = bytes_tensor("a,b\n");
  EXPECT_EQ(t.dtype(), uint8);
  EXPECT_EQ(tensor_bytes(t), "a,b\n");
  EXPECT_THROW(tensor_bytes(Tensor::scalar<float>(1)), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::data
