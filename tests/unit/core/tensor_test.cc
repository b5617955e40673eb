#include "tfcc/core/tensor.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tfcc/core/philox.h"

namespace tfcc {
namespace {

TEST(Shape, ElementsAndSpelling) {
  Shape s{2, 3};
  EXPECT_EQ(s.num_elements(), 6);
  EXPECT_EQ(s.to_string(), "(2, 3)");
  EXPECT_EQ(Shape{4}.to_string(), "(4,)");
  EXPECT_EQ(Shape{}.to_string(), "()");
  EXPECT_EQ(s.debug_string(), "[2,3]");
}

TEST(Shape, RejectsNegativeAndOverflow) {
  EXPECT_THROW(Shape({2, -1}), InvalidArgumentError);
  EXPECT_THROW(Shape({int64_t{1} << 40, int64_t{1} << 40}), InvalidArgumentError);
}

TEST(PartialShape, CompatibilityAndMerge) {
  PartialShape p{-1, 3};
  EXPECT_EQ(p.to_string(), "(None, 3)");
  EXPECT_TRUE(p.is_compatible_with(Shape{5, 3}));
  EXPECT_FALSE(p.is_compatible_with(Shape{5, 4}));
  EXPECT_EQ(p.merge_with(Shape{5, 3}), PartialShape(Shape{5, 3}));
  EXPECT_TRUE(PartialShape().is_compatible_with(Shape{1, 2, 3}));
  EXPECT_EQ(PartialShape().to_string(), "<unknown>");
  EXPECT_THROW(p.to_shape(), InvalidArgumentError);
  EXPECT_THROW(PartialShape().rank(), FailedPreconditionError);
}

TEST(Tensor, FromVectorAndAccess) {
  auto t = Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  EXPECT_EQ(t.dtype(), float32);
  EXPECT_EQ(t.shape(), (Shape{2, 3}));
  EXPECT_EQ(t.to_vector<int>(), (std::vector<int>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(t.data<float>()[4], 5.f);
  EXPECT_THROW(t.data<double>(), InvalidArgumentError);
  EXPECT_THROW(t.item<float>(), InvalidArgumentError);
  EXPECT_EQ(Tensor::scalar<int64_t>(7).item<double>(), 7.0);
  EXPECT_THROW(Tensor::from_vector<float>({1, 2, 3}, Shape{2, 2}), InvalidArgumentError);
}

TEST(Tensor, CopiesShareTheBuffer) {
  auto t = Tensor::from_vector<int32_t>({1, 2});
  Tensor u = t;
  EXPECT_EQ(u.raw_data(), t.raw_data());
  EXPECT_EQ(u.id(), t.id());
}

TEST(Tensor, BuffersAre64ByteAligned) {
  for (int n : {1, 3, 100, 5000, 1 << 20}) {
    auto t = Tensor::empty(float32, Shape{n});
    EXPECT_EQ(reinterpret_cast<uintptr_t>(t.raw_data()) % 64, 0u) << n;
  }
}

TEST(Tensor, UndefinedHandleIsAClearError) {
  Tensor t;
  EXPECT_FALSE(t.defined());
  EXPECT_THROW(t.shape(), FailedPreconditionError);
}

TEST(Tensor, BFloat16RoundsToNearestEven) {
  EXPECT_EQ(static_cast<float>(BFloat16(1.0f)), 1.0f);
  EXPECT_EQ(static_cast<float>(BFloat16(3.140625f)), 3.140625f);
  EXPECT_TRUE(std::isnan(static_cast<float>(BFloat16(NAN))));
  auto t = Tensor::from_vector<float>({1.5f});
  EXPECT_EQ(t.to_vector<BFloat16>()[0].bits, BFloat16(1.5f).bits);
}

TEST(Allocator, ReusesFreedBlocksAndCountsPeak) {
  Allocator& a = cpu_allocator();
  a.reset_peak();
  auto before = a.stats();
  void* p = a.allocate(4 << 20);
  auto during = a.stats();
  EXPECT_GE(during.bytes_in_use - before.bytes_in_use, 4 << 20);
  EXPECT_GE(during.peak_bytes_in_use, during.bytes_in_use);
  a.deallocate(p, 4 << 20);
  auto sys_before = a.stats().num_system_allocs;
  void* q = a.allocate(4 << 20);
  EXPECT_EQ(q, p);  // served from the cache
  EXPECT_EQ(a.stats().num_system_allocs, sys_before);
  a.deallocate(q, 4 << 20);
}

TEST(Allocator, HugeRequestIsResourceExhausted) {
  EXPECT_THROW(cpu_allocator().allocate(size_t{1} << 50), ResourceExhaustedError);
}

// Known-answer test from the Random123 distribution (philox4x32_10, kat_vectors).
TEST(Philox, KnownAnswer) {
  // counter = 0, key = 0.
  Philox zero(0, 0);
  auto b = zero.block(0);
  EXPECT_EQ(b[0], 0x6627e8d5u);
  EXPECT_EQ(b[1], 0xe169c58du);
  EXPECT_EQ(b[2], 0xbc57ac4cu);
  EXPECT_EQ(b[3], 0x9b00dbd8u);
}

TEST(Philox, BlocksInLanesEqualBlock) {
  Philox g(0x123456789abcdefull, 42);
  uint32_t words[4][16];
  const uint64_t first = 0xfffffff8ull;  // crosses the counter's 32-bit word boundary
  g.blocks<16>(first, words);
  for (int l = 0; l < 16; ++l) {
    const Philox::Block b = g.block(first + uint64_t(l));
    for (int w = 0; w < 4; ++w) EXPECT_EQ(words[w][l], b[size_t(w)]) << l << " " << w;
  }
}

TEST(Philox, UnitFloatInRange) {
  EXPECT_EQ(Philox::to_unit_float(0), 0.0f);
  EXPECT_LT(Philox::to_unit_float(0xffffffffu), 1.0f);
}

}  // namespace
}  // namespace tfcc
