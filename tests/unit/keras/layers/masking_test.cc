// Keras masks against Keras 3: testdata/masking_fixtures.json (written by
// testdata/masking_fixtures.py with Keras 3.15 / TensorFlow 2.21) holds small models whose
// layers carry masks (Embedding(mask_zero), Masking, SimpleRNN / LSTM / GRU, Bidirectional,
// TimeDistributed, MultiHeadAttention, Attention, Add / Concatenate) with their Keras 3 configs,
// weights, inputs, outputs and output masks, and a tagger's masked loss and accuracy. tfcc reads
// each config, takes the weights and must give the same outputs and masks, eagerly and traced.
#include "tfcc/keras/layers/masking.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "tests/unit/keras/layers/layer_test_util.h"
#include "tfcc/keras/layers/wrappers.h"
#include "tfcc/keras/saving/keras3.h"
#include "tfcc/keras/saving/layer_registry.h"
#include "tfcc/keras/saving/model_saving.h"
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

const Json& fixtures() {
  static const Json all = [] {
    std::ifstream in(source_dir() / "testdata/masking_fixtures.json");
    std::stringstream text;
    text << in.rdbuf();
    return Json::parse(text.str(), "masking_fixtures.json");
  }();
  return all;
}

const Json& fixture(const std::string& name) {
  for (const Json& c : fixtures().at("cases").items()) {
    if (c.at("name").as_string() == name) return c;
  }
  throw NotFoundError("no fixture " + name);
}

Tensor tensor_of(const Json& j) {
  std::vector<int64_t> shape;
  for (const Json& d : j.at("shape").items()) shape.push_back(d.as_int());
  std::vector<double> values;
  for (const Json& v : j.at("values").items()) values.push_back(v.as_number());
  const std::string dtype = j.at("dtype").as_string();
  return cast(Tensor::from_vector(values, Shape(shape)), dtype == "int32" ? int32 : float32);
}

std::vector<Tensor> weights_of(const Json& c) {
  std::vector<Tensor> out;
  for (const Json& w : c.at("weights").items()) out.push_back(tensor_of(w));
  return out;
}

void expect_close(const Tensor& got, const Json& want, const std::string& what) {
  Tensor w = tensor_of(want);
  ASSERT_EQ(got.shape(), w.shape()) << what;
  auto g = cast(got, float64).to_vector<double>(), e = w.to_vector<double>();
  for (size_t i = 0; i < g.size(); ++i) {
    ASSERT_NEAR(g[i], e[i], 1e-5 + 1e-4 * std::abs(e[i])) << what << " element " << i;
  }
}

void expect_outputs(const MaskedTensors& got, const Json& c, const std::string& what) {
  const auto& outs = c.at("outputs").items();
  const auto& masks = c.at("output_masks").items();
  ASSERT_EQ(got.values.size(), outs.size()) << what;
  for (size_t i = 0; i < outs.size(); ++i) {
    const std::string at = what + " output " + std::to_string(i);
    expect_close(got.values[i], outs[i], at);
    if (masks[i].is_null()) {
      EXPECT_FALSE(got.masks[i].defined()) << at << ": Keras has no mask here";
    } else {
      ASSERT_TRUE(got.masks[i].defined()) << at << ": Keras has a mask here";
      expect_close(cast(got.masks[i], float32), masks[i], at + " mask");
    }
  }
}

std::shared_ptr<Model> model_of(const Json& c) {
  auto model = models::model_from_config(saving::config_from_keras3(c.at("model")));
  model->set_weights(weights_of(c));
  return model;
}

// Each Keras model read from its config.json form, with Keras' weights: same outputs and masks.
TEST(Masking, ModelsFromKeras3ConfigsMatchKeras) {
  for (const Json& c : fixtures().at("cases").items()) {
    const std::string name = c.at("name").as_string();
    SCOPED_TRACE(name);
    auto model = model_of(c);
    expect_outputs(model->call_masked({tensor_of(c.at("input"))}), c, name);
    // Weight names as Keras' paths (Keras names every cell "<kind>_cell"; tfcc numbers them).
    const auto& want = c.at("weights").items();
    auto vars = model->weights();
    ASSERT_EQ(vars.size(), want.size());
    const std::regex cell_number("(cell)_[0-9]+/");
    for (size_t i = 0; i < vars.size(); ++i) {
      EXPECT_EQ(std::regex_replace(vars[i].name(), cell_number, "$1/"),
                want[i].at("path").as_string())
          << i;
    }
  }
}

