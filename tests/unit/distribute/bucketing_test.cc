// Tensor fusion plans: order kept, dtypes never mixed, threshold respected.
#include "tfcc/distribute/bucketing.h"

#include <gtest/gtest.h>

namespace tfcc::distribute {
namespace {

Tensor zeros_of(DType dtype, int64_t n) {
  Tensor t = Tensor::empty(dtype, Shape{n});
  return t;
}

TEST(Bucketing, PacksConsecutiveSmallTensors) {
  std::vector<Tensor> ts = {zeros_of(float32, 10), zeros_of(float32, 10), zeros_of(float32, 10)};
  auto b = plan_buckets(ts, 80);  // two 40-byte tensors fit, the third opens a new bucket
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0].indices, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(b[0].num_elements, 20);
  EXPECT_EQ(b[1].indices, (std::vector<size_t>{2}));
}

TEST(Bucketing, NeverMixesDtypesAndIsolatesLargeTensors) {
  std::vector<Tensor> ts = {zeros_of(float32, 2), zeros_of(float64, 2), zeros_of(float32, 1000),
                            zeros_of(float32, 2)};
  auto b = plan_buckets(ts, 64);
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(b[1].dtype, float64);
  EXPECT_EQ(b[2].indices, (std::vector<size_t>{2}));
  EXPECT_EQ(b[2].num_elements, 1000);
}

TEST(Bucketing, EmptyListAndEmptyTensors) {
  EXPECT_TRUE(plan_buckets({}, 64).empty());
  std::vector<Tensor> ts = {zeros_of(float32, 0), zeros_of(float32, 3)};
  auto b = plan_buckets(ts, 64);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].num_elements, 3);
}

TEST(Bucketing, FingerprintSeesShapesDtypesAndSeed) {
  std::vector<Tensor> a = {Tensor::empty(float32, Shape{2, 3})};
  std::vector<Tensor> b = {Tensor::empty(float32, Shape{3, 2})};
  std::vector<Tensor> c = {Tensor::empty(float64, Shape{2, 3})};
  EXPECT_EQ(fingerprint(a, 1), fingerprint(a, 1));
  EXPECT_NE(fingerprint(a, 1), fingerprint(b, 1));
  EXPECT_NE(fingerprint(a, 1), fingerprint(c, 1));
  EXPECT_NE(fingerprint(a, 1), fingerprint(a, 2));
}

TEST(Bucketing, PlanByDtypesAndCountsMatchesThePlanOfTensors) {
  std::vector<Tensor> ts = {zeros_of(float32, 10), zeros_of(float32, 6), zeros_of(float64, 2),
                            zeros_of(float32, 30), zeros_of(float32, 1)};
  std::vector<DType> dtypes;
  std::vector<int64_t> counts;
  for (const Tensor& t : ts) {
    dtypes.push_back(t.dtype());
    counts.push_back(t.num_elements());
  }
  auto a = plan_buckets(ts, 64);
  auto b = plan_buckets(dtypes, counts, 64);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].dtype, b[i].dtype);
    EXPECT_EQ(a[i].indices, b[i].indices);
    EXPECT_EQ(a[i].num_elements, b[i].num_elements);
  }
  EXPECT_EQ(b.size(), 4u);  // {10, 6} f32, {2} f64, {30} f32 alone (120 B), {1}
}

}  // namespace
}  // namespace tfcc::distribute
