// Preprocessing layers against Keras 3.15's values (testdata/preprocessing_reference.py prints
// them): CategoryEncoding, Hashing, Discretization, StringLookup, IntegerLookup,
// TextVectorization, Normalization.adapt; and their use in Dataset::map and a traced function.
#include <gtest/gtest.h>

#include <cmath>

#include "tfcc/tfcc.h"

namespace tfcc::keras::layers {
namespace {

using Strs = std::vector<std::string>;
using I64s = std::vector<int64_t>;
using F32s = std::vector<float>;

Tensor S(const Strs& v, const Shape& s) { return Tensor::from_strings(v, s); }
Tensor S(const Strs& v) { return Tensor::from_strings(v); }
Tensor I(const I64s& v, const Shape& s) { return Tensor::from_vector(v, s); }

void expect_near(const Tensor& t, const F32s& want, const Shape& shape) {
  ASSERT_EQ(t.shape(), shape);
  std::vector<float> got = t.to_vector<float>();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << i;
}

TEST(CategoryEncoding, MatchesKeras) {
  expect_near(CategoryEncoding(4, {.output_mode = "one_hot"})(I({3, 0, 1}, {3})),
              {0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0}, {3, 4});
  expect_near(CategoryEncoding(4, {.output_mode = "one_hot"})(I({3, 1}, {2, 1})),
              {0, 0, 0, 1, 0, 1, 0, 0}, {2, 4});
  expect_near(CategoryEncoding(4)(I({0, 1, 0, 0, 1, 2, 3, 1}, {4, 2})),
              {1, 1, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1}, {4, 4});
  expect_near(CategoryEncoding(4)(I({1, 2}, {2})), {0, 1, 1, 0}, {4});
  expect_near(CategoryEncoding(4, {.output_mode = "count"})(I({0, 1, 1, 2, 2, 2}, {2, 3})),
              {1, 2, 0, 0, 0, 0, 3, 0}, {2, 4});
  EXPECT_THROW(CategoryEncoding(4)(I({4}, {1})), InvalidArgumentError);
  EXPECT_THROW(CategoryEncoding(4, {.output_mode = "tf_idf"})(I({1}, {1})), InvalidArgumentError);
}

TEST(Hashing, MatchesKerasBins) {
  EXPECT_EQ(Hashing(3)(S({"A", "B", "C", "D", "E"}, {5, 1})).to_vector<int64_t>(),
            (I64s{1, 0, 1, 1, 2}));
  EXPECT_EQ(Hashing(3, {.mask_value = ""})(S({"A", "", "C"}, {3, 1})).to_vector<int64_t>(),
            (I64s{1, 0, 2}));
  EXPECT_EQ(Hashing(3)(I({1, 2, 3, -4}, {4, 1})).to_vector<int64_t>(), (I64s{0, 1, 0, 1}));
}

TEST(Discretization, BoundariesAndAdapt) {
  Tensor x = Tensor::from_vector<float>({-1.5f, 1.0f, 3.4f, 0.5f, 0.0f, 3.0f, 1.3f, 0.0f}, {2, 4});
  Discretization d({.bin_boundaries = std::vector<double>{0.0, 1.0, 2.0}});
  EXPECT_EQ(d(x).to_vector<int64_t>(), (I64s{0, 2, 3, 1, 1, 3, 2, 1}));
  Discretization a({.num_bins = 4});
  a.adapt(x);
  ASSERT_EQ(a.bin_boundaries().size(), 3u);
  EXPECT_NEAR(a.bin_boundaries()[0], 0.0, 1e-6);
  EXPECT_NEAR(a.bin_boundaries()[1], 0.5, 1e-6);
  EXPECT_NEAR(a.bin_boundaries()[2], 1.3, 1e-6);
  EXPECT_EQ(a(Tensor::from_vector<float>({-1.5f, 1.0f, 3.4f, 0.5f}, {1, 4})).to_vector<int64_t>(),
            (I64s{0, 2, 3, 2}));
  EXPECT_THROW(d.adapt(x), InvalidArgumentError);
}

const Strs kVocab = {"a", "b", "c", "d"};
Tensor kWords() { return S({"a", "c", "d", "d", "z", "b"}, {2, 3}); }

TEST(StringLookup, IntInvertMaskOov) {
  EXPECT_EQ(StringLookup({.vocabulary = kVocab})(kWords()).to_vector<int64_t>(),
            (I64s{1, 3, 4, 4, 0, 2}));
  EXPECT_EQ(StringLookup({.vocabulary = kVocab, .invert = true})(I({1, 3, 4, 4, 0, 2}, {2, 3}))
                .to_vector<std::string>(),
            (Strs{"a", "c", "d", "d", "[UNK]", "b"}));
  EXPECT_EQ(StringLookup({.mask_token = "", .vocabulary = kVocab})(
                S({"a", "", "d", "d", "z", "b"}, {2, 3}))
                .to_vector<int64_t>(),
            (I64s{2, 0, 5, 5, 1, 3}));
  StringLookup two({.num_oov_indices = 2, .vocabulary = kVocab});
  EXPECT_EQ(two(kWords()).to_vector<int64_t>(), (I64s{2, 4, 5, 5, 1, 3}));
  EXPECT_EQ(two.get_vocabulary(), (Strs{"[UNK]", "[UNK]", "a", "b", "c", "d"}));
  EXPECT_THROW(StringLookup({.num_oov_indices = 0, .vocabulary = kVocab})(kWords()),
               InvalidArgumentError);
  EXPECT_THROW(StringLookup({.vocabulary = {"a", "a"}}), InvalidArgumentError);
}

TEST(StringLookup, EncodedOutputModes) {
  Tensor w = S({"a", "c", "d", "d", "d", "z", "b", "z"}, {2, 4});
  EXPECT_EQ(StringLookup({.vocabulary = {"a", "b", "c"}, .output_mode = "one_hot"})(
                S({"a", "b", "c", "z"}))
                .to_vector<int64_t>(),
            (I64s{0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0}));
  EXPECT_EQ(
      StringLookup({.vocabulary = kVocab, .output_mode = "multi_hot"})(w).to_vector<int64_t>(),
      (I64s{0, 1, 0, 1, 1, 1, 0, 1, 0, 1}));
  EXPECT_EQ(StringLookup({.vocabulary = kVocab, .output_mode = "count"})(w).to_vector<int64_t>(),
            (I64s{0, 1, 0, 1, 2, 2, 0, 1, 0, 1}));
  expect_near(StringLookup({.vocabulary = kVocab,
                            .idf_weights = {0.25, 0.75, 0.6, 0.4},
                            .output_mode = "tf_idf"})(w),
              {0, 0.25, 0, 0.6, 0.8, 1.0, 0, 0.75, 0, 0.4}, {2, 5});
}

TEST(StringLookup, AdaptOrdersLikeKeras) {
  Tensor docs = S({"a", "c", "d", "d", "z", "b", "c", "d", "d"}, {3, 3});
  StringLookup l;
  l.adapt(docs);
  EXPECT_EQ(l.get_vocabulary(), (Strs{"[UNK]", "d", "c", "z", "b", "a"}));
  StringLookup m({.max_tokens = 3});
  m.adapt(S({"b", "a", "a", "c", "c", "e", "d"}));
  EXPECT_EQ(m.get_vocabulary(), (Strs{"[UNK]", "c", "a"}));
  StringLookup t({.output_mode = "tf_idf"});
  t.adapt(docs);
  const std::vector<double> want = {0.5596157908439636, 0.6931471824645996, 0.9162907600402832,
                                    0.9162907600402832, 0.9162907600402832};
  ASSERT_EQ(t.idf_weights().size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(t.idf_weights()[i], want[i], 1e-6);
  // Adapting on a Dataset of batches gives the same vocabulary.
  StringLookup ds;
  ds.adapt(data::Dataset::from_tensor_slices({docs}).batch(2));
  EXPECT_EQ(ds.get_vocabulary(), l.get_vocabulary());
}

TEST(IntegerLookup, MatchesKeras) {
  const I64s vocab = {12, 36, 1138, 42};
  EXPECT_EQ(IntegerLookup({.vocabulary = vocab})(I({12, 1138, 42, 42, 1000, 36}, {2, 3}))
                .to_vector<int64_t>(),
            (I64s{1, 3, 4, 4, 0, 2}));
  EXPECT_EQ(IntegerLookup({.vocabulary = vocab, .invert = true})(I({1, 3, 4, 4, 0, 2}, {2, 3}))
                .to_vector<int64_t>(),
            (I64s{12, 1138, 42, 42, -1, 36}));
  IntegerLookup a;
  a.adapt(I({12, 1138, 42, 42, 1000, 36, 36, 42, 7}, {3, 3}));
  EXPECT_EQ(a.get_vocabulary(), (I64s{-1, 42, 36, 1138, 1000, 12, 7}));
}

const Strs kTexts = {"The cat sat on the mat.", "The dog ate my homework!", "cat, DOG; bird?",
                     "the the bird"};

TEST(TextVectorization, IntModeMatchesKeras) {
  TextVectorization tv({.max_tokens = 8, .output_sequence_length = 5});
  tv.adapt(S(kTexts));
  EXPECT_EQ(tv.get_vocabulary(), (Strs{"", "[UNK]", "the", "dog", "cat", "bird", "sat", "on"}));
  Tensor out = tv(S({"the cat ate the bird", "a zebra", "mat mat mat mat mat mat"}));
  EXPECT_EQ(out.shape(), (Shape{3, 5}));
  EXPECT_EQ(out.to_vector<int64_t>(), (I64s{2, 4, 1, 2, 5, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1}));
  TextVectorization ds;
  ds.adapt(data::Dataset::from_tensor_slices({S(kTexts)}).batch(2));
  EXPECT_EQ(ds.get_vocabulary(), (Strs{"", "[UNK]", "the", "dog", "cat", "bird", "sat", "on", "my",
                                       "mat", "homework", "ate"}));
  Tensor r = ds(S({"cat the", "bird"}));
  EXPECT_EQ(r.shape(), (Shape{2, 2}));
  EXPECT_EQ(r.to_vector<int64_t>(), (I64s{4, 2, 5, 0}));
}

TEST(TextVectorization, BagOfWordsModesMatchKeras) {
  TextVectorization mh({.output_mode = "multi_hot"});
  mh.adapt(S(kTexts));
  EXPECT_EQ(mh.vocabulary_size(), 11);
  EXPECT_EQ(mh(S({"the cat ate the bird", "a zebra"})).to_vector<int64_t>(),
            (I64s{0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  TextVectorization ng({.max_tokens = 10, .ngrams = {1, 2}, .output_mode = "count"});
  ng.adapt(S(kTexts));
  EXPECT_EQ(ng.get_vocabulary(), (Strs{"[UNK]", "the", "dog", "cat", "bird", "the the", "the mat",
                                       "the dog", "the cat", "the bird"}));
  EXPECT_EQ(ng(S({"the cat sat", "the the bird"})).to_vector<int64_t>(),
            (I64s{2, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 1, 1, 0, 0, 0, 1}));
  TextVectorization idf({.max_tokens = 6, .output_mode = "tf_idf"});
  idf.adapt(S(kTexts));
  expect_near(idf(S({"the cat ate the bird", "a zebra"})),
              {0.8667306900024414f, 1.3862943649291992f, 0, 0.8472978472709656f,
               0.8472978472709656f, 0, 1.7334613800048828f, 0, 0, 0, 0, 0},
              {2, 6});
}

TEST(TextVectorization, WorksInDatasetMapAndTracedFunctions) {
  TextVectorization tv({.output_sequence_length = 3});
  tv.adapt(S(kTexts));
  Tensor eager = tv(S({"the cat", "dog bird ate"}));
  data::Dataset ds = data::Dataset::from_tensor_slices({S({"the cat", "dog bird ate"})})
                         .batch(2)
                         .map([&tv](const data::Element& e) { return data::Element{tv(e[0])}; });
  for (const data::Element& e : ds) {
    EXPECT_EQ(e[0].to_vector<int64_t>(), eager.to_vector<int64_t>());
  }
  auto f = function([&tv](Tensor x) { return tv(x); });
  EXPECT_EQ(f(S({"the cat", "dog bird ate"})).to_vector<int64_t>(), eager.to_vector<int64_t>());
}

// get_config of an adapted layer holds what adapt learned (vocabulary, idf weights,
// boundaries), so from_config makes a layer that computes the same.
TEST(PreprocessingConfig, AdaptedLayersLoadFromTheirConfigs) {
  auto reloaded = [](const Layer& layer) {
    return saving::layer_from_config(layer.class_name(), saving::layer_config(layer));
  };
  const Tensor texts = S({"the cat ate the bird", "a zebra", "the the mat"});
  TextVectorization idf({.max_tokens = 6, .ngrams = {1, 2}, .output_mode = "tf_idf"});
  idf.adapt(S(kTexts));
  auto idf2 = reloaded(idf);
  EXPECT_EQ(idf2->get_config(), idf.get_config());
  EXPECT_EQ((*idf2)(texts).to_vector<float>(), idf(texts).to_vector<float>());
  TextVectorization ids({.output_sequence_length = 4});
  ids.adapt(S(kTexts));
  EXPECT_EQ((*reloaded(ids))(texts).to_vector<int64_t>(), ids(texts).to_vector<int64_t>());
  StringLookup lookup({.output_mode = "tf_idf"});
  lookup.adapt(S({"the", "cat", "cat", "dog", "bird", "cat"}, {3, 2}));
  const Tensor tokens = S({"cat", "the", "emu", "bird"}, {2, 2});
  EXPECT_EQ((*reloaded(lookup))(tokens).to_vector<float>(), lookup(tokens).to_vector<float>());
  Discretization d({.num_bins = 3});
  d.adapt(Tensor::from_vector<float>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  auto d2 = reloaded(d);
  const Tensor x = Tensor::from_vector<float>({-1, 2.5f, 4, 8});
  EXPECT_EQ((*d2)(x).to_vector<int64_t>(), d(x).to_vector<int64_t>());
  EXPECT_EQ(static_cast<Discretization&>(*d2).bin_boundaries(), d.bin_boundaries());
}

TEST(Normalization, AdaptOnTensorsAndDatasets) {
  Normalization n;
  n.adapt(Tensor::from_vector<float>({0, 10, 2, 20, 4, 60}, {3, 2}));
  auto w = n.get_weights();
  expect_near(w[0], {2, 30}, {2});
  expect_near(w[1], {2.6666667f, 466.66666f}, {2});
  EXPECT_EQ(w[2].item<int64_t>(), 3);
  expect_near(n(Tensor::from_vector<float>({2, 30}, {1, 2})), {0, 0}, {1, 2});
  Normalization all({.axis = {}});
  all.adapt(data::Dataset::from_tensor_slices({Tensor::from_vector<float>({1, 2, 3, 6}, {4, 1})})
                .batch(3));
  w = all.get_weights();
  EXPECT_NEAR(w[0].item<float>(), 3.0f, 1e-6);
  EXPECT_NEAR(w[1].item<float>(), 3.5f, 1e-6);
  Normalization given({.mean = {{1.0}}, .variance = {{1.0}}});
  EXPECT_THROW(given.adapt(Tensor::from_vector<float>({1, 2}, {2, 1})), FailedPreconditionError);
}

}  // namespace
}  // namespace tfcc::keras::layers
