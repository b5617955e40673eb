#include <gtest/gtest.h>

#include "tfcc/data/dataset.h"

namespace tfcc::data {
namespace {

std::vector<int64_t> ints(const Dataset& d) {
  std::vector<int64_t> out;
  for (const Element& e : d) out.push_back(e[0].item<int64_t>());
  return out;
}

TEST(RangeTest, CountsLikeTensorFlow) {
  EXPECT_EQ(ints(Dataset::range(5)), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(ints(Dataset::range(2, 10, 3)), (std::vector<int64_t>{2, 5, 8}));
  EXPECT_EQ(ints(Dataset::range(5, 1, -2)), (std::vector<int64_t>{5, 3}));
  EXPECT_EQ(Dataset::range(2, 10, 3).cardinality(), 3);
  EXPECT_EQ(Dataset::range(5, 1, -2).cardinality(), 2);
  EXPECT_TRUE(ints(Dataset::range(3, 3)).empty());
  EXPECT_THROW(Dataset::range(0, 3, 0), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::data
