// GradientTape behaviour against analytic derivatives and TensorFlow's semantics.
#include "tfcc/autodiff/gradient_tape.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

TEST(GradientTape, SquareOfScalar) {
  auto x = constant(3.0f);
  GradientTape tape;
  tape.watch(x);
  auto y = x * x;
  EXPECT_FLOAT_EQ(tape.gradient(y, x).item<float>(), 6.f);
}

TEST(GradientTape, UnwatchedTensorsHaveNoGradient) {
  auto x = constant(3.0f);
  GradientTape tape;
  auto y = x * x;
  EXPECT_FALSE(tape.gradient(y, x).defined());
}

TEST(GradientTape, UnconnectedZero) {
  auto x = constant(3.0f), z = constant({1.f, 2.f});
  GradientTape tape;
  tape.watch({x, z});
  auto y = x * 2;
  auto g = tape.gradient(y, std::vector<Tensor>{z}, {{}, UnconnectedGradients::kZero})[0];
  EXPECT_EQ(g.to_vector<float>(), (std::vector<float>{0, 0}));
}

TEST(GradientTape, NonPersistentTapeIsUsedOnce) {
  auto x = constant(2.0f);
  GradientTape tape;
  tape.watch(x);
  auto y = x * x;
  tape.gradient(y, x);
  try {
    tape.gradient(y, x);
    FAIL();
  } catch (const FailedPreconditionError& e) {
    EXPECT_NE(std::string(e.what()).find("non-persistent GradientTape"), std::string::npos);
  }
}

TEST(GradientTape, PersistentTapeComputesSeveralGradients) {
  auto x = constant(2.0f);
  GradientTape tape({.persistent = true});
  tape.watch(x);
  auto y = x * x;
  auto z = y * y;  // x^4
  EXPECT_FLOAT_EQ(tape.gradient(z, x).item<float>(), 32.f);
  EXPECT_FLOAT_EQ(tape.gradient(y, x).item<float>(), 4.f);
}

TEST(GradientTape, NonScalarTargetIsSummed) {
  auto x = constant({1.f, 2.f, 3.f});
  GradientTape tape;
  tape.watch(x);
  auto y = x * x;
  EXPECT_EQ(tape.gradient(y, x).to_vector<float>(), (std::vector<float>{2, 4, 6}));
}

TEST(GradientTape, OutputGradientsWeightTheTarget) {
  auto x = constant({1.f, 2.f});
  GradientTape tape;
  tape.watch(x);
  auto y = x * 3;
  auto g =
      tape.gradient(std::vector<Tensor>{y}, std::vector<Tensor>{x}, {{constant({10.f, 100.f})}})[0];
  EXPECT_EQ(g.to_vector<float>(), (std::vector<float>{30, 300}));
}

TEST(GradientTape, BroadcastingGradientsSumBack) {
  auto x = constant({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  auto b = constant({1.f, 1.f, 1.f});
  GradientTape tape;
  tape.watch({x, b});
  auto y = x * b;
  auto g = tape.gradient(y, {x, b});
  EXPECT_EQ(g[1].to_vector<float>(), (std::vector<float>{5, 7, 9}));
  EXPECT_EQ(g[0].shape(), (Shape{2, 3}));
}

TEST(GradientTape, NestedTapesGiveSecondDerivative) {
  auto x = constant(3.0, float64);
  GradientTape outer;
  outer.watch(x);
  GradientTape inner;
  inner.watch(x);
  auto y = x * x * x;
  auto g = inner.gradient(y, x);  // 3x^2
  auto h = outer.gradient(g, x);  // 6x
  EXPECT_DOUBLE_EQ(g.item<double>(), 27.0);
  EXPECT_DOUBLE_EQ(h.item<double>(), 18.0);
}

TEST(GradientTape, ThirdDerivativeOfSin) {
  auto x = constant(0.5, float64);
  GradientTape t3, t2, t1;
  t3.watch(x);
  t2.watch(x);
  t1.watch(x);
  auto y = sin(x);
  auto d1 = t1.gradient(y, x);
  auto d2 = t2.gradient(d1, x);
  auto d3 = t3.gradient(d2, x);
  EXPECT_NEAR(d1.item<double>(), std::cos(0.5), 1e-12);
  EXPECT_NEAR(d2.item<double>(), -std::sin(0.5), 1e-12);
  EXPECT_NEAR(d3.item<double>(), -std::cos(0.5), 1e-12);
}

TEST(GradientTape, StopGradientBlocks) {
  auto x = constant(2.0f);
  GradientTape tape;
  tape.watch(x);
  auto y = x * stop_gradient(x);
  EXPECT_FLOAT_EQ(tape.gradient(y, x).item<float>(), 2.f);
}

TEST(GradientTape, IntegerTargetsHaveNoGradient) {
  auto x = constant(2.0f);
  GradientTape tape;
  tape.watch(x);
  auto y = cast(x, int32);
  EXPECT_FALSE(tape.gradient(y, x).defined());
}

TEST(GradientTape, StopRecordingPauses) {
  auto x = constant(2.0f);
  GradientTape tape;
  tape.watch(x);
  Tensor y;
  {
    auto pause = tape.stop_recording();
    y = x * x;
  }
  EXPECT_FALSE(tape.gradient(y, x).defined());
}

TEST(GradientTape, Jacobian) {
  auto x = constant({1.0, 2.0}, float64);
  GradientTape tape;
  tape.watch(x);
  auto y = x * x;
  auto j = tape.jacobian(y, x);
  EXPECT_EQ(j.shape(), (Shape{2, 2}));
  EXPECT_EQ(j.to_vector<double>(), (std::vector<double>{2, 0, 0, 4}));
}

TEST(GradientTape, BatchJacobian) {
  auto x = constant({{1.0, 2.0}, {3.0, 4.0}}, float64);
  GradientTape tape;
  tape.watch(x);
  auto y = x * x;  // [2, 2]: per example, a diagonal 2x2 Jacobian
  auto j = tape.batch_jacobian(y, x);
  EXPECT_EQ(j.shape(), (Shape{2, 2, 2}));
  EXPECT_EQ(j.to_vector<double>(), (std::vector<double>{2, 0, 0, 4, 6, 0, 0, 8}));
}

TEST(CustomGradient, ReplacesTheRule) {
  auto log1pexp = custom_gradient([](const std::vector<Tensor>& xs) {
    auto e = exp(xs[0]);
    return CustomGradientResult{
        log(e + 1), [e](const Tensor& dy) { return std::vector<Tensor>{dy * (1 - 1 / (e + 1))}; }};
  });
  auto x = constant(100.0f);  // the naive gradient is inf / inf = nan here
  GradientTape tape;
  tape.watch(x);
  auto y = log1pexp({x});
  EXPECT_FLOAT_EQ(tape.gradient(y, x).item<float>(), 1.f);
}

TEST(GradientChecker, AgreesOnASmoothFunction) {
  auto f = [](const std::vector<Tensor>& xs) { return sin(xs[0]) * xs[1]; };
  auto jac =
      test::compute_gradient(f, {constant({0.3, -1.2}, float64), constant({2.0, 0.5}, float64)});
  ASSERT_EQ(jac.size(), 2u);
  EXPECT_EQ(jac[0].theoretical.rows, 2);
  EXPECT_LT(test::max_error(jac), 1e-8);
}

TEST(GradientChecker, CatchesAWrongRule) {
  auto wrong = custom_gradient([](const std::vector<Tensor>& xs) {
    return CustomGradientResult{xs[0] * xs[0],
                                [](const Tensor& dy) { return std::vector<Tensor>{dy}; }};
  });
  auto jac = test::compute_gradient([&](const std::vector<Tensor>& xs) { return wrong(xs); },
                                    {constant({3.0}, float64)});
  EXPECT_GT(test::max_error(jac), 1.0);
}

}  // namespace
}  // namespace tfcc

