// Issue 19 item 5's layers against Keras 3: testdata/more_layers_fixtures.json (written by
// testdata/more_layers_fixtures.py with TensorFlow 2.21's Keras) holds each Keras layer's
// serialized config, inputs, weights, outputs and losses. Each tfcc layer is built from Keras'
// config (as a `.keras` file is read), given Keras' weights, and must give Keras' outputs. Then
// what the fixture cannot show: the training behaviour of the noise layers, eager/traced parity,
// gradients, invalid arguments and the Lambda layer's function registry.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/unit/keras/layers/layer_test_util.h"
#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/keras/saving/keras3.h"
#include "tfcc/keras/saving/layer_registry.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras {
namespace {

using saving::Json;

std::filesystem::path source_dir() {
  std::filesystem::path file(__FILE__);
  if (file.is_absolute()) return file.parent_path();
  std::filesystem::path exe_dir = std::filesystem::read_symlink("/proc/self/exe").parent_path();
  return std::filesystem::weakly_canonical(exe_dir / file).parent_path();
}

Json fixtures() {
  std::ifstream in(source_dir() / "testdata/more_layers_fixtures.json");
  EXPECT_TRUE(in) << "testdata/more_layers_fixtures.json";
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str(), "more_layers_fixtures.json");
}

Tensor tensor_of(const Json& j) {
  std::vector<int64_t> shape;
  for (const Json& d : j.at("shape").items()) shape.push_back(d.as_int());
  std::vector<float> values;
  for (const Json& v : j.at("values").items()) values.push_back(static_cast<float>(v.as_number()));
  return Tensor::from_vector(values, Shape(shape));
}

void expect_close(const Tensor& got, const Tensor& want, const std::string& what) {
  ASSERT_EQ(got.shape(), want.shape()) << what;
  auto g = got.to_vector<float>(), e = want.to_vector<float>();
  for (size_t i = 0; i < g.size(); ++i) {
    ASSERT_NEAR(g[i], e[i], 1e-5 + 1e-5 * std::abs(e[i])) << what << " element " << i;
  }
}

TEST(MoreLayers, MatchKeras3) {
  const Json all = fixtures();
  int cases = 0;
  for (const Json& c : all.at("cases").items()) {
    const std::string name = c.at("name").as_string();
    SCOPED_TRACE(name);
    std::shared_ptr<Layer> layer = saving::layer_from_keras3(c.at("layer"));
    Tensors in;
    for (const Json& x : c.at("inputs").items()) in.push_back(tensor_of(x));
    auto run = [&]() -> Tensors {
      if (!c.at("mask").is_null()) {
        auto& pool = dynamic_cast<layers::GlobalAveragePooling1D&>(*layer);
        return {pool.pool(in[0], tensor_of(c.at("mask")))};
      }
      return (*layer)(in);
    };
    (*layer)(in);  // builds
    std::vector<Tensor> weights;
    for (const Json& w : c.at("weights").items()) weights.push_back(tensor_of(w));
    ASSERT_EQ(layer->weights().size(), weights.size());
    layer->set_weights(weights);
    const Tensors out = run();
    const auto& want = c.at("outputs").items();
    ASSERT_EQ(out.size(), want.size());
    for (size_t i = 0; i < out.size(); ++i) expect_close(out[i], tensor_of(want[i]), "output");
    const auto& losses = c.at("losses").items();
    const std::vector<Tensor> mine = layer->losses();
    ASSERT_EQ(mine.size(), losses.size());
    for (size_t i = 0; i < mine.size(); ++i) {
      EXPECT_NEAR(mine[i].item<float>(), losses[i].as_number(), 1e-4) << "loss " << i;
    }
    ++cases;
  }
  EXPECT_EQ(cases, 49);
}

