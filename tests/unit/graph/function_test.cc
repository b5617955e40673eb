// tfcc::function: tracing, the cache key, input signatures, retracing and its messages.
#include <gtest/gtest.h>

#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

TEST(FunctionTest, TracesOnceAndRunsTheGraph) {
  int traces = 0;
  auto f = function([&](Tensor x, Tensor y) {
    ++traces;
    return x * y + 1.0f;
  });
  Tensor a = constant({1.f, 2.f}), b = constant({3.f, 4.f});
  EXPECT_EQ(f(a, b).to_vector<float>(), (std::vector<float>{4, 9}));
  EXPECT_EQ(f(b, a).to_vector<float>(), (std::vector<float>{4, 9}));
  EXPECT_EQ(traces, 1);
  EXPECT_EQ(f.tracing_count(), 1);
  EXPECT_FALSE(f(a, b).is_symbolic());
}

TEST(FunctionTest, CacheKeyUsesShapeDtypeAndCppValues) {
  auto f = function([](Tensor x, int power) {
    Tensor y = x;
    for (int i = 1; i < power; ++i) y = y * x;
    return y;
  });
  EXPECT_EQ(f(constant({2.f}), 3).item<float>(), 8.f);
  EXPECT_EQ(f(constant({3.f}), 3).item<float>(), 27.f);  // hit
  EXPECT_EQ(f.tracing_count(), 1);
  EXPECT_EQ(f(constant({3.f}), 2).item<float>(), 9.f);  // new C++ value: miss
  EXPECT_EQ(f.tracing_count(), 2);
  EXPECT_NE(f.last_retrace_reason().find("argument #1 changed value from 3 to 2"),
            std::string::npos)
      << f.last_retrace_reason();
  f(constant({1.f, 2.f}), 2);  // new shape: miss
  EXPECT_EQ(f.tracing_count(), 3);
  EXPECT_NE(f.last_retrace_reason().find("argument #0 changed shape from (1,) to (2,)"),
            std::string::npos)
      << f.last_retrace_reason();
  f(constant({1.0, 2.0}, float64), 2);  // new dtype: miss
  EXPECT_EQ(f.tracing_count(), 4);
  EXPECT_NE(f.last_retrace_reason().find("argument #0 changed dtype from float32 to float64"),
            std::string::npos);
  f(constant({5.f}), 3);  // an old key: hit
  EXPECT_EQ(f.tracing_count(), 4);
}

TEST(FunctionTest, InputSignatureWithUnknownDims) {
  auto f = function([](Tensor x) { return reduce_sum(x, {1}); },
                    {.name = "rowsum", .input_signature = {{TensorSpec{PartialShape({-1, 2})}}}});
  EXPECT_EQ(f(constant({{1.f, 2.f}})).to_vector<float>(), (std::vector<float>{3}));
  EXPECT_EQ(f(constant({{1.f, 2.f}, {3.f, 4.f}, {5.f, 6.f}})).to_vector<float>(),
            (std::vector<float>{3, 7, 11}));
  EXPECT_EQ(f.tracing_count(), 1);
  try {
    f(constant({{1.f, 2.f, 3.f}}));
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("argument #0 = float32 (1, 3)"), std::string::npos) << m;
    EXPECT_NE(m.find("input_signature[0] TensorSpec(shape=(None, 2), dtype=tf.float32"),
              std::string::npos)
        << m;
  }
  EXPECT_THROW(f(cast(constant({{1.f, 2.f}}), float64)), InvalidArgumentError);
  EXPECT_EQ(f.tracing_count(), 1);
}

TEST(FunctionTest, ReduceRetracingGeneralisesChangedDims) {
  auto f = function([](Tensor x) { return x * 2.0f; }, {.reduce_retracing = true});
  f(ones({2, 3}));
  f(ones({4, 3}));  // retrace with (None, 3)
  EXPECT_EQ(f.tracing_count(), 2);
  EXPECT_EQ(f(ones({7, 3})).shape(), Shape({7, 3}));  // reuses the general trace
  EXPECT_EQ(f(ones({1, 3})).shape(), Shape({1, 3}));
  EXPECT_EQ(f.tracing_count(), 2);
  EXPECT_EQ(f.get_concrete_function(TensorSpec{PartialShape({-1, 3})}).input_specs()[0].shape,
            PartialShape({-1, 3}));
  EXPECT_EQ(f.tracing_count(), 2);
}

TEST(FunctionTest, WithoutReduceRetracingEveryShapeTraces) {
  auto f = function([](Tensor x) { return x * 2.0f; });
  f(ones({2, 3}));
  f(ones({4, 3}));
  f(ones({5, 3}));
  EXPECT_EQ(f.tracing_count(), 3);
}