TEST(Masking, TracedModelsMatchKeras) {
  for (const char* name : {"embedding_lstm", "bidirectional_concat_time_distributed",
                           "multi_head_attention_masks", "masking_gru_sequences_backwards"}) {
    SCOPED_TRACE(name);
    const Json& c = fixture(name);
    auto model = model_of(c);
    auto traced = tfcc::function([&](const Tensor& t) { return (*model)(t); });
    MaskedTensors got{{traced(tensor_of(c.at("input")))}, {}};
    got.masks.resize(1);
    Json only = Json::object();
    Json outs = Json::array(), masks = Json::array();
    outs.push(c.at("outputs").items()[0]);
    masks.push(Json());
    only.set("outputs", outs);
    only.set("output_masks", masks);
    expect_outputs(got, only, name);
  }
}

// The tagger built with the C++ API: the same weights give Keras' outputs and mask, as a model
// and as eager layer calls carrying the mask by hand.
TEST(Masking, BidirectionalTaggerBuiltInCppMatchesKeras) {
  const Json& c = fixture("bidirectional_concat_time_distributed");
  auto ids = Input({6}, {.dtype = int32});
  auto emb =
      std::make_shared<layers::Embedding>(10, 4, layers::EmbeddingOptions{.mask_zero = true});
  auto bi = std::make_shared<layers::Bidirectional>(layers::LSTM(3, {.return_sequences = true}));
  auto td = std::make_shared<layers::TimeDistributed>(layers::Dense(3, {.activation = "softmax"}));
  auto out = (*td)((*bi)((*emb)(ids)));
  EXPECT_TRUE(out.has_mask());
  Model model(ids, out);
  model.set_weights(weights_of(c));
  const Tensor x = tensor_of(c.at("input"));
  expect_outputs(model.call_masked({x}), c, "model");
  auto h = emb->call_masked({x});
  auto s = bi->call_masked(h.values, h.masks);
  expect_outputs(td->call_masked(s.values, s.masks), c, "eager layers");
  EXPECT_EQ(bi->forward_layer()->name().rfind("forward_lstm", 0), 0u);
  EXPECT_TRUE(bi->forward_layer()->zero_output_for_mask());
}

TEST(Masking, MaskedLossAndAccuracyMatchKeras) {
  const Json& c = fixture("bidirectional_concat_time_distributed");
  const Json& e = fixtures().at("tagger_evaluate");
  auto model = model_of(c);
  model->compile(
      {.optimizer = "adam", .loss = "sparse_categorical_crossentropy", .metrics = {"accuracy"}});
  auto result = model->evaluate(tensor_of(c.at("input")), tensor_of(e.at("labels")),
                                {.batch_size = 4, .verbose = 0});
  ASSERT_EQ(result.size(), 2u);
  EXPECT_NEAR(result[size_t{0}], e.at("loss").as_number(), 1e-5);
  EXPECT_NEAR(result[size_t{1}], e.at("accuracy").as_number(), 1e-6);
}

TEST(Masking, MaskingLayerZeroesAndMasksPaddedSteps) {
  layers::Masking m({.mask_value = -1.0});
  Tensor x = constant({{{1.f, -1.f}, {-1.f, -1.f}, {0.f, 2.f}}});
  auto out = m.call_masked({x});
  EXPECT_EQ(out.values[0].to_vector<float>(), (std::vector<float>{1, -1, 0, 0, 0, 2}));
  EXPECT_EQ(cast(out.masks[0], int32).to_vector<int32_t>(), (std::vector<int32_t>{1, 0, 1}));
  // A layer without supports_masking drops the mask; one with it passes it on.
  layers::Flatten flatten;
  EXPECT_FALSE(flatten.call_masked({x}, out.masks).masks[0].defined());
  layers::Dense dense(2);
  EXPECT_TRUE(dense.call_masked({x}, out.masks).masks[0].defined());
}

