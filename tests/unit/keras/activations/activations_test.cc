// Keras activations looked up by name, with Keras 3's formulas where they differ from Keras 2.
#include "tfcc/keras/activations/activations.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tfcc/tfcc.h"

namespace tfcc::keras::activations {
namespace {

std::vector<float> activate(const std::string& name, const std::vector<float>& x) {
  return get(name)(Tensor::from_vector(x)).to_vector<float>();
}

// Keras 3: hard_sigmoid(x) = relu6(x + 3) / 6 (Keras 2's 0.2 x + 0.5 gives 0.3 at x = -1).
TEST(Activations, HardSigmoidAsKeras3) {
  std::vector<float> x{-4.f, -1.f, 0.f, 1.f, 4.f};
  std::vector<float> want{0.f, 2.f / 6, 0.5f, 4.f / 6, 1.f};
  std::vector<float> got = activate("hard_sigmoid", x);
  std::vector<float> silu = activate("hard_silu", x);
  std::vector<float> swish = activate("hard_swish", x);
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], 1e-6) << i;
    EXPECT_NEAR(silu[i], x[i] * want[i], 1e-6) << i;
    EXPECT_EQ(swish[i], silu[i]) << i;
  }
}

TEST(Activations, UnknownNameListsTheKnownOnes) {
  try {
    get("no_such_activation");
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("hard_silu"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tfcc::keras::activations