TEST(FunctionTest, GetConcreteFunctionAndPrinter) {
  auto f = function([](Tensor x, Tensor y) { return matmul(x, y) + 1.0f; }, {.name = "affine"});
  ConcreteFunction cf =
      f.get_concrete_function(TensorSpec{PartialShape({-1, 3})}, TensorSpec{PartialShape({3, 2})});
  std::string text = cf.graph().to_string();
  EXPECT_NE(text.find("function affine(%0: float32(None, 3), %1: float32(3, 2))"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("MatMul(%0, %1)"), std::string::npos) << text;
  EXPECT_NE(text.find("float32(None, 2)"), std::string::npos) << text;
  EXPECT_NE(text.find("function_test.cc:"), std::string::npos) << text;
  EXPECT_TRUE(cf.graph().problems().empty());
  std::vector<Tensor> out = cf({ones({4, 3}), ones({3, 2})});
  EXPECT_EQ(out[0].shape(), Shape({4, 2}));
  EXPECT_EQ(out[0].to_vector<float>()[0], 4.f);
  EXPECT_THROW(cf({ones({4, 2}), ones({3, 2})}), InvalidArgumentError);
  // The polymorphic function reuses the concrete function for matching calls.
  f(ones({5, 3}), ones({3, 2}));
  EXPECT_EQ(f.tracing_count(), 1);
}

TEST(FunctionTest, StructuredOutputs) {
  auto f = function([](Tensor x) {
    return std::tuple{x + 1.0f, std::vector<Tensor>{x, x * 2.0f}, 7};
  });
  auto [a, v, n] = f(constant({1.f}));
  EXPECT_EQ(a.item<float>(), 2.f);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[1].item<float>(), 2.f);
  EXPECT_EQ(n, 7);
  auto g = function([](std::vector<Tensor> xs) { return add_n(xs); });
  EXPECT_EQ(g(std::vector<Tensor>{constant(1.f), constant(2.f), constant(3.f)}).item<float>(), 6.f);
}

TEST(FunctionTest, CapturesEagerTensorsAndVariables) {
  Tensor c = constant({10.f, 20.f});
  Variable v(constant({1.f, 1.f}));
  auto f = function([&](Tensor x) { return x + c + v; });
  EXPECT_EQ(f(constant({1.f, 2.f})).to_vector<float>(), (std::vector<float>{12, 23}));
  v.assign(constant({5.f, 5.f}));  // variables are read when the graph runs
  EXPECT_EQ(f(constant({1.f, 2.f})).to_vector<float>(), (std::vector<float>{16, 27}));
  EXPECT_EQ(f.tracing_count(), 1);
  auto step = function([&](Tensor d) {
    v.assign_add(d);
    return v.read_value();
  });
  step(constant({1.f, 1.f}));
  step(constant({1.f, 1.f}));
  EXPECT_EQ(v.read_value().to_vector<float>(), (std::vector<float>{7, 7}));
}

TEST(FunctionTest, NestedFunctionsAreInlined) {
  auto inner = function([](Tensor x) { return x * x; });
  auto outer = function([&](Tensor x) { return inner(x) + inner(x + 1.0f); });
  EXPECT_EQ(outer(constant(2.f)).item<float>(), 13.f);
  EXPECT_EQ(inner.tracing_count(), 0);  // inlined, never traced on its own
  ConcreteFunction cf = outer.get_concrete_function(TensorSpec{PartialShape({})});
  int muls = 0;
  for (const graph::Node& n : cf.graph().nodes()) muls += n.type_name() == "Mul";
  EXPECT_EQ(muls, 2);
  // Different jit_compile settings: traced on its own, then inlined as a graph.
  auto jit_inner = function([](Tensor x) { return x * 3.0f; }, {.jit_compile = true});
  auto outer2 = function([&](Tensor x) { return jit_inner(x) + 1.0f; });
  EXPECT_EQ(outer2(constant(2.f)).item<float>(), 7.f);
  EXPECT_EQ(jit_inner.tracing_count(), 1);
}

TEST(FunctionTest, RunFunctionsEagerly) {
  int calls = 0;
  auto f = function([&](Tensor x) {
    ++calls;
    EXPECT_FALSE(x.is_symbolic());
    if (x.item<float>() > 0) return x + 1.0f;  // fine eagerly
    return x;
  });
  config::run_functions_eagerly(true);
  EXPECT_EQ(f(constant(1.f)).item<float>(), 2.f);
  EXPECT_EQ(f(constant(1.f)).item<float>(), 2.f);
  config::run_functions_eagerly(false);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(f.tracing_count(), 0);
}

TEST(FunctionTest, VoidFunctionsAndPrintOp) {
  std::ostringstream os;
  int traced = 0;
  auto f = function([&](Tensor x) {
    ++traced;
    print_to(os, "x is", x);
  });
  f(constant({1, 2}));
  f(constant({3, 4}));
  EXPECT_EQ(traced, 1);
  EXPECT_EQ(os.str(), "x is [1 2]\nx is [3 4]\n");
  std::ostringstream eager;
  print_to(eager, "eager", constant(5));
  EXPECT_EQ(eager.str(), "eager 5\n");
}

TEST(FunctionTest, JitCompileRejectsHostCalls) {
  auto f = function(
      [](Tensor x) {
        print("x", x);
        return x;
      },
      {.name = "jitted", .jit_compile = true});
  try {
    f(constant(1.f));
    FAIL();
  } catch (const InvalidArgumentError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("jit_compile=true"), std::string::npos) << m;
    EXPECT_NE(m.find("PrintV2"), std::string::npos) << m;
    EXPECT_NE(m.find("function_test.cc:"), std::string::npos) << m;
  }
  auto g = function([](Tensor x) { return x * 2.0f; }, {.jit_compile = true});
  EXPECT_EQ(g(constant(2.f)).item<float>(), 4.f);
}

}  // namespace
}  // namespace tfcc