// Eager and traced (unknown batch) calls agree, in inference and, for the layers whose training
// call is deterministic, in training.
TEST(MoreLayers, TracedWithUnknownBatchMatchesEager) {
  struct Item {
    std::shared_ptr<Layer> layer;
    std::vector<int64_t> example;  // one example's shape
  };
  using namespace layers;  // NOLINT: reads like Keras
  std::vector<Item> items = {
      {std::make_shared<PReLU>(PReLU::Options{.alpha_initializer = "ones"}), {3, 4}},
      {std::make_shared<ELU>(ELU::Options{.alpha = 0.3}), {5}},
      {std::make_shared<Permute>(std::vector<int64_t>{2, 1}), {3, 4}},
      {std::make_shared<RepeatVector>(3), {4}},
      {std::make_shared<UpSampling2D>(IntOrTuple{2, 3}), {2, 3, 2}},
      {std::make_shared<UpSampling1D>(2), {3, 2}},
      {std::make_shared<Cropping2D>(std::vector<std::vector<int64_t>>{{1, 0}, {0, 2}}), {4, 5, 1}},
      {std::make_shared<ZeroPadding3D>(1), {2, 2, 2, 1}},
      {std::make_shared<MaxPooling1D>(2, Pooling1DOptions{.padding = "same"}), {5, 3}},
      {std::make_shared<GlobalAveragePooling1D>(), {5, 3}},
      {std::make_shared<GroupNormalization>(GroupNormalization::Options{.groups = 2}), {3, 4}},
      {std::make_shared<UnitNormalization>(), {3, 4}},
      {std::make_shared<GaussianNoise>(1.0), {3, 4}},
      {std::make_shared<SpatialDropout1D>(0.5), {3, 4}},
      {std::make_shared<AlphaDropout>(0.5), {3, 4}},
  };
  for (auto& item : items) {
    SCOPED_TRACE(item.layer->class_name());
    std::vector<int64_t> shape = {2};
    shape.insert(shape.end(), item.example.begin(), item.example.end());
    Tensor x = random::normal(shape, 0, 1, float32, 11);
    const Tensor eager = (*item.layer)(x);
    std::vector<int64_t> spec = {-1};
    spec.insert(spec.end(), item.example.begin(), item.example.end());
    auto f = tfcc::function([&](Tensor t) { return (*item.layer)(t); });
    Tensor traced = f.get_concrete_function(TensorSpec{PartialShape(spec), float32, "x"})({x})[0];
    expect_close(traced, eager, "traced");
  }
}

TEST(MoreLayers, NoiseLayersInTraining) {
  random::set_seed(3);
  const Tensor x = ones({200, 5, 8});
  // SpatialDropout1D: each (example, channel) kept (scaled 2) or dropped for all steps.
  auto sd = layers::SpatialDropout1D(0.5)(x, {.training = true});
  auto v = sd.to_vector<float>();
  int dropped = 0;
  for (int b = 0; b < 200; ++b) {
    for (int c = 0; c < 8; ++c) {
      const float first = v[(b * 5) * 8 + c];
      EXPECT_TRUE(first == 0.f || first == 2.f);
      for (int s = 1; s < 5; ++s) ASSERT_EQ(v[(b * 5 + s) * 8 + c], first);
      dropped += first == 0.f;
    }
  }
  EXPECT_NEAR(dropped / 1600.0, 0.5, 0.06);
  // SpatialDropout2D: the same over both spatial axes.
  auto sd2 = layers::SpatialDropout2D(0.25)(ones({50, 3, 3, 4}), {.training = true});
  auto v2 = sd2.to_vector<float>();
  for (int b = 0; b < 50; ++b) {
    for (int c = 0; c < 4; ++c) {
      for (int s = 1; s < 9; ++s) ASSERT_EQ(v2[(b * 9 + s) * 4 + c], v2[b * 9 * 4 + c]);
    }
  }
  // GaussianNoise: x + N(0, 0.5^2); GaussianDropout: x * N(1, 0.3 / 0.7).
  auto stats = [](const Tensor& t) {
    auto m = reduce_mean(t).item<float>();
    auto s = std::sqrt(reduce_mean(square(subtract(t, static_cast<double>(m)))).item<float>());
    return std::pair<double, double>(m, s);
  };
  auto [m1, s1] = stats(layers::GaussianNoise(0.5)(x, {.training = true}));
  EXPECT_NEAR(m1, 1.0, 0.02);
  EXPECT_NEAR(s1, 0.5, 0.02);
  auto [m2, s2] = stats(layers::GaussianDropout(0.3)(x, {.training = true}));
  EXPECT_NEAR(m2, 1.0, 0.02);
  EXPECT_NEAR(s2, std::sqrt(0.3 / 0.7), 0.02);
  // AlphaDropout keeps a standard normal's mean 0 and variance 1.
  Tensor z = random::normal({8000}, 0, 1, float32, 5);
  auto [m3, s3] = stats(layers::AlphaDropout(0.2)(z, {.training = true}));
  EXPECT_NEAR(m3, 0.0, 0.05);
  EXPECT_NEAR(s3, 1.0, 0.05);
  // Inference: the identity.
  EXPECT_EQ(layers::GaussianNoise(0.5)(x).to_vector<float>(), x.to_vector<float>());
  EXPECT_EQ(layers::AlphaDropout(0.5)(x).to_vector<float>(), x.to_vector<float>());
}

