// The one-process strategy and strategy scopes.
#include "tfcc/distribute/strategy.h"

#include <gtest/gtest.h>

#include "tfcc/tfcc.h"

namespace tfcc::distribute {
namespace {

TEST(Strategy, DefaultIsOneReplica) {
  EXPECT_FALSE(has_strategy());
  Strategy& s = get_strategy();
  EXPECT_EQ(s.num_replicas_in_sync(), 1);
  EXPECT_EQ(s.rank(), 0);
  EXPECT_TRUE(s.is_chief());
  EXPECT_EQ(s.to_string(), "DefaultStrategy");
}

TEST(Strategy, DefaultReduceReturnsInput) {
  auto x = Tensor::from_vector<float>({1, 2, 3});
  Tensor r = get_strategy().reduce(ReduceOp::kMean, x);
  EXPECT_EQ(r.to_vector<float>(), (std::vector<float>{1, 2, 3}));
  EXPECT_THROW(get_strategy().reduce(ReduceOp::kSum, Tensor()), InvalidArgumentError);
}

TEST(Strategy, ScopesNestAndEnd) {
  DefaultStrategy a, b;
  {
    auto sa = a.scope();
    EXPECT_TRUE(has_strategy());
    EXPECT_EQ(&get_strategy(), &a);
    {
      auto sb = b.scope();
      EXPECT_EQ(&get_strategy(), &b);
    }
    EXPECT_EQ(&get_strategy(), &a);
  }
  EXPECT_FALSE(has_strategy());
}

TEST(Strategy, RunCallsTheStepOnce) {
  int calls = 0;
  auto out = get_strategy().run(
      [&](int x) {
        ++calls;
        return x * 2;
      },
      21);
  EXPECT_EQ(out, 42);
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace tfcc::distribute
