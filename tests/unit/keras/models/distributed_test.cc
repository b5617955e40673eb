// The single-process side of distributed fit: how global batches are split across replicas,
// and the seeded per-epoch order of fit's tensor shuffling (the MPI side is tests/mpi).
#include "tfcc/keras/models/distributed.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "tfcc/tfcc.h"

namespace tfcc::keras {
namespace {

TEST(Distributed, ShardBatchSplitsRowsEvenlyInRankOrder) {
  Tensor x = reshape(range(20), {10, 2});
  Tensor y = range(10);
  std::vector<int64_t> rows, firsts;
  for (int r = 0; r < 4; ++r) {
    auto part = distributed::shard_batch({x, y, Tensor()}, r, 4);
    ASSERT_EQ(part.size(), 3u);
    EXPECT_FALSE(part[2].defined());
    rows.push_back(part[0].shape()[0]);
    EXPECT_EQ(part[1].shape()[0], part[0].shape()[0]);
    firsts.push_back(part[1].to_vector<int64_t>().front());
  }
  EXPECT_EQ(rows, (std::vector<int64_t>{2, 3, 2, 3}));
  EXPECT_EQ(firsts, (std::vector<int64_t>{0, 2, 5, 7}));
  EXPECT_THROW(distributed::shard_batch({x, range(9)}, 0, 2), InvalidArgumentError);
  EXPECT_THROW(distributed::shard_batch({Tensor::scalar(1.0f)}, 0, 2), InvalidArgumentError);
}

TEST(Distributed, OneReplicaChangesNothing) {
  Sequential m({layers::Dense(2, {.input_shape = {3}})});
  EXPECT_EQ(distributed::replicated(m), nullptr);
  EXPECT_EQ(distributed::verbose_for(m, 1), 1);
  EXPECT_FALSE(distributed::shuffle_seed(m).has_value());
  std::vector<Tensor> grads = {ones({3, 2}), Tensor()};
  auto out = distributed::average_gradients(m, grads);
  EXPECT_TRUE(out[0].defined());
  EXPECT_FALSE(out[1].defined());
}

std::vector<int64_t> epoch_order(std::shared_ptr<BatchSource> s) {
  s->start_epoch();
  return s->next()->at(0).to_vector<int64_t>();
}

TEST(Distributed, SeededTensorShuffleIsAReproduciblePermutationPerEpoch) {
  TensorData d{range(50), range(50), Tensor()};
  auto a = make_tensor_source(d, 50, true, {}, 123);
  auto b = make_tensor_source(d, 50, true, {}, 123);
  auto a0 = epoch_order(a), a1 = epoch_order(a);
  EXPECT_EQ(a0, epoch_order(b));
  EXPECT_EQ(a1, epoch_order(b));
  EXPECT_NE(a0, a1);
  auto sorted = a0;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, range(50).to_vector<int64_t>());
}

}  // namespace
}  // namespace tfcc::keras
