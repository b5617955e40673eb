// Strategy::gradient: buckets planned in reverse variable order and started while the backward
// pass runs, eager and traced, against a strategy whose "all-reduce" multiplies by 10.
#include <gtest/gtest.h>

#include <cstring>
#include <map>

#include "tfcc/distribute/strategy.h"
#include "tfcc/tfcc.h"

namespace tfcc::distribute {
namespace {

class BucketRecorder final : public Strategy {
 public:
  explicit BucketRecorder(size_t bucket_bytes) : bucket_bytes_(bucket_bytes) {}
  int num_replicas_in_sync() const override { return 2; }
  int rank() const override { return 0; }
  void broadcast_variables(std::span<const Variable>) override {}
  void barrier() override {}
  std::string to_string() const override { return "BucketRecorder"; }

  std::vector<std::vector<int64_t>> buckets;  // element counts of each started bucket's tensors
  std::vector<uint64_t> signatures;
  int finishes = 0;

 protected:
  std::vector<Tensor> all_reduce_concrete(std::span<const Tensor> values, ReduceOp) override {
    std::vector<Tensor> out;
    for (const Tensor& v : values) out.push_back(v * 10.0f);
    return out;
  }
  size_t gradient_bucket_bytes() const override { return bucket_bytes_; }
  int64_t start_bucket(int64_t step, std::span<const Tensor> tensors, ReduceOp,
                       uint64_t signature) override {
    if (step == 0) step = next_++;
    std::vector<int64_t> counts;
    for (const Tensor& t : tensors) {
      EXPECT_FALSE(t.is_symbolic());
      counts.push_back(t.num_elements());
      pending_[step].push_back(t * 10.0f);
    }
    buckets.push_back(counts);
    signatures.push_back(signature);
    return step;
  }
  std::vector<Tensor> finish_buckets(int64_t step) override {
    ++finishes;
    auto out = pending_.at(step);
    pending_.erase(step);
    return out;
  }

 private:
  size_t bucket_bytes_;
  int64_t next_ = 1;
  std::map<int64_t, std::vector<Tensor>> pending_;
};

struct Mlp {
  Variable w1{random::stateless_normal({4, 8}, {3, 1}), {.name = "w1"}};  // 32 elements
  Variable b1{random::stateless_normal({8}, {3, 2}), {.name = "b1"}};     // 8
  Variable w2{random::stateless_normal({8, 2}, {3, 3}), {.name = "w2"}};  // 16
  Variable b2{random::stateless_normal({2}, {3, 4}), {.name = "b2"}};     // 2
  Variable unused{zeros({5}), {.name = "unused"}};
  std::vector<Variable> vars() const { return {w1, b1, w2, b2, unused}; }
  Tensor loss(const Tensor& x) {
    return reduce_mean(square(matmul(relu(matmul(x, w1) + b1), w2) + b2));
  }
};

bool same_bits(const Tensor& a, const Tensor& b) {
  return a.shape() == b.shape() && std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0;
}

std::vector<Tensor> expected_gradients(Mlp& m, const Tensor& x) {
  GradientTape tape;
  auto g = tape.gradient(m.loss(x), m.vars());
  for (Tensor& t : g) {
    if (t.defined()) t = t * 10.0f;
  }
  return g;
}

TEST(StrategyGradient, EagerBucketsStartInReverseVariableOrder) {
  Mlp m;
  Tensor x = random::stateless_normal({5, 4}, {4, 4});
  BucketRecorder s(/*bucket_bytes=*/40);  // 10 floats: {b2 (2)}, {w2 (16)}, {b1 (8)}, {w1}
  GradientTape tape;
  auto g = s.gradient(tape, m.loss(x), m.vars());
  auto want = expected_gradients(m, x);
  ASSERT_EQ(g.size(), 5u);
  for (size_t i = 0; i < 4; ++i) EXPECT_TRUE(same_bits(g[i], want[i])) << i;
  EXPECT_FALSE(g[4].defined());  // unconnected: neither reduced nor invented
  EXPECT_EQ(s.buckets, (std::vector<std::vector<int64_t>>{{2}, {16}, {8}, {32}}));
  EXPECT_EQ(s.finishes, 1);
  EXPECT_EQ(s.signatures.front(), s.signatures.back());  // one agreement key per call
}

TEST(StrategyGradient, BucketsFuseSmallGradientsUpToTheThreshold) {
  Mlp m;
  Tensor x = random::stateless_normal({5, 4}, {4, 4});
  BucketRecorder s(/*bucket_bytes=*/1 << 20);
  GradientTape tape;
  auto g = s.gradient(tape, m.loss(x), m.vars());
  EXPECT_EQ(s.buckets, (std::vector<std::vector<int64_t>>{{2, 16, 8, 32}}));
  auto want = expected_gradients(m, x);
  for (size_t i = 0; i < 4; ++i) EXPECT_TRUE(same_bits(g[i], want[i])) << i;
}

TEST(StrategyGradient, TracedStartNodesComeBeforeTheEarlierLayersBackprop) {
  Mlp m;
  auto s = std::make_unique<BucketRecorder>(40);
  auto step = tfcc::function([&](Tensor x) {
    GradientTape tape;
    auto g = s->gradient(tape, m.loss(x), m.vars());
    return std::vector<Tensor>{g[0], g[1], g[2], g[3]};
  });
  Tensor x = random::stateless_normal({5, 4}, {4, 4});
  auto got = step(x);
  auto want = expected_gradients(m, x);
  for (size_t i = 0; i < 4; ++i) EXPECT_TRUE(same_bits(got[i], want[i])) << i;
  EXPECT_EQ(s->buckets.size(), 4u);
  step(x);
  EXPECT_EQ(s->buckets.size(), 8u);
  EXPECT_EQ(s->finishes, 2);
  EXPECT_EQ(step.tracing_count(), 1);

  // In the graph the executor runs: the first bucket starts, then backprop ops still run
  // (overlapped), then the single wait.
  ConcreteFunction cf = step.get_concrete_function(x);
  const graph::Graph& g = cf.optimized_graph();
  int first_start = -1, wait = -1, starts = 0, ops_between = 0;
  for (int id = 0; id < g.num_nodes(); ++id) {
    const graph::Node& n = g.node(id);
    if (n.kind == graph::NodeKind::kHostCall && n.host->name == "CollectiveAllReduceStart") {
      ++starts;
      if (first_start < 0) first_start = id;
    } else if (n.kind == graph::NodeKind::kHostCall && n.host->name == "CollectiveAllReduceWait") {
      wait = id;
    } else if (n.kind == graph::NodeKind::kOp && first_start >= 0 && wait < 0) {
      ++ops_between;
    }
  }
  EXPECT_EQ(starts, 4);
  ASSERT_GE(first_start, 0);
  EXPECT_GT(wait, first_start);
  EXPECT_GE(ops_between, 2) << g.to_string();  // at least the first layer's MatMul gradient
  s.reset();
  EXPECT_THROW(step(x), FailedPreconditionError);
}

TEST(StrategyGradient, OneReplicaIsPlainTapeGradient) {
  Mlp m;
  Tensor x = random::stateless_normal({5, 4}, {4, 4});
  GradientTape tape;
  auto g = get_strategy().gradient(tape, m.loss(x), m.vars());
  GradientTape ref;
  auto want = ref.gradient(m.loss(x), m.vars());
  for (size_t i = 0; i < 4; ++i) EXPECT_TRUE(same_bits(g[i], want[i])) << i;
  EXPECT_FALSE(g[4].defined());
}

}  // namespace
}  // namespace tfcc::distribute
