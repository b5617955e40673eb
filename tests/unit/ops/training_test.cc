// Fused optimizer updates: in place when the variable alone holds its buffer, copy-on-write
// otherwise, and the learning rate read from a Variable at each call.
#include "tfcc/ops/training/training.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

const void* buffer_of(const Variable& v) { return v.read_value().raw_data(); }

TEST(TrainingOps, UpdateInPlaceWhenNothingElseHoldsTheBuffer) {
  Variable w(constant({1.f, 2.f, 3.f})), m(zeros({3})), s(zeros({3}));
  const void* before = buffer_of(w);
  training::apply_adam(w, m, s, 0.9, 0.999, 0.1, 0.9, 0.999, 1e-7, constant({1.f, 1.f, 1.f}));
  EXPECT_EQ(buffer_of(w), before);
  training::apply_gradient_descent(w, 0.5, constant({1.f, 1.f, 1.f}));
  EXPECT_EQ(buffer_of(w), before);
}

TEST(TrainingOps, EarlierReadsKeepTheirValues) {
  Variable w(constant({1.f, 2.f}));
  Tensor old = w.read_value();
  Tensor returned = training::apply_gradient_descent(w, 1.0, constant({1.f, 1.f}));
  EXPECT_EQ(old.to_vector<float>(), (std::vector<float>{1.f, 2.f}));
  EXPECT_EQ(returned.to_vector<float>(), (std::vector<float>{0.f, 1.f}));
  EXPECT_EQ(w.read_value().to_vector<float>(), (std::vector<float>{0.f, 1.f}));
}

TEST(TrainingOps, LearningRateFromAVariable) {
  Variable w(constant({1.f})), lr(constant(0.5f), {.name = "lr", .trainable = false});
  training::apply_gradient_descent(w, lr, constant({1.f}));
  lr.assign(constant(0.25f));
  training::apply_gradient_descent(w, lr, constant({1.f}));
  EXPECT_FLOAT_EQ(w.read_value().to_vector<float>()[0], 0.25f);
}

TEST(TrainingOps, AdamMatchesKerasFormulaOverSteps) {
  // Keras 2.11 Adam, three steps with a constant gradient, written out by hand.
  Variable w(constant({0.5}, float64)), m(constant({0.0}, float64)), v(constant({0.0}, float64));
  double wr = 0.5, mr = 0, vr = 0;
  for (int t = 1; t <= 3; ++t) {
    double g = 0.2 * t;
    training::apply_adam(w, m, v, std::pow(0.9, t), std::pow(0.999, t), 0.001, 0.9, 0.999, 1e-7,
                         constant({g}, float64));
    double alpha = 0.001 * std::sqrt(1 - std::pow(0.999, t)) / (1 - std::pow(0.9, t));
    mr += (g - mr) * 0.1;
    vr += (g * g - vr) * 0.001;
    wr -= mr * alpha / (std::sqrt(vr) + 1e-7);
  }
  EXPECT_NEAR(w.read_value().to_vector<double>()[0], wr, 1e-15);
}

}  // namespace
}  // namespace tfcc
