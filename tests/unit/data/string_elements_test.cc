// String tensors through tf.data: from_tensor_slices, batch, unbatch, padded_batch, map and
// iterator save/restore; the batches keep their strings after the source is gone.
#include <gtest/gtest.h>

#include "tfcc/data/dataset.h"

namespace tfcc::data {
namespace {

using Strs = std::vector<std::string>;

TEST(StringElements, SlicesBatchesAndUnbatches) {
  Dataset ds = Dataset::from_tensor_slices(
      {Tensor::from_strings({"a", "bb", std::string(40, 'c'), "d", "e"}),
       Tensor::from_vector<int32_t>({0, 1, 2, 3, 4})});
  std::vector<Strs> batches;
  for (const Element& b : ds.batch(2)) batches.push_back(b[0].to_vector<std::string>());
  ASSERT_EQ(batches.size(), 3u);
  EXPECT_EQ(batches[0], (Strs{"a", "bb"}));
  EXPECT_EQ(batches[1], (Strs{std::string(40, 'c'), "d"}));
  EXPECT_EQ(batches[2], (Strs{"e"}));
  Strs flat;
  for (const Element& e : ds.batch(2).unbatch()) flat.push_back(e[0].item<std::string>());
  EXPECT_EQ(flat.size(), 5u);
  EXPECT_EQ(flat[2], std::string(40, 'c'));
}

TEST(StringElements, BatchesOutliveTheirSource) {
  Element b;
  {
    Iterator it = Dataset::from_tensor_slices({Tensor::from_strings({std::string(64, 'q'), "r"})})
                      .batch(2)
                      .make_iterator();
    b = it.get_next();
  }  // nothing else holds the source now
  EXPECT_EQ(b[0].to_vector<std::string>()[0], std::string(64, 'q'));
}

TEST(StringElements, PaddedBatchPadsWithEmptyStrings) {
  Dataset ds = Dataset::from_tensor_slices({Tensor::from_strings({"a", "b", "c"}, Shape{3, 1})})
                   .map([](const Element& e) { return e; })
                   .padded_batch(2);
  std::vector<Strs> got;
  for (const Element& b : ds) got.push_back(b[0].to_vector<std::string>());
  EXPECT_EQ(got[0], (Strs{"a", "b"}));
}

TEST(StringElements, IteratorStateSavesTheStrings) {
  auto make = [] {
    return Dataset::from_tensor_slices({Tensor::from_strings({"x", "yy", "zzz"})})
        .shuffle(3, {.seed = 1});
  };
  Iterator it = make().make_iterator();
  it.get_next();
  std::string state = it.save();
  Strs rest, restored_rest;
  while (auto e = it.get_next_as_optional()) rest.push_back((*e)[0].item<std::string>());
  Iterator restored = make().make_iterator();
  restored.restore(state);
  while (auto e = restored.get_next_as_optional()) {
    restored_rest.push_back((*e)[0].item<std::string>());
  }
  EXPECT_EQ(rest, restored_rest);
  EXPECT_EQ(rest.size(), 2u);
}

}  // namespace
}  // namespace tfcc::data
