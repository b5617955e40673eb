// The feature specs parse_example_fuzz.cc parses with, and its seed records (written by tfcc's own
// io::Example / SequenceExample writer). tests/unit/io/fuzz_corpus_test.cc checks that the files
// in fuzz/corpus/parse_example_fuzz/ are these seeds and parse with spec variant 0; with
// TFCC_WRITE_FUZZ_SEEDS=1 it rewrites them.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tfcc/io/example/example.h"
#include "tfcc/io/example/parse_example.h"

namespace tfcc::fuzz {

inline constexpr int kExampleSpecVariants = 3;

/// Variant 0 matches the seeds; 1 and 2 ask for the same keys with other types and shapes (so
/// the fuzzer reaches the type, size and missing-feature errors from valid records too).
inline io::FeatureSpecs example_spec(int variant) {
  using namespace io;  // NOLINT
  const DType types[3] = {float32, int64, uint8};
  auto t = [&](int k) { return types[(k + variant) % 3]; };
  return {
      {"f", FixedLenFeature{.shape = {2}, .dtype = t(0)}},
      {"i", VarLenFeature{.dtype = t(1)}},
      {"b", FixedLenFeature{.shape = {}, .dtype = t(2)}},
      {"s",
       FixedLenSequenceFeature{
           .shape = {variant == 2 ? 3 : 2}, .dtype = t(1), .allow_missing = true}},
      {"d", FixedLenFeature{.shape = {1}, .dtype = int64, .default_value = Feature::int64s({-1})}},
      {"v", VarLenFeature{.dtype = t(2)}}};
}

/// Context and sequence specs for the SequenceExample parse.
inline std::pair<io::FeatureSpecs, io::FeatureSpecs> sequence_specs(int variant) {
  using namespace io;  // NOLINT
  return {{{"len", FixedLenFeature{.dtype = variant == 0 ? int64 : float32}},
           {"v", VarLenFeature{.dtype = uint8}}},
          {{"tok", VarLenFeature{.dtype = variant == 1 ? float32 : int64}},
           {"emb", FixedLenSequenceFeature{
                       .shape = {variant == 2 ? 1 : 2}, .dtype = float32, .allow_missing = true}}}};
}

/// Seed file name -> bytes.
inline std::vector<std::pair<std::string, std::string>> example_seeds() {
  using namespace io;  // NOLINT
  std::vector<std::pair<std::string, std::string>> seeds;
  seeds.emplace_back("example_all_kinds", Example{}
                                              .set("f", Feature::floats({0.5f, -2.0f}))
                                              .set("i", Feature::int64s({1, 300, -1}))
                                              .set("b", Feature::bytes({"png bytes"}))
                                              .set("s", Feature::int64s({1, 2, 3, 4}))
                                              .set("d", Feature::int64s({7}))
                                              .set("v", Feature::bytes({"a", "", "bc"}))
                                              .serialize());
  seeds.emplace_back("example_defaults", Example{}
                                             .set("f", Feature::floats({1, 2}))
                                             .set("b", Feature::bytes({std::string("\0\xff", 2)}))
                                             .set("i", Feature::int64s({}))
                                             .set("other", Feature::floats({3}))
                                             .serialize());
  SequenceExample s;
  s.context["len"] = Feature::int64s({2});
  s.context["v"] = Feature::bytes({"ctx"});
  s.feature_lists["tok"] = {Feature::int64s({7}), Feature::int64s({8, 9})};
  s.feature_lists["emb"] = {Feature::floats({1, 2}), Feature::floats({3, 4})};
  seeds.emplace_back("sequence_example", s.serialize());
  return seeds;
}

}  // namespace tfcc::fuzz
