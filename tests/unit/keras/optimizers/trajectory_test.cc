// Optimizer trajectories against Keras 3.15: testdata/keras3_trajectories.json (written by
// testdata/keras3_trajectories.py with Keras 3) holds, per case, a serialized Keras 3 optimizer,
// the gradients of five steps (with a NaN and an infinity for LossScaleOptimizer's non-finite
// case), the variables after each step, the optimizer's variables at the end
// in Keras 3's order, and (use_ema) the weights finalize_variable_values leaves. Each case is
// read back with optimizers::deserialize, so the configs' keys are read as Keras writes them.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tfcc/keras/optimizers/optimizers.h"
#include "tfcc/keras/saving/json.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras::optimizers {
namespace {

using saving::Json;

std::filesystem::path testdata() {
  std::filesystem::path file(__FILE__);
  if (!file.is_absolute()) {
    file = std::filesystem::read_symlink("/proc/self/exe").parent_path() / file;
  }
  return std::filesystem::weakly_canonical(file).parent_path() / "testdata";
}

const Json& fixture() {
  static const Json j = [] {
    std::ifstream in(testdata() / "keras3_trajectories.json");
    EXPECT_TRUE(in) << (testdata() / "keras3_trajectories.json");
    std::stringstream text;
    text << in.rdbuf();
    return Json::parse(text.str(), "keras3_trajectories.json");
  }();
  return j;
}

std::vector<double> numbers(const Json& list) {
  std::vector<double> out;
  for (const Json& x : list.items()) out.push_back(x.as_number());
  return out;
}

std::vector<int64_t> dims(const Json& list) {
  std::vector<int64_t> out;
  for (const Json& x : list.items()) out.push_back(x.as_int());
  return out;
}

Tensor float_tensor(const Json& values, const Json& shape) {
  std::vector<double> v = numbers(values);
  std::vector<float> f(v.begin(), v.end());
  return reshape(constant(f), dims(shape));
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want,
                 const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], 2e-6 + 2e-5 * std::abs(want[i])) << what << " element " << i;
  }
}

void run_case(const std::string& name, const Json& c) {
  SCOPED_TRACE(name);
  const Json& f = fixture();
  std::shared_ptr<Optimizer> opt = deserialize(c.at("optimizer"));
  std::vector<Variable> vars;
  const char* names[] = {"w", "k"};
  for (size_t i = 0; i < 2; ++i) {
    vars.emplace_back(float_tensor(f.at("initial").items()[i], f.at("shapes").items()[i]),
                      VariableOptions{.name = names[i]});
  }
  const auto& grads = c.at("grads").items();
  const auto& after = c.at("after").items();
  ASSERT_EQ(grads.size(), after.size());
  for (size_t step = 0; step < grads.size(); ++step) {
    std::vector<Tensor> g;
    for (size_t i = 0; i < 2; ++i) {
      g.push_back(float_tensor(grads[step].items()[i], f.at("shapes").items()[i]));
    }
    opt->apply_gradients(g, vars);
    for (size_t i = 0; i < 2; ++i) {
      expect_near(vars[i].read_value().to_vector<double>(), numbers(after[step].items()[i]),
                  std::string(names[i]) + " after step " + std::to_string(step + 1));
    }
  }
  // Keras 3's optimizer.variables: iteration, learning_rate (unless a schedule), then the rest;
  // tfcc's variables() leaves the learning rate out.
  std::vector<Json> keras_vars = c.at("optimizer_variables").items();
  if (!opt->has_schedule()) keras_vars.erase(keras_vars.begin() + 1);
  std::vector<Variable> ours = opt->variables();
  ASSERT_EQ(ours.size(), keras_vars.size());
  for (size_t i = 0; i < ours.size(); ++i) {
    const std::string what = "optimizer variable " + std::to_string(i) + " " + ours[i].name();
    EXPECT_EQ(ours[i].shape(), Shape(dims(keras_vars[i].at("shape")))) << what;
    EXPECT_EQ(dtype_name(ours[i].dtype()), keras_vars[i].at("dtype").as_string()) << what;
    expect_near(ours[i].read_value().to_vector<double>(), numbers(keras_vars[i].at("value")), what);
  }
  if (const Json* fin = c.find("finalized")) {
    opt->finalize_variable_values(vars);
    for (size_t i = 0; i < 2; ++i) {
      expect_near(vars[i].read_value().to_vector<double>(), numbers(fin->items()[i]),
                  std::string(names[i]) + " finalized");
    }
  }
}

TEST(Keras3Trajectories, FixtureWasWrittenByKeras3) {
  EXPECT_EQ(fixture().at("keras_version").as_string().substr(0, 2), "3.");
  EXPECT_EQ(fixture().at("cases").members().size(), 16u);
}

#define TFCC_TRAJECTORY_CASE(Name) \
  TEST(Keras3Trajectories, Name) { run_case(#Name, fixture().at("cases").at(#Name)); }

TFCC_TRAJECTORY_CASE(lion)
TFCC_TRAJECTORY_CASE(lion_betas_weight_decay_clipnorm)
TFCC_TRAJECTORY_CASE(lamb)
TFCC_TRAJECTORY_CASE(lamb_global_clipnorm_weight_decay)
TFCC_TRAJECTORY_CASE(adafactor)
TFCC_TRAJECTORY_CASE(adafactor_absolute_step)
TFCC_TRAJECTORY_CASE(adafactor_schedule)
TFCC_TRAJECTORY_CASE(adam_ema)
TFCC_TRAJECTORY_CASE(sgd_ema_overwrite)
TFCC_TRAJECTORY_CASE(adam_accumulation)
TFCC_TRAJECTORY_CASE(nadam_accumulation_ema)
TFCC_TRAJECTORY_CASE(sgd_loss_scale_factor)
TFCC_TRAJECTORY_CASE(rmsprop_weight_decay_clipvalue)
TFCC_TRAJECTORY_CASE(adagrad_weight_decay_global_clipnorm)
TFCC_TRAJECTORY_CASE(loss_scale_optimizer)
TFCC_TRAJECTORY_CASE(loss_scale_optimizer_non_finite)

}  // namespace
}  // namespace tfcc::keras::optimizers
