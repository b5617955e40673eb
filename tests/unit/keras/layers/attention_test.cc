// MultiHeadAttention, Attention and AdditiveAttention against Keras 3: testdata/
// attention_fixtures.json holds each Keras layer's inputs, weights (Keras' order, names and
// shapes) and outputs, written by testdata/attention_fixtures.py with TensorFlow 2.21. The tfcc
// layer must take the same weights (same shapes, same order) and give the same outputs; its
// config must round-trip through the layer registry.
#include "tfcc/keras/layers/attention.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/unit/keras/layers/layer_test_util.h"
#include "tfcc/keras/saving/layer_registry.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras {
namespace {

using saving::Json;

// This source folder (__FILE__ may be relative to the build folder under ccache's base_dir).
std::filesystem::path source_dir() {
  std::filesystem::path file(__FILE__);
  if (file.is_absolute()) return file.parent_path();
  std::filesystem::path exe_dir = std::filesystem::read_symlink("/proc/self/exe").parent_path();
  return std::filesystem::weakly_canonical(exe_dir / file).parent_path();
}

Json fixtures() {
  std::ifstream in(source_dir() / "testdata/attention_fixtures.json");
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str(), "attention_fixtures.json");
}

Tensor tensor_of(const Json& j, DType dtype = float32) {
  std::vector<int64_t> shape;
  for (const Json& d : j.at("shape").items()) shape.push_back(d.as_int());
  std::vector<double> values;
  for (const Json& v : j.at("values").items()) values.push_back(v.as_number());
  Tensor t = Tensor::from_vector(values, Shape(shape));
  return cast(t, dtype);
}

std::vector<int64_t> ints(const Json* j) {
  std::vector<int64_t> out;
  if (!j || j->is_null()) return out;
  for (const Json& d : j->items()) out.push_back(d.as_int());
  return out;
}

bool flag(const Json& j, const char* key) {
  const Json* v = j.find(key);
  return v && v->as_bool();
}

std::shared_ptr<Layer> make_layer(const Json& c) {
  const std::string cls = c.at("class_name").as_string();
  const Json& ctor = c.at("ctor");
  if (cls == "MultiHeadAttention") {
    layers::MultiHeadAttention::Options o;
    if (const Json* v = ctor.find("value_dim")) o.value_dim = v->as_int();
    if (const Json* v = ctor.find("use_bias")) o.use_bias = v->as_bool();
    o.output_shape = ints(ctor.find("output_shape"));
    o.attention_axes = ints(ctor.find("attention_axes"));
    return std::make_shared<layers::MultiHeadAttention>(ctor.at("num_heads").as_int(),
                                                        ctor.at("key_dim").as_int(), o);
  }
  layers::AttentionOptions o;
  o.use_scale = cls == "AdditiveAttention";
  if (const Json* v = ctor.find("use_scale")) o.use_scale = v->as_bool();
  if (const Json* v = ctor.find("score_mode")) o.score_mode = v->as_string();
  if (cls == "Attention") return std::make_shared<layers::Attention>(o);
  return std::make_shared<layers::AdditiveAttention>(o);
}

// Calls the layer as the fixture's Keras call did.
std::pair<Tensor, Tensor> run(Layer& layer, const Json& c) {
  std::vector<Tensor> in;
  for (const Json& x : c.at("inputs").items()) in.push_back(tensor_of(x));
  const Json& call = c.at("call");
  layers::AttentionCall a{.use_causal_mask = flag(call, "use_causal_mask"),
                          .return_attention_scores = flag(call, "return_attention_scores")};
  if (!c.at("attention_mask").is_null())
    a.attention_mask = tensor_of(c.at("attention_mask"), bool_);
  if (!c.at("masks").is_null()) {
    const auto& m = c.at("masks").items();
    if (!m[0].is_null()) a.query_mask = tensor_of(m[0], bool_);
    if (!m[1].is_null()) a.value_mask = tensor_of(m[1], bool_);
  }
  const Tensor key = in.size() > 2 ? in[2] : Tensor();
  if (auto* mha = dynamic_cast<layers::MultiHeadAttention*>(&layer)) {
    return mha->attend(in[0], in[1], key, a);
  }
  return dynamic_cast<layers::Attention&>(layer).attend(in[0], in[1], key, a);
}

void expect_close(const Tensor& got, const Json& want, const std::string& what) {
  Tensor w = tensor_of(want);
  ASSERT_EQ(got.shape(), w.shape()) << what;
  auto g = got.to_vector<double>(), e = w.to_vector<double>();
  for (size_t i = 0; i < g.size(); ++i) {
    ASSERT_NEAR(g[i], e[i], 1e-5 + 1e-4 * std::abs(e[i])) << what << " element " << i;
  }
}

TEST(AttentionLayers, MatchKeras3) {
  const Json all = fixtures();
  int cases = 0;
  for (const Json& c : all.at("cases").items()) {
    const std::string name = c.at("name").as_string();
    SCOPED_TRACE(name);
    std::shared_ptr<Layer> layer = make_layer(c);
    run(*layer, c);  // builds
    // Same weights, in Keras' order, with Keras' shapes and names.
    const auto& weights = c.at("weights").items();
    ASSERT_EQ(layer->weights().size(), weights.size());
    std::vector<Tensor> values;
    for (size_t i = 0; i < weights.size(); ++i) {
      const std::string path = weights[i].at("path").as_string();
      const std::string mine = layer->weights()[i].name();
      EXPECT_EQ(mine.substr(mine.find('/')), path.substr(path.find('/'))) << i;
      values.push_back(tensor_of(weights[i]));
    }
    layer->set_weights(values);
    auto [out, scores] = run(*layer, c);
    const auto& outs = c.at("outputs").items();
    expect_close(out, outs[0], "output");
    if (outs.size() > 1) expect_close(scores, outs[1], "scores");
    // Config round trip through the registry.
    Json config = saving::layer_config(*layer);
    auto again = saving::layer_from_config(layer->class_name(), config);
    EXPECT_EQ(saving::layer_config(*again).dump(), config.dump());
    ++cases;
  }
  EXPECT_EQ(cases, 11);
}

TEST(MultiHeadAttention, FunctionalSelfAttentionAndGradients) {
  auto x = Input({5, 8});
  auto y = layers::MultiHeadAttention(2, 4)({x, x});
  EXPECT_EQ(y.shape().to_string(), "(None, 5, 8)");
  layers::MultiHeadAttention mha(2, 3, {.dtype = float64});
  Tensor q = random::normal({2, 3, 4}, 0, 1, float64, 5);
  auto f = [&](const std::vector<Tensor>& in) {
    return reduce_sum(mha.attend(in[0], in[0], {}, {.use_causal_mask = true}).first);
  };
  f({q});
  EXPECT_LT(test::max_error(test::compute_gradient(f, {q})), 1e-6);
}

TEST(MultiHeadAttention, RejectsBadArguments) {
  EXPECT_THROW(layers::MultiHeadAttention(0, 4), InvalidArgumentError);
  EXPECT_THROW(layers::MultiHeadAttention(2, 4, {.dropout = 1.5}), InvalidArgumentError);
  layers::MultiHeadAttention mha(2, 4);
  EXPECT_THROW(mha(std::vector<Tensor>{ones({2, 3, 4})}), InvalidArgumentError);
  EXPECT_THROW(layers::Attention({.score_mode = "sum"}), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::keras
