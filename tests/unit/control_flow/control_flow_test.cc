// cond, while_loop, for_range and TensorArray: identical eager and traced, gradients through both.
#include <gtest/gtest.h>

#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

// Runs fn eagerly and traced and expects bitwise equal results.
void expect_same(const std::function<Tensor(Tensor)>& fn, const Tensor& x) {
  Tensor eager = fn(x);
  auto traced = function([&](Tensor t) { return fn(t); });
  Tensor graph = traced(x);
  EXPECT_EQ(eager.shape(), graph.shape());
  EXPECT_EQ(eager.to_vector<double>(), graph.to_vector<double>());
  EXPECT_EQ(traced.tracing_count(), 1);
}

TEST(CondTest, EagerAndTracedAgree) {
  auto fn = [](Tensor x) {
    return cond(
        reduce_sum(x) > 0.0f, [&] { return x * 2.0f; }, [&] { return -x; });
  };
  expect_same(fn, constant({1.f, 2.f}));
  expect_same(fn, constant({-1.f, -2.f}));
  auto f = function(fn);
  EXPECT_EQ(f(constant({1.f})).item<float>(), 2.f);
  EXPECT_EQ(f(constant({-3.f})).item<float>(), 3.f);  // same graph, other branch
  EXPECT_EQ(f.tracing_count(), 1);
  ConcreteFunction cf = f.get_concrete_function(TensorSpec{PartialShape({1})});
  std::string text = cf.graph().to_string();
  EXPECT_NE(text.find("If("), std::string::npos) << text;
  EXPECT_NE(text.find("function cond_true"), std::string::npos) << text;
  EXPECT_NE(text.find("function cond_false"), std::string::npos) << text;
}

TEST(CondTest, StructuredResults) {
  auto f = function([](Tensor x) {
    return cond(
        x > 0.0f,
        [&] {
          return std::tuple{x + 1.0f, cast(x, int32)};
        },
        [&] {
          return std::tuple{x - 1.0f, constant(7)};
        });
  });
  auto [a, b] = f(constant(2.f));
  EXPECT_EQ(a.item<float>(), 3.f);
  EXPECT_EQ(b.item<int>(), 2);
  auto [c, d] = f(constant(-2.f));
  EXPECT_EQ(c.item<float>(), -3.f);
  EXPECT_EQ(d.item<int>(), 7);
}

TEST(CondTest, MismatchedBranchesAreClearErrors) {
  auto dtypes = function([](Tensor x) {
    return cond(
        x > 0.0f, [&] { return x; }, [&] { return cast(x, float64); });
  });
  try {
    dtypes(constant(1.f));
    FAIL();
  } catch (const InvalidArgumentError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("same dtypes: output 0 is float32 in true_fn and float64 in false_fn"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("control_flow_test.cc:"), std::string::npos) << m;
  }
  auto lengths = function([](Tensor x) {
    return cond(
        x > 0.0f, [&] { return std::vector<Tensor>{x}; },
        [&] {
          return std::vector<Tensor>{x, x};
        });
  });
  EXPECT_THROW(lengths(constant(1.f)), InvalidArgumentError);
  auto not_bool = function([](Tensor x) {
    return cond(
        x, [&] { return x; }, [&] { return x; });
  });
  EXPECT_THROW(not_bool(constant(1.f)), InvalidArgumentError);
}

TEST(CondTest, ShapesMergeToMostSpecific) {
  auto f = function([](Tensor x) {
    return cond(
        x(0) > 0.0f, [&] { return x; },
        [&] {
          return concat({x, x}, 0);
        });
  });
  ConcreteFunction cf = f.get_concrete_function(TensorSpec{PartialShape({2})});
  EXPECT_EQ(cf.output_specs()[0].shape, PartialShape({-1}));
  EXPECT_EQ(f(constant({1.f, 2.f})).shape(), Shape({2}));
  EXPECT_EQ(f(constant({-1.f, 2.f})).shape(), Shape({4}));
}

TEST(WhileLoopTest, EagerAndTracedAgree) {
  auto fn = [](Tensor x) {
    auto [i, acc] = while_loop([](const Tensor& i, const Tensor&) { return i < 5; },
                               [](const Tensor& i, const Tensor& acc) {
                                 return std::tuple{i + 1, acc * 1.5f + cast(i, float32)};
                               },
                               std::tuple{constant(0), x});
    (void)i;
    return acc;
  };
  expect_same(fn, constant({1.f, -2.f}));
}

TEST(WhileLoopTest, MaximumIterations) {
  auto fn = [](Tensor x) {
    return while_loop([](const Tensor&) { return constant(true); },
                      [](const Tensor& v) { return v + 1.0f; }, x, {.maximum_iterations = 4});
  };
  expect_same(fn, constant(0.f));
  EXPECT_EQ(fn(constant(0.f)).item<float>(), 4.f);
}

TEST(WhileLoopTest, ShapeInvariants) {
  auto grow = [](Tensor x, std::vector<PartialShape> inv) {
    return while_loop([](const Tensor& v) { return size(v) < 8; },
                      [](const Tensor& v) {
                        return concat({v, v}, 0);
                      },
                      x, {.shape_invariants = std::move(inv)});
  };
  auto bad = function([&](Tensor x) { return grow(x, {}); });
  try {
    bad(constant({1.f}));
    FAIL();
  } catch (const InvalidArgumentError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("enters the loop with shape (1,), but has shape (2,) after one iteration"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("shape_invariants"), std::string::npos) << m;
  }
  auto good = function([&](Tensor x) { return grow(x, {PartialShape({-1})}); });
  EXPECT_EQ(good(constant({1.f})).shape(), Shape({8}));
  EXPECT_EQ(grow(constant({1.f}), {}).shape(), Shape({8}));  // eager: no invariants needed
}

