// Keras optimizers, a few steps each, against the TF 2.11+ update rules written out here in
// double precision (one element at a time).
#include "tfcc/keras/optimizers/optimizers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "tfcc/tfcc.h"

namespace tfcc::keras::optimizers {
namespace {

// Gradients for three steps on a 2-element variable starting at {1, 2}.
const std::vector<std::vector<double>> kGrads = {{0.1, -0.2}, {0.5, 0.05}, {-0.3, 0.4}};
const std::vector<double> kStart = {1.0, 2.0};

// The reference: called per step (t = 1, 2, ...) and element with the gradient; updates `x` and
// its own state (indexed by element).
using Reference = std::function<void(int t, size_t i, double g, double& x)>;

void expect_matches(Optimizer& opt, const Reference& ref, double tol = 1e-5) {
  Variable var(constant({1.f, 2.f}), {.name = "w"});
  std::vector<double> x = kStart;
  for (size_t step = 0; step < kGrads.size(); ++step) {
    std::vector<float> g(kGrads[step].begin(), kGrads[step].end());
    Tensor grads[] = {constant(g)};
    Variable vars[] = {var};
    opt.apply_gradients(grads, vars);
    for (size_t i = 0; i < x.size(); ++i) ref(int(step) + 1, i, kGrads[step][i], x[i]);
    auto got = var.read_value().to_vector<double>();
    for (size_t i = 0; i < x.size(); ++i) {
      EXPECT_NEAR(got[i], x[i], tol * std::max(1.0, std::abs(x[i])))
          << opt.name() << " step " << step + 1 << " element " << i;
    }
  }
  EXPECT_EQ(opt.iterations().read_value().item<int64_t>(), 3);
}

TEST(SGDTest, PlainMomentumNesterov) {
  SGD plain;
  EXPECT_NEAR(plain.learning_rate().item<double>(), 0.01, 1e-9);
  expect_matches(plain, [](int, size_t, double g, double& x) { x -= 0.01 * g; });

  SGD momentum({.learning_rate = 0.1, .momentum = 0.9});
  std::vector<double> m(2, 0);
  expect_matches(momentum, [&](int, size_t i, double g, double& x) {
    m[i] = 0.9 * m[i] - 0.1 * g;
    x += m[i];
  });

  SGD nesterov({.learning_rate = 0.1, .momentum = 0.9, .nesterov = true});
  std::vector<double> n(2, 0);
  expect_matches(nesterov, [&](int, size_t i, double g, double& x) {
    n[i] = 0.9 * n[i] - 0.1 * g;
    x += 0.9 * n[i] - 0.1 * g;
  });
  EXPECT_EQ(nesterov.variables().size(), 2u);  // iterations + m
  EXPECT_THROW(SGD({.momentum = 1.5}), InvalidArgumentError);
}

TEST(AdamTest, EpsilonHatAndAmsgrad) {
  Adam adam({.learning_rate = 0.1});
  std::vector<double> m(2, 0), v(2, 0);
  auto adam_ref = [&](bool ams, std::vector<double>& vhat) {
    return [&, ams](int t, size_t i, double g, double& x) {
      m[i] += (g - m[i]) * (1 - 0.9);
      v[i] += (g * g - v[i]) * (1 - 0.999);
      double vv = v[i];
      if (ams) vv = vhat[i] = std::max(vhat[i], v[i]);
      double alpha = 0.1 * std::sqrt(1 - std::pow(0.999, t)) / (1 - std::pow(0.9, t));
      x -= m[i] * alpha / (std::sqrt(vv) + 1e-7);
    };
  };
  std::vector<double> unused(2, 0);
  expect_matches(adam, adam_ref(false, unused));
  EXPECT_EQ(adam.variables().size(), 3u);  // iterations, m, v
  EXPECT_EQ(adam.variables()[1].name(), "m/w");

  Adam ams({.learning_rate = 0.1, .amsgrad = true});
  std::fill(m.begin(), m.end(), 0);
  std::fill(v.begin(), v.end(), 0);
  std::vector<double> vhat(2, 0);
  expect_matches(ams, adam_ref(true, vhat));
}

TEST(AdamTest, SlotsAndVariableAreUpdatedInPlace) {
  // With no other reader holding their buffers, AssignAdd/AssignSub reuse the memory: a step
  // allocates no new state.
  Variable w(zeros({1000}), {.name = "w"});
  Adam adam;
  Tensor g[] = {ones({1000})};
  Variable v[] = {w};
  adam.apply_gradients(g, v);
  const void* m_buffer = adam.get_slot(w, "m").read_value().raw_data();
  const void* w_buffer = w.read_value().raw_data();
  adam.apply_gradients(g, v);
  EXPECT_EQ(adam.get_slot(w, "m").read_value().raw_data(), m_buffer);
  EXPECT_EQ(w.read_value().raw_data(), w_buffer);
}

TEST(AdamTest, AdamWDecaysBeforeTheUpdate) {
  AdamW adamw({.learning_rate = 0.1, .weight_decay = 0.5});
  std::vector<double> m(2, 0), v(2, 0);
  expect_matches(adamw, [&](int t, size_t i, double g, double& x) {
    x -= x * 0.5 * 0.1;
    m[i] += (g - m[i]) * 0.1;
    v[i] += (g * g - v[i]) * (1 - 0.999);
    double alpha = 0.1 * std::sqrt(1 - std::pow(0.999, t)) / (1 - std::pow(0.9, t));
    x -= m[i] * alpha / (std::sqrt(v[i]) + 1e-7);
  });
  EXPECT_EQ(AdamW().config().weight_decay.value(), 0.004);
}

TEST(AdamTest, Adamax) {
  Adamax adamax({.learning_rate = 0.1});
  std::vector<double> m(2, 0), u(2, 0);
  expect_matches(adamax, [&](int t, size_t i, double g, double& x) {
    m[i] += (g - m[i]) * 0.1;
    u[i] = std::max(0.999 * u[i], std::abs(g));
    x -= 0.1 * m[i] / ((1 - std::pow(0.9, t)) * (u[i] + 1e-7));
  });
}

TEST(AdamTest, Nadam) {
  Nadam nadam({.learning_rate = 0.1});
  std::vector<double> m(2, 0), v(2, 0);
  double u_product = 1;
  int last_t = 0;
  expect_matches(nadam, [&](int t, size_t i, double g, double& x) {
    double u_t = 0.9 * (1 - 0.5 * std::pow(0.96, t));
    double u_t1 = 0.9 * (1 - 0.5 * std::pow(0.96, t + 1));
    if (t != last_t) {
      u_product *= u_t;
      last_t = t;
    }
    m[i] += (g - m[i]) * 0.1;
    v[i] += (g * g - v[i]) * (1 - 0.999);
    double m_hat = u_t1 * m[i] / (1 - u_product * u_t1) + (1 - u_t) * g / (1 - u_product);
    double v_hat = v[i] / (1 - std::pow(0.999, t));
    x -= m_hat * 0.1 / (std::sqrt(v_hat) + 1e-7);
  });
}

TEST(RMSpropTest, PlainAndCenteredMomentum) {
  RMSprop rms({.learning_rate = 0.1});
  std::vector<double> v(2, 0);
  expect_matches(rms, [&](int, size_t i, double g, double& x) {
    v[i] = 0.9 * v[i] + 0.1 * g * g;
    x -= 0.1 * g / std::sqrt(v[i] + 1e-7);
  });

  RMSprop centered({.learning_rate = 0.1, .momentum = 0.5, .centered = true});
  std::vector<double> v2(2, 0), a(2, 0), mom(2, 0);
  expect_matches(centered, [&](int, size_t i, double g, double& x) {
    v2[i] = 0.9 * v2[i] + 0.1 * g * g;
    a[i] = 0.9 * a[i] + 0.1 * g;
    double inc = 0.1 * g / std::sqrt(v2[i] - a[i] * a[i] + 1e-7);
    mom[i] = 0.5 * mom[i] + inc;
    x -= mom[i];
  });
  EXPECT_EQ(centered.variables().size(), 4u);
}

TEST(RMSpropTest, AdagradAndAdadelta) {
  Adagrad adagrad({.learning_rate = 0.1});
  std::vector<double> acc(2, 0.1);
  expect_matches(adagrad, [&](int, size_t i, double g, double& x) {
    acc[i] += g * g;
    x -= 0.1 * g / std::sqrt(acc[i] + 1e-7);
  });

  Adadelta adadelta({.learning_rate = 1.0});
  std::vector<double> eg(2, 0), edx(2, 0);
  expect_matches(adadelta, [&](int, size_t i, double g, double& x) {
    eg[i] = 0.95 * eg[i] + 0.05 * g * g;
    double d = -std::sqrt(edx[i] + 1e-7) / std::sqrt(eg[i] + 1e-7) * g;
    edx[i] = 0.95 * edx[i] + 0.05 * d * d;
    x += 1.0 * d;
  });
}

TEST(FtrlTest, WithRegularization) {
  FtrlOptions o{.learning_rate = 0.5,
                .l1_regularization_strength = 0.01,
                .l2_regularization_strength = 0.02,
                .l2_shrinkage_regularization_strength = 0.03,
                .beta = 0.1};
  Ftrl ftrl(o);
  std::vector<double> n(2, 0.1), z(2, 0);
  expect_matches(ftrl, [&](int, size_t i, double g, double& x) {
    double lr = 0.5, p = 0.5;  // -learning_rate_power
    double l2 = 0.02 + 0.1 / (2 * lr);
    double g2 = g + 2 * 0.03 * x;
    double n_new = n[i] + g * g;
    z[i] += g2 - (std::pow(n_new, p) - std::pow(n[i], p)) / lr * x;
    double q = std::pow(n_new, p) / lr + 2 * l2;
    double zc = std::clamp(z[i], -0.01, 0.01);
    x = (zc - z[i]) / q;
    n[i] = n_new;
  });
  EXPECT_THROW(Ftrl({.learning_rate_power = 0.5}), InvalidArgumentError);
}

TEST(OptimizerTest, ClipNormGlobalNormAndValue) {
  Variable a(constant({0.f, 0.f}), {.name = "a"});
  Variable b(constant({0.f}), {.name = "b"});
  SGD by_norm({.learning_rate = 1.0, .clipnorm = 1.0});
  Tensor g1[] = {constant({3.f, 4.f}), constant({0.5f})};
  Variable vs[] = {a, b};
  by_norm.apply_gradients(g1, vs);
  // Each gradient clipped to norm 1 on its own: (0.6, 0.8) and 0.5 (already under).
  EXPECT_NEAR(a.read_value().to_vector<double>()[0], -0.6, 1e-6);
  EXPECT_NEAR(a.read_value().to_vector<double>()[1], -0.8, 1e-6);
  EXPECT_NEAR(b.read_value().to_vector<double>()[0], -0.5, 1e-6);

  Variable c(constant({0.f, 0.f}), {.name = "c"});
  Variable d(constant({0.f}), {.name = "d"});
  SGD global({.learning_rate = 1.0, .global_clipnorm = 2.6});
  Tensor g2[] = {constant({3.f, 4.f}), constant({12.f})};  // global norm 13
  Variable cd[] = {c, d};
  global.apply_gradients(g2, cd);
  EXPECT_NEAR(c.read_value().to_vector<double>()[1], -4 * 0.2, 1e-6);
  EXPECT_NEAR(d.read_value().to_vector<double>()[0], -12 * 0.2, 1e-5);

  Variable e(constant({0.f, 0.f}), {.name = "e"});
  SGD by_value({.learning_rate = 1.0, .clipvalue = 0.5});
  Tensor g3[] = {constant({3.f, -0.25f})};
  Variable es[] = {e};
  by_value.apply_gradients(g3, es);
  EXPECT_NEAR(e.read_value().to_vector<double>()[0], -0.5, 1e-6);
  EXPECT_NEAR(e.read_value().to_vector<double>()[1], 0.25, 1e-6);

  EXPECT_THROW(SGD({.clipnorm = 1.0, .clipvalue = 1.0}), InvalidArgumentError);
}

TEST(OptimizerTest, WeightDecayExclusionMissingGradientsAndErrors) {
  Variable w(constant({1.f}), {.name = "dense/kernel"});
  Variable bias(constant({1.f}), {.name = "dense/bias"});
  SGD sgd({.learning_rate = 0.1, .weight_decay = 0.5});
  sgd.exclude_from_weight_decay({}, {"bias"});
  Tensor grads[] = {constant({0.f}), constant({0.f})};
  Variable vars[] = {w, bias};
  sgd.apply_gradients(grads, vars);
  EXPECT_NEAR(w.read_value().item<double>(), 1 - 0.5 * 0.1, 1e-6);
  EXPECT_NEAR(bias.read_value().item<double>(), 1.0, 1e-6);

  // A missing gradient skips its variable; all missing is an error.
  Tensor partial[] = {Tensor(), constant({1.f})};
  SGD plain({.learning_rate = 1.0});
  plain.apply_gradients(partial, vars);
  EXPECT_NEAR(w.read_value().item<double>(), 0.95, 1e-6);
  EXPECT_NEAR(bias.read_value().item<double>(), 0.0, 1e-6);
  Tensor none[] = {Tensor(), Tensor()};
  EXPECT_THROW(plain.apply_gradients(none, vars), InvalidArgumentError);
  Tensor wrong[] = {constant({1.f, 2.f}), constant({1.f})};
  EXPECT_THROW(plain.apply_gradients(wrong, vars), InvalidArgumentError);
  Tensor one[] = {constant({1.f})};
  EXPECT_THROW(plain.apply_gradients(one, vars), InvalidArgumentError);
  EXPECT_THROW(plain.get_slot(w, "m"), NotFoundError);
}

TEST(OptimizerTest, MinimizeAndSetLearningRate) {
  Variable x(constant(3.f), {.name = "x"});
  SGD sgd({.learning_rate = 0.1});
  sgd.minimize([&] { return x * x; }, {x});
  EXPECT_NEAR(x.read_value().item<double>(), 3 - 0.1 * 6, 1e-6);
  sgd.set_learning_rate(0.5);
  EXPECT_NEAR(sgd.learning_rate().item<double>(), 0.5, 1e-7);
  sgd.minimize([&] { return x * x; }, {x});
  EXPECT_NEAR(x.read_value().item<double>(), 2.4 - 0.5 * 4.8, 1e-6);
  GradientTape tape;
  Tensor loss = x * 2.f;
  sgd.minimize(loss, {x}, tape);
  EXPECT_NEAR(x.read_value().item<double>(), -1.0, 1e-6);
  EXPECT_EQ(sgd.iterations().read_value().item<int64_t>(), 3);
}

TEST(SchedulesTest, Formulas) {
  using namespace schedules;
  auto at = [](const LearningRateSchedule& s, int64_t step) {
    return s(Tensor::scalar<int64_t>(step)).item<double>();
  };
  ExponentialDecay exp(0.1, 10, 0.5);
  EXPECT_NEAR(at(exp, 15), 0.1 * std::pow(0.5, 1.5), 1e-7);
  ExponentialDecay stair(0.1, 10, 0.5, {.staircase = true});
  EXPECT_NEAR(at(stair, 15), 0.05, 1e-7);
  PiecewiseConstantDecay piecewise({10, 20}, {1.0, 0.5, 0.1});
  EXPECT_NEAR(at(piecewise, 10), 1.0, 1e-7);
  EXPECT_NEAR(at(piecewise, 11), 0.5, 1e-7);
  EXPECT_NEAR(at(piecewise, 20), 0.5, 1e-7);
  EXPECT_NEAR(at(piecewise, 21), 0.1, 1e-7);
  EXPECT_THROW(PiecewiseConstantDecay({1}, {1.0}), InvalidArgumentError);
  CosineDecay cosine(0.2, 100, {.alpha = 0.1});
  double c = 0.5 * (1 + std::cos(M_PI * 30 / 100));
  EXPECT_NEAR(at(cosine, 30), 0.2 * ((1 - 0.1) * c + 0.1), 1e-7);
  EXPECT_NEAR(at(cosine, 500), 0.2 * 0.1, 1e-7);
  CosineDecay warm(0.0, 100, {.warmup_target = 1.0, .warmup_steps = 10});
  EXPECT_NEAR(at(warm, 5), 0.5, 1e-7);
  EXPECT_NEAR(at(warm, 60), 0.5 * (1 + std::cos(M_PI * 50 / 100)), 1e-6);
  PolynomialDecay poly(0.1, 10, {.end_learning_rate = 0.01, .power = 2.0});
  EXPECT_NEAR(at(poly, 4), (0.1 - 0.01) * 0.36 + 0.01, 1e-7);
  EXPECT_NEAR(at(poly, 40), 0.01, 1e-7);
  PolynomialDecay cyc(0.1, 10, {.end_learning_rate = 0.01, .cycle = true});
  EXPECT_NEAR(at(cyc, 15), (0.1 - 0.01) * (1 - 15.0 / 20) + 0.01, 1e-7);
  EXPECT_NEAR(at(cyc, 0), 0.1, 1e-7);
}

TEST(SchedulesTest, OptimizerFollowsTheScheduleAtIterations) {
  SGD sgd({.learning_rate = schedules::PiecewiseConstantDecay({0}, {1.0, 0.1})});
  EXPECT_TRUE(sgd.has_schedule());
  Variable x(constant(0.f), {.name = "x"});
  Tensor g[] = {constant(1.f)};
  Variable v[] = {x};
  sgd.apply_gradients(g, v);  // step 0 -> 1.0
  sgd.apply_gradients(g, v);  // step 1 -> 0.1
  EXPECT_NEAR(x.read_value().item<double>(), -1.1, 1e-6);
  EXPECT_NEAR(sgd.learning_rate().item<double>(), 0.1, 1e-7);
  EXPECT_THROW(sgd.set_learning_rate(0.5), FailedPreconditionError);
}

TEST(OptimizerTest, MovesIntoSharedPointersAndTakesTemporaryLists) {
  Variable x(constant(1.f), {.name = "x"});
  Adam adam({.learning_rate = 0.5});
  adam.minimize([&] { return x * x; }, {x});
  std::shared_ptr<Optimizer> held = std::make_shared<Adam>(std::move(adam));
  EXPECT_EQ(held->iterations().read_value().item<int64_t>(), 1);
  // gradient() and the variable list as temporaries, as in a custom training step.
  GradientTape tape;
  Tensor loss = x * x;
  held->apply_gradients(tape.gradient(loss, std::vector<Variable>{x}), std::vector<Variable>{x});
  EXPECT_EQ(held->iterations().read_value().item<int64_t>(), 2);
  EXPECT_EQ(held->get_slot(x, "m").shape(), Shape{});
}

TEST(OptimizersGetTest, DefaultsByName) {
  EXPECT_EQ(get("adam")->name(), "Adam");
  EXPECT_NEAR(get("Adam")->learning_rate().item<double>(), 0.001, 1e-9);
  EXPECT_NEAR(get("sgd")->learning_rate().item<double>(), 0.01, 1e-9);
  for (const char* n : {"rmsprop", "adagrad", "adadelta", "adamax", "nadam", "ftrl", "adamw"}) {
    auto opt = get(n);
    EXPECT_NEAR(opt->learning_rate().item<double>(), 0.001, 1e-9) << n;
  }
  EXPECT_THROW(get("lbfgs"), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::keras::optimizers
