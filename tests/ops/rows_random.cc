// Conformance rows of the random family. Values cannot be predicted, so each row checks
// properties: shape and dtype, range, mean and standard deviation on 100k samples (loose
// statistical bounds), reproducibility (same seeds, same values; other seeds, other values) and
// independence from the OpenMP thread count.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>

#include "tests/ops/harness.h"

namespace tfcc::conformance {
namespace {

constexpr int64_t kSamples = 100000;

struct Stats {
  double mean = 0, std = 0, min = INFINITY, max = -INFINITY;
};
Stats stats(const Tensor& t) {
  std::vector<double> v = t.to_vector<double>();
  Stats s;
  for (double x : v) {
    s.mean += x;
    s.min = std::min(s.min, x);
    s.max = std::max(s.max, x);
  }
  s.mean /= double(v.size());
  for (double x : v) s.std += (x - s.mean) * (x - s.mean);
  s.std = std::sqrt(s.std / double(v.size()));
  return s;
}

bool same(const Tensor& a, const Tensor& b) {
  return a.shape() == b.shape() && a.to_vector<double>() == b.to_vector<double>();
}

// Runs `make` with 1 and then 2 OpenMP threads; the values must agree.
void expect_thread_independent(const std::function<Tensor()>& make) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  Tensor one = make();
  omp_set_num_threads(2);
  Tensor two = make();
  omp_set_num_threads(saved);
  EXPECT_TRUE(same(one, two)) << "values depend on the thread count";
}

// Same global seed => same sequence; other op seeds => other values; thread independence.
void expect_seeding(const std::function<Tensor(std::optional<int64_t>)>& make) {
  random::set_seed(1234);
  Tensor a1 = make(std::nullopt), a2 = make(std::nullopt), a3 = make(7);
  EXPECT_FALSE(same(a1, a2)) << "two calls under one global seed repeated values";
  random::set_seed(1234);
  Tensor b1 = make(std::nullopt), b2 = make(std::nullopt), b3 = make(7);
  EXPECT_TRUE(same(a1, b1)) << "set_seed did not repeat the sequence";
  EXPECT_TRUE(same(a2, b2));
  EXPECT_TRUE(same(a3, b3)) << "op seed with global seed did not repeat";
  random::set_seed(99);
  EXPECT_FALSE(same(a1, make(std::nullopt))) << "another global seed repeated values";
  EXPECT_FALSE(same(make(7), make(8))) << "other op seeds repeated values";
  expect_thread_independent([&] {
    random::set_seed(5);
    return make(std::nullopt);
  });
}

OpRow uniform_row() {
  OpRow row;
  row.name = "uniform";
  row.ops = {"RandomUniform"};
  row.dtypes = {float32, float64, int32, int64};
  row.property_check = [](DType dt) {
    const bool integer = is_integer(dt);
    const double lo = integer ? -3 : -1, hi = integer ? 7 : 3;
    Tensor x = random::uniform({kSamples}, lo, hi, dt, 11);
    EXPECT_EQ(x.dtype(), dt);
    EXPECT_EQ(x.shape(), Shape({kSamples}));
    Stats s = stats(x);
    EXPECT_GE(s.min, lo);
    EXPECT_LT(s.max, hi);
    // Continuous: mean (lo+hi)/2, std (hi-lo)/sqrt(12); integers in [lo, hi-1].
    const double mean = integer ? (lo + hi - 1) / 2 : (lo + hi) / 2;
    const double sd =
        integer ? std::sqrt(((hi - lo) * (hi - lo) - 1) / 12) : (hi - lo) / std::sqrt(12.0);
    EXPECT_NEAR(s.mean, mean, 0.02 * (hi - lo));
    EXPECT_NEAR(s.std, sd, 0.02 * sd);
    if (integer) {
      EXPECT_EQ(s.min, lo);
      EXPECT_EQ(s.max, hi - 1);
    }
    EXPECT_EQ(random::uniform({2, 0, 3}, 0, 1, dt).shape(), Shape({2, 0, 3}));
    EXPECT_EQ(random::uniform({}, 0, 1, dt).shape(), Shape{});
    expect_seeding(
        [dt](std::optional<int64_t> seed) { return random::uniform({kSamples}, 0, 10, dt, seed); });
    // Extreme int64 range stays in range.
    if (dt == int64) {
      Tensor w = random::uniform({1000}, -9e18, 9e18, int64, 3);
      Stats ws = stats(w);
      EXPECT_GE(ws.min, -9e18);
      EXPECT_LT(ws.max, 9e18);
    }
  };
  row.invalid = {
      {"maxval == minval", [] { random::uniform({2}, 1, 1); }, ErrorCode::kInvalidArgument,
       "Need minval < maxval: 1 >= 1"},
      {"maxval < minval int", [] { random::uniform({2}, 5, 3, int32); },
       ErrorCode::kInvalidArgument, "Need minval < maxval"},
      {"fractional int bound", [] { random::uniform({2}, 0.5, 3, int32); },
       ErrorCode::kInvalidArgument, "Cannot convert 0.5"},
      {"negative shape", [] { random::uniform({-2}); }, ErrorCode::kInvalidArgument,
       "must be >= 0"},
      {"bool dtype", [] { random::uniform({2}, 0, 1, bool_); }, ErrorCode::kInvalidArgument,
       "[Op:RandomUniform]"},
  };
  return row;
}

using NormalFn =
    std::function<Tensor(std::vector<int64_t>, double, double, DType, std::optional<int64_t>)>;

OpRow normal_row(std::string name, std::string op, NormalFn fn, bool truncated) {
  OpRow row;
  row.name = name;
  row.ops = {op};
  row.dtypes = kFloat;
  row.property_check = [fn, truncated](DType dt) {
    Tensor x = fn({kSamples}, 0, 1, dt, 3);
    EXPECT_EQ(x.dtype(), dt);
    EXPECT_EQ(x.shape(), Shape({kSamples}));
    Stats s = stats(x);
    EXPECT_NEAR(s.mean, 0, 0.02);
    // A normal truncated at two standard deviations has std 0.8796.
    EXPECT_NEAR(s.std, truncated ? 0.8796 : 1.0, 0.02);
    if (truncated) {
      EXPECT_GT(s.min, -2);
      EXPECT_LT(s.max, 2);
    } else {
      EXPECT_LT(s.min, -3.5);  // 100k samples reach past 3.5 sigma
      EXPECT_GT(s.max, 3.5);
    }
    std::vector<double> v = x.to_vector<double>();
    EXPECT_TRUE(std::all_of(v.begin(), v.end(), [](double d) { return std::isfinite(d); }));
    Stats t = stats(fn({kSamples}, 5, 0.5, dt, 4));
    EXPECT_NEAR(t.mean, 5, 0.01);
    EXPECT_NEAR(t.std, truncated ? 0.5 * 0.8796 : 0.5, 0.01);
    if (truncated) {
      EXPECT_GT(t.min, 4);
      EXPECT_LT(t.max, 6);
    }
    EXPECT_EQ(fn({3, 0}, 0, 1, dt, std::nullopt).shape(), Shape({3, 0}));
    expect_seeding(
        [fn, dt](std::optional<int64_t> seed) { return fn({kSamples + 3}, 0, 1, dt, seed); });
  };
  row.invalid = {
      {"negative shape",
       [fn] {
         fn({3, -1}, 0, 1, float32, std::nullopt);
       },
       ErrorCode::kInvalidArgument, "must be >= 0"},
      {"int32 dtype", [fn] { fn({3}, 0, 1, int32, std::nullopt); }, ErrorCode::kInvalidArgument,
       "[Op:" + op + "]"},
  };
  return row;
}

OpRow categorical_row() {
  OpRow row;
  row.name = "categorical";
  row.ops = {"Multinomial"};
  row.dtypes = kFloat;
  row.property_check = [](DType dt) {
    const std::vector<double> p = {0.1, 0.2, 0.7};
    Ref logits = mat({{std::log(p[0]), std::log(p[1]), std::log(p[2])}, {0, -INFINITY, 0}});
    Tensor l = to_tensor(logits, dt);
    Tensor s = random::categorical(l, kSamples, 5);
    EXPECT_EQ(s.dtype(), int64);
    EXPECT_EQ(s.shape(), Shape({2, kSamples}));
    std::vector<int64_t> v = s.to_vector<int64_t>();
    std::vector<double> freq(6, 0);
    for (int64_t b = 0; b < 2; ++b) {
      for (int64_t i = 0; i < kSamples; ++i) {
        int64_t k = v[size_t(b * kSamples + i)];
        ASSERT_GE(k, 0);
        ASSERT_LT(k, 3);
        freq[size_t(b * 3 + k)] += 1.0 / kSamples;
      }
    }
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(freq[size_t(k)], p[size_t(k)], 0.01);
    EXPECT_NEAR(freq[3], 0.5, 0.01);
    EXPECT_EQ(freq[4], 0);  // -inf logit: never drawn
    EXPECT_NEAR(freq[5], 0.5, 0.01);
    EXPECT_EQ(random::categorical(l, 0).shape(), Shape({2, 0}));
    expect_seeding(
        [l](std::optional<int64_t> seed) { return random::categorical(l, 50000, seed); });
  };
  row.invalid = {
      {"rank 1 logits",
       [] {
         random::categorical(Tensor::from_vector<float>({0, 1}), 3);
       },
       ErrorCode::kInvalidArgument, "logits should be a matrix"},
      {"negative num_samples",
       [] {
         random::categorical(Tensor::from_vector<float>({0, 1}, Shape{1, 2}), -1);
       },
       ErrorCode::kInvalidArgument, "num_samples should be nonnegative"},
      {"no classes",
       [] {
         random::categorical(Tensor::from_vector<float>({}, Shape{2, 0}), 3);
       },
       ErrorCode::kInvalidArgument, "num_classes should be positive"},
      {"int logits",
       [] {
         random::categorical(Tensor::from_vector<int32_t>({0, 1}, Shape{1, 2}), 3);
       },
       ErrorCode::kInvalidArgument, "[Op:Multinomial]"},
  };
  return row;
}

OpRow shuffle_row() {
  OpRow row;
  row.name = "shuffle";
  row.ops = {"RandomShuffle"};
  row.dtypes = {float32, float64, int32, int64, uint8, bool_};
  row.property_check = [](DType dt) {
    const int64_t n = dt == uint8 || dt == bool_ ? 200 : 100000;
    Tensor x = to_tensor(shaped({n, 2},
                                [&] {
                                  std::vector<double> v;
                                  for (int64_t i = 0; i < n; ++i) {
                                    const double e = dt == bool_ ? double(i % 2) : double(i % 200);
                                    v.push_back(e);
                                    v.push_back(e);
                                  }
                                  return v;
                                }()),
                         dt);
    Tensor y = random::shuffle(x, 3);
    EXPECT_EQ(y.dtype(), dt);
    EXPECT_EQ(y.shape(), x.shape());
    std::vector<double> a = x.to_vector<double>(), b = y.to_vector<double>();
    for (int64_t i = 0; i < n; ++i)
      EXPECT_EQ(b[size_t(2 * i)], b[size_t(2 * i + 1)]) << "rows kept";
    EXPECT_NE(a, b) << "nothing moved";
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    EXPECT_EQ(a, b) << "not a permutation";
    EXPECT_TRUE(same(random::shuffle(Tensor::scalar<float>(2), 1), Tensor::scalar<float>(2)));
    EXPECT_EQ(random::shuffle(to_tensor(shaped({0, 3}, {}), dt)).shape(), Shape({0, 3}));
    expect_seeding([x](std::optional<int64_t> seed) { return random::shuffle(x, seed); });
  };
  row.invalid = {
      {"undefined input", [] { random::shuffle(Tensor()); }, ErrorCode::kInvalidArgument,
       "undefined"},
  };
  return row;
}

using StatelessFn = std::function<Tensor(std::vector<int64_t>, std::array<int64_t, 2>, DType)>;

OpRow stateless_row(std::string name, std::string op, std::vector<DType> dtypes, StatelessFn fn,
                    double lo, double hi, double mean, double sd) {
  OpRow row;
  row.name = name;
  row.ops = {op};
  row.dtypes = std::move(dtypes);
  row.property_check = [=](DType dt) {
    Tensor a = fn({kSamples}, {1, 2}, dt);
    EXPECT_EQ(a.dtype(), dt);
    EXPECT_EQ(a.shape(), Shape({kSamples}));
    EXPECT_TRUE(same(a, fn({kSamples}, {1, 2}, dt))) << "stateless op is not deterministic";
    random::set_seed(77);  // global seed does not matter
    EXPECT_TRUE(same(a, fn({kSamples}, {1, 2}, dt)));
    EXPECT_FALSE(same(a, fn({kSamples}, {1, 3}, dt)));
    EXPECT_FALSE(same(a, fn({kSamples}, {2, 2}, dt)));
    Stats s = stats(a);
    EXPECT_GE(s.min, lo);
    EXPECT_LT(s.max, hi);
    const double tol = is_integer(dt) ? 0.05 : 0.02;
    EXPECT_NEAR(s.mean, mean, tol * std::max(1.0, sd));
    EXPECT_NEAR(s.std, sd, tol * sd);
    expect_thread_independent([&] { return fn({kSamples}, {9, -4}, dt); });
  };
  row.invalid = {
      {"negative shape",
       [fn] {
         fn({-1}, {1, 2}, float32);
       },
       ErrorCode::kInvalidArgument, "must be >= 0"},
      {"bool dtype",
       [fn] {
         fn({1}, {1, 2}, bool_);
       },
       ErrorCode::kInvalidArgument, "[Op:" + op + "]"},
  };
  return row;
}

}  // namespace

