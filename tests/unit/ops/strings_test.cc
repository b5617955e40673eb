// tf.strings ops against TensorFlow 2.21's values (tests/unit/ops/testdata/strings_reference.py
// prints them), their invalid inputs, and the element-moving array ops on string tensors.
#include "tfcc/ops/strings/strings.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"

namespace tfcc {
namespace {

using Strs = std::vector<std::string>;
using I64s = std::vector<int64_t>;

Tensor S(const Strs& v) { return Tensor::from_strings(v); }
Strs V(const Tensor& t) { return t.to_vector<std::string>(); }
I64s splits(const strings::Ragged& r) { return r.row_splits.to_vector<int64_t>(); }

const Strs kInput = {"Hello World", "  a  b ",
                     "\xc3\x80"
                     "bC",
                     ""};

TEST(Strings, CaseAndStrip) {
  EXPECT_EQ(V(strings::lower(S(kInput))), (Strs{"hello world", "  a  b ",
                                                "\xc3\x80"
                                                "bc",
                                                ""}));
  EXPECT_EQ(V(strings::upper(S(kInput))), (Strs{"HELLO WORLD", "  A  B ",
                                                "\xc3\x80"
                                                "BC",
                                                ""}));
  EXPECT_EQ(V(strings::strip(S(kInput))), (Strs{"Hello World", "a  b",
                                                "\xc3\x80"
                                                "bC",
                                                ""}));
}

TEST(Strings, RegexReplace) {
  EXPECT_EQ(V(strings::regex_replace(S(kInput), "[aeiou]", "_")), (Strs{"H_ll_ W_rld", "  _  b ",
                                                                        "\xc3\x80"
                                                                        "bC",
                                                                        ""}));
  EXPECT_EQ(V(strings::regex_replace(S(kInput), "l+", "L", false))[0], "HeLo World");
  EXPECT_EQ(V(strings::regex_replace(S({"ab12cd"}), "(\\d)(\\d)", "\\2\\1")), (Strs{"ab21cd"}));
  EXPECT_EQ(strings::regex_full_match(S(kInput), "\\w+ \\w+").to_vector<bool>(),
            (std::vector<bool>{true, false, false, false}));
  EXPECT_THROW(strings::regex_replace(S(kInput), "(", "x"), InvalidArgumentError);
  EXPECT_THROW(strings::regex_replace(S(kInput), "a", "\\3"), InvalidArgumentError);
}

TEST(Strings, Split) {
  strings::Ragged r = strings::split(S(kInput));
  EXPECT_EQ(V(r.values), (Strs{"Hello", "World", "a", "b",
                               "\xc3\x80"
                               "bC"}));
  EXPECT_EQ(splits(r), (I64s{0, 2, 4, 5, 5}));
  r = strings::split(S({"a,b,,c", "", ","}), ",");
  EXPECT_EQ(V(r.values), (Strs{"a", "b", "", "c", "", "", ""}));
  EXPECT_EQ(splits(r), (I64s{0, 4, 5, 7}));
  r = strings::split(S({"a b c d", " x  y  z "}), "", 1);
  EXPECT_EQ(V(r.values), (Strs{"a", "b c d", "x", "y  z "}));
  EXPECT_EQ(splits(r), (I64s{0, 2, 4}));
  EXPECT_THROW(strings::split(Tensor::from_strings({"a"}, Shape{1, 1})), InvalidArgumentError);
}

TEST(Strings, BytesSplit) {
  strings::Ragged r = strings::bytes_split(S({"ab", "", "\xc3\xa9"}));
  EXPECT_EQ(V(r.values), (Strs{"a", "b", "\xc3", "\xa9"}));
  EXPECT_EQ(splits(r), (I64s{0, 2, 2, 4}));
}

TEST(Strings, JoinAndReduceJoin) {
  EXPECT_EQ(V(strings::join({S({"a", "b"}), Tensor::scalar(std::string("-")), S({"c", "d"})}, "+")),
            (Strs{"a+-+c", "b+-+d"}));
  EXPECT_THROW(strings::join({S({"a", "b"}), S({"c"})}), InvalidArgumentError);
  Tensor m = Tensor::from_strings({"a", "b", "c", "d"}, Shape{2, 2});
  EXPECT_EQ(V(strings::reduce_join(m, I64s{1}, false, ",")), (Strs{"a,b", "c,d"}));
  Tensor r0 = strings::reduce_join(m, I64s{0}, true);
  EXPECT_EQ(r0.shape(), (Shape{1, 2}));
  EXPECT_EQ(V(r0), (Strs{"ac", "bd"}));
  EXPECT_EQ(strings::reduce_join(m, std::nullopt, false, "|").item<std::string>(), "a|b|c|d");
  EXPECT_THROW(strings::reduce_join(m, I64s{2}), InvalidArgumentError);
}

TEST(Strings, LengthAndSubstr) {
  EXPECT_EQ(strings::length(S(kInput)).to_vector<int32_t>(), (std::vector<int32_t>{11, 7, 4, 0}));
  EXPECT_EQ(strings::length(S(kInput), "UTF8_CHAR").to_vector<int32_t>(),
            (std::vector<int32_t>{11, 7, 3, 0}));
  EXPECT_THROW(strings::length(S(kInput), "WORD"), InvalidArgumentError);
  EXPECT_EQ(V(strings::substr(S({"hello", "ab"}), Tensor::scalar(1), Tensor::scalar(3))),
            (Strs{"ell", "b"}));
  EXPECT_EQ(V(strings::substr(S({"hello", "abc"}), Tensor::scalar<int64_t>(-2),
                              Tensor::scalar<int64_t>(5))),
            (Strs{"lo", "bc"}));
  EXPECT_THROW(strings::substr(S({"ab"}), Tensor::scalar(3), Tensor::scalar(1)),
               InvalidArgumentError);
  EXPECT_THROW(strings::substr(S({"ab"}), Tensor::scalar(0), Tensor::from_vector<int32_t>({1, 2})),
               InvalidArgumentError);
}

TEST(Strings, ToNumberAndAsString) {
  std::vector<float> f = strings::to_number(S({"1.5", " -2e3 ", "inf", "+7"})).to_vector<float>();
  EXPECT_EQ(f[0], 1.5f);
  EXPECT_EQ(f[1], -2000.f);
  EXPECT_TRUE(std::isinf(f[2]));
  EXPECT_EQ(f[3], 7.f);
  EXPECT_EQ(strings::to_number(S({"12", "-9000000000"}), int64).to_vector<int64_t>(),
            (I64s{12, -9000000000}));
  EXPECT_THROW(strings::to_number(S({"1x"})), InvalidArgumentError);
  EXPECT_THROW(strings::to_number(S({""})), InvalidArgumentError);
  EXPECT_THROW(strings::to_number(S({"3000000000"}), int32), InvalidArgumentError);
  EXPECT_EQ(V(strings::as_string(Tensor::from_vector<float>({3.5f, -0.25f, 1e10f}))),
            (Strs{"3.500000", "-0.250000", "10000000000.000000"}));
  EXPECT_EQ(V(strings::as_string(Tensor::from_vector<float>({3.14159f}), 2)), (Strs{"3.14"}));
  EXPECT_EQ(V(strings::as_string(Tensor::from_vector<float>({1234.5f}), -1, true)),
            (Strs{"1.234500e+03"}));
  EXPECT_EQ(
      V(strings::as_string(Tensor::from_vector<float>({0.1f, 1e-7f, 100.f}), -1, false, true)),
      (Strs{"0.1", "1e-07", "100"}));
  EXPECT_EQ(V(strings::as_string(Tensor::from_vector<int32_t>({7, -12}), -1, false, false, 5, "0")),
            (Strs{"00007", "-0012"}));
  EXPECT_EQ(V(strings::as_string(Tensor::from_vector<bool>({true, false}))),
            (Strs{"true", "false"}));
  EXPECT_THROW(strings::as_string(Tensor::from_vector<int32_t>({1}), 2), InvalidArgumentError);
}

TEST(Strings, HashBucketFastMatchesTensorFlow) {
  EXPECT_EQ(
      strings::to_hash_bucket_fast(S({"", "a", "hello", "TensorFlow", std::string(100, 'x')}), 1000)
          .to_vector<int64_t>(),
      (I64s{263, 939, 296, 254, 719}));
  EXPECT_EQ(strings::to_hash_bucket_fast(S({"a", "hello"}), int64_t{1} << 62).to_vector<int64_t>(),
            (I64s{3694432073954588131, 3786372426573024488}));
  EXPECT_THROW(strings::to_hash_bucket_fast(S({"a"}), 0), InvalidArgumentError);
}

strings::Ragged ragged(const Strs& values, const I64s& row_splits) {
  return {S(values), Tensor::from_vector(row_splits)};
}

TEST(Strings, NGrams) {
  strings::Ragged r = strings::ngrams(ragged({"a", "b", "c", "d"}, {0, 3, 4, 4}), {2});
  EXPECT_EQ(V(r.values), (Strs{"a b", "b c"}));
  EXPECT_EQ(splits(r), (I64s{0, 2, 2, 2}));
  r = strings::ngrams(ragged({"a", "b", "c", "d"}, {0, 3, 4}), {1, 2}, "_");
  EXPECT_EQ(V(r.values), (Strs{"a", "b", "c", "a_b", "b_c", "d"}));
  EXPECT_EQ(splits(r), (I64s{0, 5, 6}));
  r = strings::ngrams(ragged({"a", "b", "c"}, {0, 2, 3}), {3}, " ",
                      std::pair<std::string, std::string>{"<s>", "</s>"});
  EXPECT_EQ(V(r.values), (Strs{"<s> <s> a", "<s> a b", "a b </s>", "b </s> </s>", "<s> <s> c",
                               "<s> c </s>", "c </s> </s>"}));
  EXPECT_EQ(splits(r), (I64s{0, 4, 7}));
  r = strings::ngrams(ragged({"a", "b", "c"}, {0, 2, 3}), {3}, " ",
                      std::pair<std::string, std::string>{"L", "R"}, 1);
  EXPECT_EQ(V(r.values), (Strs{"L a b", "a b R", "L c R"}));
  EXPECT_EQ(splits(r), (I64s{0, 2, 3}));
  r = strings::ngrams(ragged({"a", "b", "c", "d", "e"}, {0, 2, 5, 5}), {3}, " ", std::nullopt, -1,
                      true);
  EXPECT_EQ(V(r.values), (Strs{"a b", "c d e"}));
  EXPECT_EQ(splits(r), (I64s{0, 1, 2, 2}));
  EXPECT_THROW(strings::ngrams(ragged({"a"}, {0, 2}), {1}), InvalidArgumentError);
  EXPECT_THROW(strings::ngrams(ragged({"a"}, {0, 1}), {0}), InvalidArgumentError);
}

TEST(Strings, ArrayOpsMoveStrings) {
  Tensor m = Tensor::from_strings({"a", "b", "c", "d", "e", "f"}, Shape{2, 3});
  EXPECT_EQ(V(reshape(m, {3, 2})), (Strs{"a", "b", "c", "d", "e", "f"}));
  EXPECT_EQ(V(transpose(m)), (Strs{"a", "d", "b", "e", "c", "f"}));
  EXPECT_EQ(V(gather(m, Tensor::from_vector<int32_t>({2, 0}), 1)), (Strs{"c", "a", "f", "d"}));
  EXPECT_EQ(V(concat({m, m}, 0)).size(), 12u);
  Tensor st = stack({S({"x", "y"}), S({"z", "w"})});
  EXPECT_EQ(st.shape(), (Shape{2, 2}));
  EXPECT_EQ(V(st), (Strs{"x", "y", "z", "w"}));
  EXPECT_EQ(V(m(1)), (Strs{"d", "e", "f"}));
  EXPECT_EQ(V(slice(m, {0, 1}, {2, 1})), (Strs{"b", "e"}));
  Tensor w = where(Tensor::from_vector<bool>({true, false}), S({"p", "q"}), S({"r", "s"}));
  EXPECT_EQ(V(w), (Strs{"p", "s"}));
  EXPECT_EQ(equal(S({"a", "b"}), S({"a", "c"})).to_vector<bool>(),
            (std::vector<bool>{true, false}));
  EXPECT_EQ(not_equal(S({"a", "b"}), Tensor::scalar(std::string("a"))).to_vector<bool>(),
            (std::vector<bool>{false, true}));
  // Results outlive their inputs: the gathered strings stay valid.
  Tensor g;
  {
    Tensor src = S({std::string(64, 'q'), "r"});
    g = gather(src, Tensor::from_vector<int32_t>({0, 0}));
  }
  EXPECT_EQ(V(g)[1], std::string(64, 'q'));
}

TEST(Strings, NumericOpsRejectStrings) {
  try {
    add(S({"a"}), S({"b"}));
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("AddV2 does not support dtype string"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(strings::lower(Tensor::from_vector<float>({1.f})), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc
