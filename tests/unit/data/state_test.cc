// Iterator save/restore: a restored iterator continues exactly where the saved one was.
#include <gtest/gtest.h>

#include "tests/unit/data/test_util.h"
#include "tfcc/data/dataset.h"

namespace tfcc::data {
namespace {

using Pipeline = std::function<Dataset()>;

std::vector<std::vector<int64_t>> drain(Iterator& it) {
  std::vector<std::vector<int64_t>> out;
  while (auto e = it.get_next_as_optional()) {
    std::vector<int64_t> flat;
    for (const Tensor& t : *e) {
      for (int64_t v : t.to_vector<int64_t>()) flat.push_back(v);
    }
    out.push_back(flat);
  }
  return out;
}

// For every cut point k: run k steps, save, restore into an iterator of a freshly built copy of
// the pipeline (a new process would do the same), and check the rest matches an uninterrupted run.
void expect_exact_continuation(const Pipeline& make, int max_cut) {
  Iterator ref_it = make().make_iterator();
  auto reference = drain(ref_it);
  ASSERT_FALSE(reference.empty());
  for (int k = 0; k <= max_cut && k <= static_cast<int>(reference.size()); ++k) {
    Iterator it = make().make_iterator();
    for (int i = 0; i < k; ++i) it.get_next();
    std::string state = it.save();
    // The saved iterator itself keeps going unchanged.
    auto rest_original = drain(it);
    Iterator restored = make().make_iterator();
    restored.restore(state);
    auto rest = drain(restored);
    std::vector<std::vector<int64_t>> want(reference.begin() + k, reference.end());
    EXPECT_EQ(rest, want) << "cut after " << k;
    EXPECT_EQ(rest_original, want) << "cut after " << k;
  }
}

TEST(StateTest, ShuffleRepeatBatchContinuesExactly) {
  expect_exact_continuation(
      [] { return Dataset::range(50).shuffle(16, {.seed = 7}).repeat(2).batch(6); }, 17);
}

TEST(StateTest, ReshufflingEpochsContinueExactly) {
  // The epoch counter of the shuffle is part of the state: a restore in epoch 2 continues with
  // epoch 2's order and the next epoch is epoch 3's.
  expect_exact_continuation([] { return Dataset::range(12).shuffle(12, {.seed = 3}).repeat(4); },
                            40);
}

TEST(StateTest, ParallelMapAndPrefetchContinueExactly) {
  expect_exact_continuation(
      [] {
        return Dataset::range(40)
            .map([](Tensor x) { return testing::times(x, 10); }, {.num_parallel_calls = 3})
            .shuffle(8, {.seed = 1})
            .batch(3)
            .prefetch(2);
      },
      14);
}

TEST(StateTest, StructuralTransformationsContinueExactly) {
  expect_exact_continuation(
      [] {
        Dataset a =
            Dataset::range(0, 30).filter([](Tensor x) { return x.item<int64_t>() % 3 != 1; });
        Dataset b = Dataset::range(100, 110);
        return Dataset::zip({a.enumerate(5), Dataset::range(1000).shard(2, 1)})
            .skip(2)
            .take(15)
            .concatenate(Dataset::zip({b, b, b}))
            .batch(4)
            .unbatch();
      },
      25);
}

TEST(StateTest, InterleaveAndGeneratorContinueExactly) {
  expect_exact_continuation(
      [] {
        return Dataset::range(1, 5).interleave(
            [](const Element& e) {
              int64_t n = e[0].item<int64_t>();
              return Dataset::from_generator(
                  [n] {
                    return [n, i = int64_t{0}]() mutable -> std::optional<Element> {
                      if (i == n) return std::nullopt;
                      return Element{Tensor::scalar<int64_t>(n * 100 + i++)};
                    };
                  },
                  {{int64, PartialShape(Shape{})}});
            },
            {.cycle_length = 2, .block_length = 2});
      },
      10);
}

TEST(StateTest, BadStatesAreRejected) {
  Dataset d = Dataset::range(10).shuffle(4, {.seed = 1});
  Iterator it = d.make_iterator();
  it.get_next();
  std::string state = it.save();
  EXPECT_THROW(d.make_iterator().restore(state.substr(0, state.size() - 5)), DataLossError);
  EXPECT_THROW(Dataset::range(10).make_iterator().restore(state), FailedPreconditionError);
  EXPECT_THROW(it.restore(state), FailedPreconditionError);  // already started
  EXPECT_THROW(d.make_iterator().restore(state + "x"), DataLossError);
}

}  // namespace
}  // namespace tfcc::data