std::vector<OpRow> random_rows() {
  std::vector<OpRow> rows;
  rows.push_back(uniform_row());
  rows.push_back(normal_row(
      "normal", "RandomStandardNormal",
      [](std::vector<int64_t> s, double m, double sd, DType d, std::optional<int64_t> seed) {
        return random::normal(std::move(s), m, sd, d, seed);
      },
      false));
  rows.push_back(normal_row(
      "truncated_normal", "TruncatedNormal",
      [](std::vector<int64_t> s, double m, double sd, DType d, std::optional<int64_t> seed) {
        return random::truncated_normal(std::move(s), m, sd, d, seed);
      },
      true));
  rows.push_back(categorical_row());
  rows.push_back(shuffle_row());
  OpRow su = stateless_row(
      "stateless_uniform", "StatelessRandomUniformV2", {float32, float64},
      [](std::vector<int64_t> s, std::array<int64_t, 2> seed, DType d) {
        return random::stateless_uniform(std::move(s), seed, -1, 3, d);
      },
      -1, 3, 1, 4 / std::sqrt(12.0));
  su.invalid.push_back({"maxval <= minval",
                        [] {
                          random::stateless_uniform({2}, {1, 2}, 2, 1);
                        },
                        ErrorCode::kInvalidArgument, "Need minval < maxval"});
  rows.push_back(su);
  OpRow sui = stateless_row(
      "stateless_uniform_int", "StatelessRandomUniformV2", {int32, int64},
      [](std::vector<int64_t> s, std::array<int64_t, 2> seed, DType d) {
        return random::stateless_uniform(std::move(s), seed, 0, 10, d);
      },
      0, 10, 4.5, std::sqrt(99.0 / 12));
  rows.push_back(sui);
  rows.push_back(stateless_row(
      "stateless_normal", "StatelessRandomNormalV2", kFloat,
      [](std::vector<int64_t> s, std::array<int64_t, 2> seed, DType d) {
        return random::stateless_normal(std::move(s), seed, 0, 1, d);
      },
      -10, 10, 0, 1));
  rows.push_back(stateless_row(
      "stateless_truncated_normal", "StatelessTruncatedNormalV2", kFloat,
      [](std::vector<int64_t> s, std::array<int64_t, 2> seed, DType d) {
        return random::stateless_truncated_normal(std::move(s), seed, 0, 1, d);
      },
      -2, 2, 0, 0.8796));
  return rows;
}

}  // namespace tfcc::conformance