namespace tfcc {
namespace {

TEST(Variable, ReadAssignAndPrint) {
  Variable v(constant({1.f, 2.f}), {.name = "v"});
  EXPECT_EQ(v.read_value().to_vector<float>(), (std::vector<float>{1, 2}));
  v.assign_add(constant({1.f, 1.f}));
  v.assign_sub(constant({0.5f, 0.5f}));
  EXPECT_EQ(v.read_value().to_vector<float>(), (std::vector<float>{1.5, 2.5}));
  EXPECT_EQ(v.to_string(), "<tf.Variable 'v:0' shape=(2,) dtype=float32, numpy=[1.5 2.5]>");
  EXPECT_THROW(v.assign(constant({1, 2})), InvalidArgumentError);
  EXPECT_THROW(v.assign(constant({1.f})), InvalidArgumentError);
}

TEST(Variable, TrainableVariablesAreWatchedAutomatically) {
  Variable w(constant(3.0f)), frozen(constant(2.0f), {.trainable = false});
  GradientTape tape;
  Tensor y = w * w * frozen;
  auto g = tape.gradient(y, std::vector<Variable>{w, frozen});
  EXPECT_FLOAT_EQ(g[0].item<float>(), 12.f);
  EXPECT_FALSE(g[1].defined());
  EXPECT_EQ(tape.watched_variables().size(), 1u);
}

TEST(Variable, WatchAccessedVariablesFalse) {
  Variable w(constant(3.0f));
  GradientTape tape({.watch_accessed_variables = false});
  Tensor y = w * w;
  EXPECT_FALSE(tape.gradient(y, std::vector<Variable>{w})[0].defined());
  GradientTape tape2({.watch_accessed_variables = false});
  tape2.watch(w);
  Tensor y2 = w * w;
  EXPECT_FLOAT_EQ(tape2.gradient(y2, std::vector<Variable>{w})[0].item<float>(), 6.f);
}

}  // namespace
}  // namespace tfcc

namespace tfcc {
namespace {

// Updates may reuse the variable's buffer, but never one a tensor outside the variable can see.
TEST(Variable, InPlaceUpdatesNeverChangeTensorsUsersHold) {
  Tensor init = constant({1.f, 2.f});
  Variable v(init);
  v.assign_sub(constant({1.f, 1.f}));
  EXPECT_EQ(init.to_vector<float>(), (std::vector<float>{1, 2}));  // the initial value is intact
  Tensor read = v.read_value();
  Tensor returned = v.assign_add(constant({10.f, 10.f}));
  EXPECT_EQ(read.to_vector<float>(), (std::vector<float>{0, 1}));  // a read keeps its value
  EXPECT_EQ(returned.to_vector<float>(), (std::vector<float>{10, 11}));
  v.assign_add(constant({1.f, 1.f}));
  EXPECT_EQ(returned.to_vector<float>(), (std::vector<float>{10, 11}));  // so does a result
  EXPECT_EQ(v.read_value().to_vector<float>(), (std::vector<float>{11, 12}));
  Tensor mine = constant({5.f, 5.f});
  v.assign(mine);
  v.assign_add(constant({1.f, 1.f}));
  EXPECT_EQ(mine.to_vector<float>(), (std::vector<float>{5, 5}));  // an assigned tensor too
  // Once nothing else holds the buffer, the update happens in place.
  const void* before = v.read_value().raw_data();
  v.assign_sub(constant({1.f, 1.f}));
  EXPECT_EQ(v.read_value().raw_data(), before);
}

}  // namespace
}  // namespace tfcc