TEST(WhileLoopTest, SymbolicToBoolInsideLoopBodyNamesLine) {
  auto f = function([](Tensor x) {
    return while_loop([](const Tensor& v) { return v < 10.0f; },
                      [](const Tensor& v) {
                        if (v.item<bool>()) return v + 1.0f;
                        return v;
                      },
                      x);
  });
  int line = __LINE__ - 5;
  try {
    f(constant(1.f));
    FAIL();
  } catch (const FailedPreconditionError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find(internal::str_cat("control_flow_test.cc:", line)), std::string::npos) << m;
    EXPECT_NE(m.find("tfcc::cond"), std::string::npos) << m;
  }
}

TEST(ForRangeTest, EagerAndTracedAgree) {
  auto fn = [](Tensor x) {
    return for_range(
        shape(x)(0),
        [&](const Tensor& i, const Tensor& acc) { return acc + gather(x, i) * gather(x, i); },
        constant(0.f));
  };
  expect_same(fn, constant({1.f, 2.f, 3.f}));
  EXPECT_EQ(fn(constant({1.f, 2.f, 3.f})).item<float>(), 14.f);
}

TEST(TensorArrayTest, EagerBasics) {
  TensorArray ta(float32, 3);
  for (int i = 0; i < 3; ++i) ta = ta.write(i, fill({2}, i));
  EXPECT_EQ(ta.stack().to_vector<float>(), (std::vector<float>{0, 0, 1, 1, 2, 2}));
  EXPECT_EQ(ta.read(1).to_vector<float>(), (std::vector<float>{1, 1}));
  EXPECT_EQ(ta.size().item<int>(), 3);
  EXPECT_THROW(ta.write(3, fill({2}, 0)), InvalidArgumentError);
  EXPECT_THROW(ta.write(0, fill({3}, 0)), InvalidArgumentError);
  EXPECT_THROW(ta.write(0, fill({2}, 0, int32)), InvalidArgumentError);
  TensorArray dyn(float32, 0, {.dynamic_size = true});
  dyn = dyn.write(2, constant(5.f));
  EXPECT_EQ(dyn.size().item<int>(), 3);
  EXPECT_EQ(dyn.stack().to_vector<float>(), (std::vector<float>{0, 0, 5}));
  TensorArray u = TensorArray(float32, 0).unstack(constant({{1.f, 2.f}, {3.f, 4.f}}));
  EXPECT_EQ(u.size().item<int>(), 2);
  EXPECT_EQ(u.read(1).to_vector<float>(), (std::vector<float>{3, 4}));
  EXPECT_THROW(TensorArray(float32, 2).read(0), InvalidArgumentError);
}

TEST(TensorArrayTest, InLoopsEagerAndTraced) {
  // Size known at trace time.
  auto fixed = [](Tensor x) {
    TensorArray ta = for_range(
        3, [&](const Tensor& i, TensorArray t) { return t.write(i, x * cast(i, float32)); },
        TensorArray(float32, 3));
    return ta.stack();
  };
  expect_same(fixed, constant({1.f, 2.f}));
  // Size and element shape only known at run time (the seed's DynamicRNN pattern).
  auto dynamic = [](Tensor x) {
    Tensor n = shape(x)(0);
    TensorArray ta = for_range(
        n, [&](const Tensor& i, TensorArray t) { return t.write(i, gather(x, i) * 2.0f); },
        TensorArray(float32, n));
    return ta.stack();
  };
  expect_same(dynamic, constant({{1.f, 2.f}, {3.f, 4.f}, {5.f, 6.f}}));
  auto f = function(dynamic, {.input_signature = {{TensorSpec{PartialShape({-1, -1})}}}});
  EXPECT_EQ(f(ones({4, 5})).shape(), Shape({4, 5}));
  EXPECT_EQ(f(ones({2, 1})).shape(), Shape({2, 1}));
  // unstack + read in a loop.
  auto reverse_sum = [](Tensor x) {
    TensorArray in = TensorArray(float32, 0).unstack(x);
    return for_range(
        in.size(), [&](const Tensor& i, const Tensor& acc) { return acc + in.read(i); },
        zeros_like(x(0)));
  };
  expect_same(reverse_sum, constant({{1.f, 2.f}, {3.f, 4.f}}));
}

TEST(NestingTest, CondInsideWhileInsideCond) {
  auto fn = [](Tensor x) {
    return cond(
        reduce_sum(x) > 0.0f,
        [&] {
          return while_loop([](const Tensor& v) { return reduce_sum(v) < 100.0f; },
                            [](const Tensor& v) {
                              return cond(
                                  v(0) > 5.0f, [&] { return v * 3.0f; }, [&] { return v + 2.0f; });
                            },
                            x);
        },
        [&] { return x; });
  };
  expect_same(fn, constant({1.f, 2.f}));
  expect_same(fn, constant({-1.f, -2.f}));
}

}  // namespace
}  // namespace tfcc
