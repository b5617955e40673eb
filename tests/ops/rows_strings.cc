// Conformance rows of the strings family. The table's references are numeric, so these rows
// are property checks: values from TensorFlow 2.21 (tests/unit/ops/testdata/
// strings_reference.py), the same result inside a tfcc::function (traced parity), and invalid
// inputs. tests/unit/ops/strings_test.cc has the fuller value tests.
#include <gtest/gtest.h>

#include "tests/ops/harness.h"
#include "tfcc/ops/strings/lookup.h"

namespace tfcc::conformance {
namespace {

using Strs = std::vector<std::string>;
using I64s = std::vector<int64_t>;

Tensor S(const Strs& v) { return Tensor::from_strings(v); }
Strs V(const Tensor& t) { return t.to_vector<std::string>(); }

BadCase bad(std::string label, std::function<void()> call, std::string msg) {
  return {std::move(label), std::move(call), ErrorCode::kInvalidArgument, std::move(msg)};
}

// Eager and traced results of f(x) agree and equal `want`.
void expect_strings(const std::function<Tensor(Tensor)>& f, const Tensor& x, const Strs& want) {
  EXPECT_EQ(V(f(x)), want);
  auto traced = function([&f](Tensor in) { return f(in); });
  EXPECT_EQ(V(traced(x)), want) << "traced";
}

OpRow row(std::string name, std::vector<std::string> ops, std::function<void(DType)> check,
          std::vector<BadCase> invalid) {
  OpRow r;
  r.name = std::move(name);
  r.ops = std::move(ops);
  r.dtypes = {string};
  r.property_check = std::move(check);
  r.invalid = std::move(invalid);
  r.grad_check = false;  // strings have no gradient
  return r;
}

const Strs kIn = {"Hello World", "  a  b ", ""};

}  // namespace

std::vector<OpRow> strings_rows() {
  std::vector<OpRow> rows;
  rows.push_back(row("strings_case_strip", {"StringLower", "StringUpper", "StringStrip"},
                     [](DType) {
                       expect_strings([](Tensor x) { return strings::lower(x); }, S(kIn),
                                      {"hello world", "  a  b ", ""});
                       expect_strings([](Tensor x) { return strings::upper(x); }, S(kIn),
                                      {"HELLO WORLD", "  A  B ", ""});
                       expect_strings([](Tensor x) { return strings::strip(x); }, S(kIn),
                                      {"Hello World", "a  b", ""});
                     },
                     {bad(
                         "numbers", [] { strings::lower(Tensor::from_vector<float>({1.f})); },
                         "was expected to be a string tensor")}));
  rows.push_back(
      row("regex", {"StaticRegexReplace", "StaticRegexFullMatch"},
          [](DType) {
            expect_strings([](Tensor x) { return strings::regex_replace(x, "[aeiou]", "_"); },
                           S(kIn), {"H_ll_ W_rld", "  _  b ", ""});
            EXPECT_EQ(strings::regex_full_match(S(kIn), "\\w+ \\w+").to_vector<bool>(),
                      (std::vector<bool>{true, false, false}));
          },
          {bad(
              "pattern", [] { strings::regex_replace(S(kIn), "(", ""); }, "Invalid pattern")}));
  rows.push_back(row("split", {"StringSplitV2", "_SparseRowSplits", "_BytesSplit"},
                     [](DType) {
                       strings::Ragged r = strings::split(S(kIn));
                       EXPECT_EQ(V(r.values), (Strs{"Hello", "World", "a", "b"}));
                       EXPECT_EQ(r.row_splits.to_vector<int64_t>(), (I64s{0, 2, 4, 4}));
                       auto traced =
                           function([](Tensor x) { return strings::split(x).row_splits; });
                       EXPECT_EQ(traced(S(kIn)).to_vector<int64_t>(), (I64s{0, 2, 4, 4}));
                       strings::Ragged b = strings::bytes_split(S({"ab", ""}));
                       EXPECT_EQ(V(b.values), (Strs{"a", "b"}));
                       EXPECT_EQ(b.row_splits.to_vector<int64_t>(), (I64s{0, 2, 2}));
                     },
                     {bad(
                         "matrix",
                         [] {
                           strings::split(Tensor::from_strings({"a"}, Shape{1, 1}));
                         },
                         "input must be a vector")}));
  rows.push_back(row("join", {"StringJoin", "ReduceJoin"},
                     [](DType) {
                       expect_strings(
                           [](Tensor x) {
                             return strings::join({x, x}, "-");
                           },
                           S({"a", "b"}), {"a-a", "b-b"});
                       expect_strings(
                           [](Tensor x) { return strings::reduce_join(x, I64s{0}, false, ","); },
                           Tensor::from_strings({"a", "b", "c", "d"}, Shape{2, 2}), {"a,c", "b,d"});
                     },
                     {bad(
                         "shapes",
                         [] {
                           strings::join({S({"a", "b"}), S({"c"})});
                         },
                         "do not match")}));
  rows.push_back(row(
      "length_substr", {"StringLength", "Substr"},
      [](DType) {
        EXPECT_EQ(strings::length(S(kIn)).to_vector<int32_t>(), (std::vector<int32_t>{11, 7, 0}));
        expect_strings(
            [](Tensor x) { return strings::substr(x, Tensor::scalar(1), Tensor::scalar(3)); },
            S({"hello", "ab"}), {"ell", "b"});
      },
      {bad(
          "pos", [] { strings::substr(S({"ab"}), Tensor::scalar(3), Tensor::scalar(1)); },
          "out of range")}));
  rows.push_back(row(
      "to_number_as_string", {"StringToNumber", "AsString"},
      [](DType) {
        EXPECT_EQ(strings::to_number(S({"1.5", " -2e3 "})).to_vector<float>(),
                  (std::vector<float>{1.5f, -2000.f}));
        EXPECT_EQ(V(strings::as_string(Tensor::from_vector<float>({3.5f}))), (Strs{"3.500000"}));
        auto traced = function([](Tensor x) { return strings::as_string(x, 2); });
        EXPECT_EQ(V(traced(Tensor::from_vector<double>({3.14159}))), (Strs{"3.14"}));
      },
      {bad(
          "text", [] { strings::to_number(S({"1x"})); }, "could not correctly convert")}));
  rows.push_back(row(
      "to_hash_bucket_fast", {"StringToHashBucketFast"},
      [](DType) {
        EXPECT_EQ(strings::to_hash_bucket_fast(S({"", "a", "hello"}), 1000).to_vector<int64_t>(),
                  (I64s{263, 939, 296}));
      },
      {bad(
          "buckets", [] { strings::to_hash_bucket_fast(S({"a"}), 0); }, "num_buckets")}));
  rows.push_back(row("ngrams", {"StringNGrams"},
                     [](DType) {
                       strings::Ragged r = strings::ngrams(
                           {S({"a", "b", "c", "d"}), Tensor::from_vector<int64_t>({0, 3, 4})}, {2});
                       EXPECT_EQ(V(r.values), (Strs{"a b", "b c"}));
                       EXPECT_EQ(r.row_splits.to_vector<int64_t>(), (I64s{0, 2, 2}));
                     },
                     {bad(
                         "splits",
                         [] {
                           strings::ngrams({S({"a"}), Tensor::from_vector<int64_t>({0, 2})}, {1});
                         },
                         "split value")}));
  rows.push_back(
      row("lookup", {"_IndexLookup", "_RaggedToDense", "_RaggedBincount"},
          [](DType) {
            Tensor ids = strings::index_lookup(S({"b", "z", "a"}), S({"a", "b"}), Tensor(), 1);
            EXPECT_EQ(ids.to_vector<int64_t>(), (I64s{2, 0, 1}));
            Tensor splits = Tensor::from_vector<int64_t>({0, 2, 3});
            EXPECT_EQ(strings::ragged_to_dense(ids, splits, -1).to_vector<int64_t>(),
                      (I64s{2, 0, 1, 0}));
            EXPECT_EQ(strings::ragged_bincount(ids, splits, 3, false).to_vector<int64_t>(),
                      (I64s{1, 0, 1, 0, 1, 0}));
          },
          {bad(
               "oov", [] { strings::index_lookup(S({"z"}), S({"a"}), Tensor(), 0); },
               "not in the vocabulary"),
           bad(
               "range",
               [] {
                 strings::ragged_bincount(Tensor::from_vector<int64_t>({5}),
                                          Tensor::from_vector<int64_t>({0, 1}), 3, false);
               },
               "outside")}));
  return rows;
}

}  // namespace tfcc::conformance
