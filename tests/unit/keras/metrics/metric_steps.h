// Test helper: runs a metric through batches (and resets) and collects every result, to compare
// with the values Keras 3.15 printed for the same steps (testdata/keras3_metric_values.py).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tfcc/keras/metrics/metric.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras::metrics::testing {

/// One update_state(y, p, w) (w may be undefined), or a reset_state().
struct Step {
  Tensor y, p, w;
  bool reset = false;
};
inline Step reset() { return {.reset = true}; }

/// The results after each update, flattened (a vector result contributes all its values).
inline std::vector<double> run(Metric& m, const std::vector<Step>& steps) {
  std::vector<double> out;
  for (const Step& s : steps) {
    if (s.reset) {
      m.reset_state();
      continue;
    }
    m.update_state(s.y, s.p, s.w);
    for (double v : cast(m.result(), float64).to_vector<double>()) out.push_back(v);
  }
  return out;
}

/// Each value within 1e-6 relative (float32 results, 9 printed digits) of Keras'.
inline void expect_values(const std::vector<double>& got, const std::vector<double>& want,
                          const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], 1e-6 * std::max(1.0, std::abs(want[i]))) << what << " value " << i;
  }
}

/// The sum of two metrics' states equals one metric's state over both inputs (what distributed
/// evaluation relies on: DistributedModel sums every state variable across ranks).
inline void expect_states_add(Metric& a, Metric& b, Metric& both) {
  ASSERT_EQ(a.variables().size(), both.variables().size());
  ASSERT_EQ(b.variables().size(), both.variables().size());
  for (size_t i = 0; i < a.variables().size(); ++i) {
    Tensor sum = add(a.variables()[i].read_value(), b.variables()[i].read_value());
    std::vector<double> got = cast(sum, float64).to_vector<double>();
    std::vector<double> want = cast(both.variables()[i].read_value(), float64).to_vector<double>();
    ASSERT_EQ(got.size(), want.size());
    for (size_t j = 0; j < got.size(); ++j) {
      EXPECT_NEAR(got[j], want[j], 1e-5 * std::max(1.0, std::abs(want[j])))
          << both.name() << " variable " << i << " element " << j;
    }
  }
  // Merged: a's state replaced by the sum gives both's result.
  for (size_t i = 0; i < a.variables().size(); ++i) {
    a.variables()[i].assign(add(a.variables()[i].read_value(), b.variables()[i].read_value()));
  }
  std::vector<double> merged = cast(a.result(), float64).to_vector<double>();
  std::vector<double> whole = cast(both.result(), float64).to_vector<double>();
  expect_values(merged, whole, both.name() + " merged");
}

}  // namespace tfcc::keras::metrics::testing
