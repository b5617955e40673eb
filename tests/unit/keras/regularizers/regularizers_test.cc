// Regularizers: Keras' formulas (no 1/2 in l2) and names.
#include "tfcc/keras/regularizers/regularizers.h"

#include <gtest/gtest.h>

#include "tfcc/tfcc.h"

namespace tfcc::keras::regularizers {
namespace {

TEST(Regularizers, Formulas) {
  auto w = constant({1.f, -2.f, 3.f});
  EXPECT_NEAR(l2(0.02)(w).item<float>(), 0.02 * 14, 1e-6);
  EXPECT_NEAR(l1(0.1)(w).item<float>(), 0.6, 1e-6);
  EXPECT_NEAR(l1_l2()(w).item<float>(), 0.01 * 6 + 0.01 * 14, 1e-6);
  EXPECT_NEAR(L1L2()(w).item<float>(), 0, 1e-9);
  EXPECT_NEAR((*get("l2"))(w).item<float>(), 0.14, 1e-6);
  EXPECT_THROW(get("l3"), InvalidArgumentError);
  EXPECT_THROW(L2(-1), InvalidArgumentError);
}

TEST(Regularizers, GradientOfL2) {
  auto w = constant({1.f, -2.f});
  GradientTape tape;
  tape.watch(w);
  auto g = tape.gradient(l2(0.5)(w), w);
  EXPECT_EQ(g.to_vector<float>(), (std::vector<float>{1.f, -2.f}));
}

}  // namespace
}  // namespace tfcc::keras::regularizers