TEST(MoreLayers, GradientsInFloat64) {
  using namespace layers;  // NOLINT
  Tensor x3 = random::normal({2, 5, 4}, 0, 1, float64, 21);
  EXPECT_LT(testing::layer_gradient_error(*std::make_shared<UpSampling1D>(2), x3), 1e-6);
  EXPECT_LT(testing::layer_gradient_error(*std::make_shared<Cropping1D>(IntOrTuple{1, 2}), x3),
            1e-6);
  EXPECT_LT(testing::layer_gradient_error(*std::make_shared<AveragePooling1D>(2), x3), 1e-6);
  EXPECT_LT(testing::layer_gradient_error(*std::make_shared<UnitNormalization>(), x3), 1e-6);
  EXPECT_LT(testing::layer_gradient_error(*std::make_shared<ELU>(ELU::Options{.alpha = 0.4}), x3),
            1e-6);
  // Dot on two inputs.
  Dot dot(std::vector<int64_t>{2, 2}, {.normalize = true});
  Tensor y3 = random::normal({2, 3, 4}, 0, 1, float64, 22);
  auto f = [&](const std::vector<Tensor>& in) { return reduce_sum(square(dot(in)[0])); };
  EXPECT_LT(test::max_error(test::compute_gradient(f, {x3, y3})), 1e-6);
}

TEST(MoreLayers, RejectInvalidArguments) {
  using namespace layers;  // NOLINT
  EXPECT_THROW(LeakyReLU({.negative_slope = -1}), InvalidArgumentError);
  EXPECT_THROW(Permute({1, 3}), InvalidArgumentError);
  EXPECT_THROW(RepeatVector(0), InvalidArgumentError);
  EXPECT_THROW(UpSampling2D(2, {.interpolation = "bilinear"}), UnimplementedError);
  EXPECT_THROW(Cropping2D({{1, 1}}), InvalidArgumentError);
  EXPECT_THROW(ZeroPadding3D(-1), InvalidArgumentError);
  EXPECT_THROW(MaxPooling1D(2, {.padding = "full"}), InvalidArgumentError);
  EXPECT_THROW(GaussianNoise(-1), InvalidArgumentError);
  EXPECT_THROW(SpatialDropout1D(1.5), InvalidArgumentError);
  EXPECT_THROW(Dot(std::vector<int64_t>{1, 2, 3}), InvalidArgumentError);
  Cropping1D crop(IntOrTuple{2, 2});
  EXPECT_THROW(crop(ones({1, 4, 2})), InvalidArgumentError);  // nothing left
  Subtract sub;
  EXPECT_THROW(sub(Tensors{ones({1, 2}), ones({1, 2}), ones({1, 2})}), InvalidArgumentError);
  Dot dot(1);
  EXPECT_THROW(dot(Tensors{ones({2, 3}), ones({2, 4})}), InvalidArgumentError);
  GroupNormalization gn({.groups = 3});
  EXPECT_THROW(gn(ones({2, 4})), InvalidArgumentError);  // 4 channels, 3 groups
  GlobalMaxPooling1D gmp;
  EXPECT_THROW(gmp(ones({2, 3})), InvalidArgumentError);
}