// Masked steps keep the state: a sequence padded at the end gives the unpadded one's result.
TEST(Masking, RnnOverPaddedSequenceEqualsUnpadded) {
  layers::GRU gru(3);
  Tensor x = random::normal({1, 3, 2}, 0, 1, float32, 5);
  Tensor padded = concat({x, zeros({1, 2, 2})}, 1);
  Tensor mask = constant({{true, true, true, false, false}});
  Tensor short_run = gru(x);
  Tensor masked_run = gru(padded, {.mask = mask});
  auto a = short_run.to_vector<float>(), b = masked_run.to_vector<float>();
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-6);
}

// Gradients through the masked Bidirectional LSTM and TimeDistributed against central
// differences, in float64.
TEST(Masking, GradientsThroughMaskedWrappers) {
  layers::Bidirectional bi(layers::LSTM(2, {.return_sequences = true, .dtype = float64}),
                           {.merge_mode = "sum"});
  Tensor x = random::normal({2, 4, 3}, 0, 1, float64, 9);
  Tensor mask = constant({{true, true, true, true}, {true, true, false, false}});
  Tensor y0 = bi.call_masked({x}, {mask}).values[0];
  Tensor probe = random::normal(y0.shape().dims(), 0, 1, float64, 4);
  auto f = [&](const std::vector<Tensor>& xs) {
    return reduce_sum(multiply(bi.call_masked({xs[0]}, {mask}).values[0], probe));
  };
  EXPECT_LT(test::max_error(test::compute_gradient(f, {x})), 1e-6);
  for (auto& v : bi.trainable_variables()) {
    Tensor original = v.read_value();
    GradientTape tape;
    tape.watch(v);
    Tensor out = f({x});
    auto g = tape.gradient(out, std::vector<Variable>{v})[0].to_vector<double>();
    auto base = original.to_vector<double>();
    for (size_t i = 0; i < base.size(); ++i) {
      auto plus = base, minus = base;
      plus[i] += 1e-6;
      minus[i] -= 1e-6;
      v.assign(Tensor::from_vector(plus, original.shape()));
      const double fp = f({x}).item<double>();
      v.assign(Tensor::from_vector(minus, original.shape()));
      const double fm = f({x}).item<double>();
      EXPECT_NEAR((fp - fm) / 2e-6, g[i], 1e-6) << v.name() << " " << i;
    }
    v.assign(original);
  }
  layers::TimeDistributed td(layers::Dense(3, {.dtype = float64}));
  EXPECT_LT(testing::layer_gradient_error(td, x), 1e-6);
}

TEST(Masking, WrapperConfigsRoundTrip) {
  layers::Bidirectional bi(layers::GRU(3, {.return_sequences = true}), {.merge_mode = "none"});
  std::string text;
  for (auto& [k, v] : bi.get_config()) text += k + "=" + v + ";";
  EXPECT_NE(text.find("merge_mode=None"), std::string::npos) << text;
  auto back = std::dynamic_pointer_cast<layers::Bidirectional>(
      saving::layer_from_config("Bidirectional", saving::layer_config(bi)));
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(back->merge_mode(), "none");
  EXPECT_EQ(back->forward_layer()->name(), bi.forward_layer()->name());
  EXPECT_TRUE(back->backward_layer()->go_backwards());
  layers::TimeDistributed td(layers::Dense(4));
  auto td_back = std::dynamic_pointer_cast<layers::TimeDistributed>(
      saving::layer_from_config("TimeDistributed", saving::layer_config(td)));
  ASSERT_NE(td_back, nullptr);
  EXPECT_EQ(td_back->layer()->class_name(), "Dense");
  EXPECT_THROW(layers::Bidirectional(layers::LSTM(2), {.merge_mode = "max"}), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::keras
