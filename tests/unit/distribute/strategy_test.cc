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

TEST(Strategy, AllReduceInsideAFunctionWithOneReplicaIsTheIdentity) {
  DefaultStrategy s;
  auto f = tfcc::function(
      [&](Tensor x) { return s.all_reduce(std::vector<Tensor>{x * 2.0f}, ReduceOp::kMean)[0]; });
  EXPECT_EQ(f(Tensor::from_vector<float>({1, 2})).to_vector<float>(), (std::vector<float>{2, 4}));
}

// Two "replicas" in one process: the reduction multiplies by 10 and counts its calls, so the
// test sees when (and with what) the traced node calls back into the strategy.
class TenfoldStrategy final : public Strategy {
 public:
  int num_replicas_in_sync() const override { return 2; }
  int rank() const override { return 0; }
  void broadcast_variables(std::span<const Variable>) override {}
  void barrier() override {}
  std::string to_string() const override { return "TenfoldStrategy"; }
  int calls = 0;

 protected:
  std::vector<Tensor> all_reduce_concrete(std::span<const Tensor> values, ReduceOp) override {
    ++calls;
    std::vector<Tensor> out;
    for (const Tensor& v : values) out.push_back(v * 10.0f);
    return out;
  }
};

TEST(Strategy, AllReduceInsideAFunctionRunsAtEveryCall) {
  auto s = std::make_unique<TenfoldStrategy>();
  auto f = tfcc::function([&s](Tensor x) {
    auto r = s->all_reduce(std::vector<Tensor>{x, x + 1.0f}, ReduceOp::kSum);
    return r[0] + r[1];
  });
  EXPECT_EQ(f(Tensor::from_vector<float>({1, 2})).to_vector<float>(), (std::vector<float>{30, 50}));
  EXPECT_EQ(s->calls, 1);
  EXPECT_EQ(f(Tensor::from_vector<float>({0, 1})).to_vector<float>(), (std::vector<float>{10, 30}));
  EXPECT_EQ(s->calls, 2);
  const int traces = f.tracing_count();
  EXPECT_EQ(traces, 1);
  s.reset();  // the traced node must not call a destroyed strategy
  EXPECT_THROW(f(Tensor::from_vector<float>({0, 1})), FailedPreconditionError);
}

}  // namespace
}  // namespace tfcc::distribute