TEST(Lambda, AppliesItsFunctionAndLoadsByName) {
  layers::Lambda twice([](const Tensor& x) { return multiply(x, 2.0); }, {.function = "twice"});
  EXPECT_EQ(twice(constant({1.f, 2.f})).to_vector<float>(), (std::vector<float>{2, 4}));
  layers::Lambda sum2([](const Tensors& xs) { return Tensors{add(xs[0], xs[1])}; });
  EXPECT_EQ(sum2(Tensors{constant({1.f}), constant({2.f})})[0].item<float>(), 3.f);
  // The config holds the name; loading needs the function registered under it.
  const Json config = saving::layer_config(twice);
  EXPECT_NE(config.dump().find("twice"), std::string::npos);
  try {
    saving::layer_from_config(
        "Lambda", Json::parse(R"({"name": "l", "function": "not_registered_fn"})", "config"));
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("register_function(\"not_registered_fn\""),
              std::string::npos)
        << e.what();
  }
  layers::Lambda::register_function("twice", [](const Tensor& x) { return multiply(x, 2.0); });
  auto again = saving::layer_from_config("Lambda", config);
  EXPECT_EQ((*again)(Tensors{constant({3.f})})[0].item<float>(), 6.f);
  // A Python lambda (bytecode) cannot be rebuilt.
  EXPECT_THROW(
      saving::layer_from_config("Lambda", Json::parse(R"({"function": {"class_name": "__lambda__",
                                              "config": {"code": "AAAA"}}})",
                                                      "config")),
      InvalidArgumentError);
}

// Each constraint, read from Keras' serialized form, projects a weight as Keras' does.
TEST(Constraints, MatchKeras3) {
  const Json all = fixtures();
  int n = 0;
  for (const Json& c : all.at("constraints").items()) {
    SCOPED_TRACE(c.at("constraint").dump());
    constraints::Spec spec;
    config::Codec<constraints::Spec>::read(c.at("constraint"), spec, "constraint");
    ASSERT_TRUE(spec);
    expect_close((*spec)(tensor_of(c.at("w"))), tensor_of(c.at("out")), "projected");
    // The config written back reads to the same constraint.
    EXPECT_EQ(config::Codec<constraints::Spec>::repr(spec),
              config::Codec<constraints::Spec>::repr([&] {
                constraints::Spec again;
                config::Codec<constraints::Spec>::read(
                    Json::from_python_literal(config::Codec<constraints::Spec>::repr(spec)), again,
                    "constraint");
                return again;
              }()));
    ++n;
  }
  EXPECT_EQ(n, 5);
  EXPECT_THROW(constraints::get("nope"), InvalidArgumentError);
  EXPECT_THROW(constraints::MinMaxNorm(2.0, 1.0), InvalidArgumentError);
}

// A Dense layer with kernel and bias constraints (from Keras' config) after one SGD step, in
// eager code and in a traced step: Keras' weights (the optimizer projects after the update).
TEST(Constraints, AppliedAfterEachOptimizerStepAsKeras) {
  const Json all = fixtures();
  const Json& step = all.at("dense_step");
  const Tensor x = tensor_of(step.at("x")), y = tensor_of(step.at("y"));
  for (bool traced : {false, true}) {
    SCOPED_TRACE(traced ? "traced" : "eager");
    std::shared_ptr<Layer> dense = saving::layer_from_keras3(step.at("layer"));
    (*dense)(x);
    std::vector<Tensor> start;
    for (const Json& w : step.at("start").items()) start.push_back(tensor_of(w));
    dense->set_weights(start);
    optimizers::SGD sgd({.learning_rate = 0.5});
    auto train = [&](const Tensor& xs, const Tensor& ys) {
      GradientTape tape;
      Tensor loss = reduce_mean(square(subtract((*dense)(xs), ys)));
      auto vars = dense->trainable_variables();
      sgd.apply_gradients(tape.gradient(loss, vars), vars);
      return loss;
    };
    if (traced) {
      auto f = tfcc::function([&](Tensor a, Tensor b) { return train(a, b); });
      f(x, y);
    } else {
      train(x, y);
    }
    const auto& after = step.at("after").items();
    ASSERT_EQ(dense->weights().size(), after.size());
    for (size_t i = 0; i < after.size(); ++i) {
      expect_close(dense->weights()[i].read_value(), tensor_of(after[i]), "weight");
    }
  }
}

}  // namespace
}  // namespace tfcc::keras
