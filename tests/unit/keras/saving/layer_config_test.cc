// Every registered layer class, configured away from its defaults, round trips its declared
// config: get_config -> from_config, and through config.json's Keras 3 form, give the same
// config and, with the same weights, the same outputs; a model of it saved in tfcc's format and
// as a `.keras` archive loads with the same config and outputs. Keras 3's own configs of the same
// layers (testdata/keras3_layer_configs.json, written by TensorFlow 2.21's Keras with
// testdata/keras3_layer_configs.py) read into tfcc layers whose config says the same.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include "tests/unit/keras/saving/saving_test_util.h"
#include "tfcc/keras/optimizers/serialization.h"
#include "tfcc/keras/saving/keras3.h"
#include "tfcc/keras/saving/layer_registry.h"
#include "tfcc/keras/saving/model_saving.h"

namespace tfcc::keras {
namespace {

using saving::Json;

// One layer: how to make it, and example inputs (one example's shape each; int32 for ids).
struct Case {
  std::string class_name;
  std::function<std::shared_ptr<Layer>()> make;
  std::vector<std::vector<int64_t>> inputs;
  bool int_input = false;
  bool in_model = true;  // false: cells and InputLayer, called on tensors only
};

// A Lambda whose function is registered under its name (before any test runs: each test may
// run in a process of its own), so that configs of it, Keras' included, load.
Tensor square_fn(const Tensor& x) { return square(x); }
const bool kSquareRegistered = (layers::Lambda::register_function("square", square_fn), true);

layers::Lambda config_test_lambda() {
  EXPECT_TRUE(kSquareRegistered);
  return layers::Lambda(square_fn, {.function = "square"});
}

std::vector<Case> cases() {
  using namespace layers;  // NOLINT: the table reads like Keras
  auto l = [](auto layer) {
    auto p = std::make_shared<decltype(layer)>(std::move(layer));
    return [p]() { return std::static_pointer_cast<Layer>(p); };
  };
  return {
      {"InputLayer",
       l(InputLayer({5, 3}, {.name = "inp", .batch_size = 2})),
       {{5, 3}},
       false,
       false},
      {"Dense",
       l(Dense(7, {.activation = "relu",
                   .use_bias = false,
                   .kernel_initializer = "he_normal",
                   .kernel_regularizer = regularizers::l2(0.02),
                   .activity_regularizer = regularizers::l1(0.01),
                   .name = "dense_k"})),
       {{4}}},
      {"Activation", l(Activation("tanh")), {{4}}},
      {"Flatten", l(Flatten()), {{2, 3}}},
      {"Reshape", l(Reshape({3, -1})), {{6}}},
      {"Dropout", l(Dropout(0.3, {.noise_shape = {-1, 1, 4}, .seed = 5})), {{2, 4}}},
      {"Conv1D",
       l(Conv1D(4, 3,
                {.padding = "causal",
                 .dilation_rate = 2,
                 .activation = "elu",
                 .bias_regularizer = regularizers::L1L2(0.01, 0.02)})),
       {{8, 3}}},
      {"Conv2D",
       l(Conv2D(6, {3, 2},
                {.strides = {2, 1},
                 .padding = "same",
                 .groups = 2,
                 .activation = "relu",
                 .bias_initializer = "ones"})),
       {{6, 6, 4}}},
      {"Conv2DTranspose",
       l(Conv2DTranspose(3, 3, {.strides = 2, .padding = "same", .use_bias = false})),
       {{4, 4, 2}}},
      {"DepthwiseConv2D",
       l(DepthwiseConv2D(3, {.padding = "same",
                             .depth_multiplier = 2,
                             .activation = "relu6",
                             .depthwise_initializer = "glorot_normal"})),
       {{5, 5, 2}}},
      {"ZeroPadding2D", l(ZeroPadding2D({{1, 2}, {3, 0}})), {{3, 3, 2}}},
      {"MaxPooling2D", l(MaxPooling2D({3, 3}, {.strides = 2, .padding = "same"})), {{5, 5, 2}}},
      {"AveragePooling2D", l(AveragePooling2D(2, {.strides = 1})), {{4, 4, 2}}},
      {"GlobalAveragePooling2D", l(GlobalAveragePooling2D({.keepdims = true})), {{3, 3, 2}}},
      {"GlobalMaxPooling2D", l(GlobalMaxPooling2D()), {{3, 3, 2}}},
      {"BatchNormalization",
       l(BatchNormalization({.momentum = 0.9,
                             .epsilon = 1e-5,
                             .center = false,
                             .gamma_initializer = "random_normal",
                             .beta_regularizer = regularizers::l2(0.1)})),
       {{4}}},
      {"LayerNormalization",
       l(LayerNormalization({.epsilon = 1e-5, .scale = false, .beta_initializer = "ones"})),
       {{4}}},
      {"Add", l(Add()), {{3}, {3}}},
      {"Multiply", l(Multiply()), {{3}, {3}}},
      {"Concatenate", l(Concatenate({.axis = 1})), {{3}, {2}}},
      {"ReLU", l(ReLU({.max_value = 6.0, .negative_slope = 0.1, .threshold = 0.5})), {{4}}},
      {"Softmax", l(Softmax({.axis = 1})), {{3, 4}}},
      {"Embedding",
       l(Embedding(30, 5, {.embeddings_regularizer = regularizers::l2(0.01)})),
       {{6}},
       true},
      {"SimpleRNNCell", l(SimpleRNNCell(4, {.activation = "relu"})), {{2}, {4}}, false, false},
      {"LSTMCell",
       l(LSTMCell(3, {.recurrent_activation = "hard_sigmoid", .unit_forget_bias = false})),
       {{2}, {3}, {3}},
       false,
       false},
      {"GRUCell", l(GRUCell(3, {.reset_after = false})), {{2}, {3}}, false, false},
      {"RNN", l(RNN(LSTMCell(3), {.return_sequences = true, .go_backwards = true})), {{4, 2}}},
      {"SimpleRNN",
       l(SimpleRNN(4, {.recurrent_initializer = "glorot_uniform", .return_sequences = true})),
       {{4, 2}}},
      {"LSTM", l(LSTM(5, {.activation = "relu", .return_state = true})), {{4, 2}}},
      {"GRU", l(GRU(3, {.reset_after = false, .go_backwards = true})), {{4, 2}}},
      {"EinsumDense",
       l(EinsumDense("ab,bc->ac", {6}, {.activation = "relu", .bias_axes = "c"})),
       {{4}}},
      {"MultiHeadAttention",
       l(MultiHeadAttention(2, 3, {.value_dim = 4, .output_shape = {5}, .seed = 7})),
       {{4, 6}, {3, 6}}},
      {"Attention", l(Attention({.use_scale = true, .score_mode = "concat"})), {{3, 4}, {5, 4}}},
      {"AdditiveAttention", l(AdditiveAttention({.use_scale = false})), {{3, 4}, {5, 4}}},
      {"Rescaling", l(Rescaling(1.0 / 255, {.offset = -0.5})), {{2, 3}}},
      {"Normalization",
       l(Normalization({.axis = {-1},
                        .mean = std::vector<double>{0.5, -1, 2},
                        .variance = std::vector<double>{4, 1, 0.25},
                        .invert = true})),
       {{2, 3}}},
      {"LeakyReLU", l(LeakyReLU({.negative_slope = 0.1})), {{4}}},
      {"PReLU",
       l(PReLU({.alpha_initializer = "ones",
                .alpha_regularizer = regularizers::l2(0.01),
                .shared_axes = {1}})),
       {{3, 4}}},
      {"ELU", l(ELU({.alpha = 0.5})), {{4}}},
      {"Subtract", l(Subtract()), {{3}, {3}}},
      {"Average", l(Average()), {{3}, {3}}},
      {"Maximum", l(Maximum()), {{3}, {3}}},
      {"Minimum", l(Minimum()), {{3}, {3}}},
      {"Dot", l(Dot(std::vector<int64_t>{2, 2}, {.normalize = true})), {{3, 4}, {5, 4}}},
      {"Permute", l(Permute({2, 1})), {{3, 4}}},
      {"RepeatVector", l(RepeatVector(3)), {{4}}},
      {"UpSampling1D", l(UpSampling1D(3)), {{4, 2}}},
      {"UpSampling2D", l(UpSampling2D({2, 3})), {{2, 3, 2}}},
      {"UpSampling3D", l(UpSampling3D({1, 2, 2})), {{2, 2, 2, 1}}},
      {"Cropping1D", l(Cropping1D({1, 2})), {{6, 2}}},
      {"Cropping2D", l(Cropping2D({{1, 0}, {2, 1}})), {{5, 6, 2}}},
      {"Cropping3D", l(Cropping3D({{1, 1}, {0, 1}, {2, 0}})), {{4, 4, 4, 1}}},
      {"ZeroPadding1D", l(ZeroPadding1D({1, 2})), {{3, 2}}},
      {"ZeroPadding3D", l(ZeroPadding3D({{1, 0}, {0, 2}, {1, 1}})), {{2, 2, 2, 1}}},
      {"MaxPooling1D", l(MaxPooling1D(3, {.strides = 2, .padding = "same"})), {{7, 3}}},
      {"AveragePooling1D", l(AveragePooling1D(2, {.strides = 1})), {{5, 3}}},
      {"GlobalAveragePooling1D", l(GlobalAveragePooling1D({.keepdims = true})), {{5, 3}}},
      {"GlobalMaxPooling1D", l(GlobalMaxPooling1D()), {{5, 3}}},
      {"GroupNormalization",
       l(GroupNormalization({.groups = 2,
                             .epsilon = 1e-5,
                             .center = false,
                             .gamma_initializer = "random_normal",
                             .gamma_regularizer = regularizers::l2(0.1)})),
       {{3, 4}}},
      {"UnitNormalization", l(UnitNormalization({.axis = {1, 2}})), {{3, 4}}},
      {"SpatialDropout1D", l(SpatialDropout1D(0.3, {.seed = 4})), {{3, 4}}},
      {"SpatialDropout2D", l(SpatialDropout2D(0.2)), {{2, 3, 4}}},
      {"GaussianNoise", l(GaussianNoise(0.2, {.seed = 1})), {{4}}},
      {"GaussianDropout", l(GaussianDropout(0.4)), {{4}}},
      {"AlphaDropout", l(AlphaDropout(0.1, {.noise_shape = {-1, 1, 4}})), {{3, 4}}},
      {"ActivityRegularization", l(ActivityRegularization({.l1 = 0.01, .l2 = 0.02})), {{4}}},
      {"Lambda", l(config_test_lambda()), {{4}}},
      {"SeparableConv2D",
       l(SeparableConv2D(4, {3, 2},
                         {.padding = "same",
                          .depth_multiplier = 2,
                          .activation = "relu",
                          .pointwise_initializer = "he_normal",
                          .depthwise_regularizer = regularizers::l2(0.01),
                          .pointwise_constraint = constraints::MaxNorm(2.0, {0, 1, 2})})),
       {{5, 5, 3}}},
      {"SeparableConv1D",
       l(SeparableConv1D(3, 3,
                         {.strides = 2, .use_bias = false, .depthwise_constraint = "non_neg"})),
       {{7, 2}}},
      {"Conv1DTranspose",
       l(Conv1DTranspose(3, 3,
                         {.strides = 2,
                          .padding = "same",
                          .kernel_constraint = constraints::UnitNorm(),
                          .bias_constraint = constraints::MinMaxNorm(0.1, 0.9, 0.5)})),
       {{4, 2}}},
      {"Masking", l(Masking({.mask_value = -1.0})), {{4, 3}}},
      {"Bidirectional",
       l(Bidirectional(LSTM(3, {.return_sequences = true}), {.merge_mode = "sum"})),
       {{4, 2}}},
      {"TimeDistributed",
       l(TimeDistributed(
           Dense(4, {.activation = "relu", .activity_regularizer = regularizers::l1(0.01)}))),
       {{4, 3}}},
      {"Resizing",
       l(Resizing(4, 5, {.interpolation = "bicubic", .crop_to_aspect_ratio = true})),
       {{6, 8, 3}}},
      {"CenterCrop", l(CenterCrop(3, 4)), {{6, 8, 3}}},
      {"RandomFlip", l(RandomFlip({.seed = 3, .mode = "horizontal"})), {{6, 8, 3}}},
      {"RandomContrast",
       l(RandomContrast(std::vector<double>{0.1, 0.4}, {.value_range = {0, 1}, .seed = 5})),
       {{6, 8, 3}}},
      {"RandomCrop", l(RandomCrop(3, 4, {.seed = 9})), {{6, 8, 3}}},
  };
}

Tensors example_inputs(const Case& c, int64_t batch) {
  Tensors xs;
  uint64_t seed = 40;
  for (const auto& dims : c.inputs) {
    std::vector<int64_t> shape = {batch};
    shape.insert(shape.end(), dims.begin(), dims.end());
    Tensor x = random::uniform(shape, -1, 1, float32, seed++);
    if (c.int_input) x = cast(random::uniform(shape, 0, 30, float32, seed++), int32);
    xs.push_back(x);
  }
  return xs;
}

void expect_same_outputs(const Tensors& got, const Tensors& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].shape(), want[i].shape()) << what << " output " << i;
    EXPECT_EQ(got[i].to_vector<float>(), want[i].to_vector<float>()) << what << " output " << i;
  }
}

// `copy` (a layer of the same class, from a config) computes what `layer` does with its weights.
void expect_same_layer(Layer& layer, Layer& copy, const Case& c, const std::string& what) {
  EXPECT_EQ(copy.class_name(), c.class_name) << what;
  EXPECT_EQ(copy.get_config(), layer.get_config()) << what;
  const Tensors xs = example_inputs(c, 2);
  const Tensors want = layer(xs);
  copy(xs);  // builds
  copy.set_weights(layer.get_weights());
  expect_same_outputs(copy(xs), want, what);
}

TEST(LayerConfig, EveryRegisteredLayerClassHasACase) {
  std::set<std::string> covered;
  for (const Case& c : cases()) covered.insert(c.class_name);
  for (const std::string& cls : saving::registered_layers()) {
    EXPECT_TRUE(covered.count(cls)) << cls << " is registered but has no case in this test";
  }
}

TEST(LayerConfig, GetConfigFromConfigAndKeras3ConfigRoundTrip) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.class_name);
    std::shared_ptr<Layer> layer = c.make();
    if (c.class_name == "InputLayer") {
      auto copy = saving::layer_from_config(c.class_name, saving::layer_config(*layer));
      EXPECT_EQ(copy->get_config(), layer->get_config());
      auto back = saving::layer_from_keras3(
          Json::parse(saving::keras3_layer_entry(*layer).dump(), "config.json"));
      EXPECT_EQ(back->get_config(), layer->get_config());
      continue;
    }
    (*layer)(example_inputs(c, 2));  // built, as a saved layer is
    // get_config -> from_config (tfcc's own config.json holds this JSON).
    auto copy = saving::layer_from_config(c.class_name, saving::layer_config(*layer));
    expect_same_layer(*layer, *copy, c, "from_config");
    // Keras 3's config.json entry, as text and back.
    const std::string text = saving::keras3_layer_entry(*layer).dump();
    auto back = saving::layer_from_keras3(Json::parse(text, "config.json"));
    expect_same_layer(*layer, *back, c, "Keras 3 config.json");
  }
}

TEST(LayerConfig, ModelsOfEachLayerSaveAndLoadInBothFormats) {
  const std::string dir = test::temp_dir("layer_config");
  for (const Case& c : cases()) {
    if (!c.in_model) continue;
    SCOPED_TRACE(c.class_name);
    KerasTensors inputs;
    for (const auto& dims : c.inputs) {
      inputs.push_back(Input(dims, {.dtype = c.int_input ? int32 : float32}));
    }
    Model model(inputs, c.make()->apply(inputs));
    const Tensors xs = example_inputs(c, 3);
    const Tensors want = model(xs);
    const std::string json = models::model_to_json(model);
    model.save(dir + "/" + c.class_name);
    auto legacy = models::load_model(dir + "/" + c.class_name);
    EXPECT_EQ(models::model_to_json(*legacy), json);
    expect_same_outputs((*legacy)(xs), want, "tfcc format");
    model.save(dir + "/" + c.class_name + ".keras");
    auto keras3 = models::load_model(dir + "/" + c.class_name + ".keras");
    EXPECT_EQ(models::model_to_json(*keras3), json);
    expect_same_outputs((*keras3)(xs), want, ".keras");
  }
}

// ---- Keras 3's configs ----------------------------------------------------------------------

std::filesystem::path testdata() {
  std::filesystem::path file(__FILE__);
  if (!file.is_absolute()) {
    file = std::filesystem::read_symlink("/proc/self/exe").parent_path() / file;
  }
  return std::filesystem::weakly_canonical(file).parent_path() / "testdata";
}

// True when `ours` (tfcc's Keras 3 config value) says what `keras`'s does: the same numbers,
// strings and lists; serialized objects of the same class (initializers by class; regularizers
// and cells by config too; Keras' extra keys, such as an initializer's seed, are not compared).
bool same(const Json& ours, const Json& keras, const std::string& path, std::string& why) {
  if (ours.type() == Json::Type::kNumber && keras.type() == Json::Type::kNumber) {
    if (ours.as_number() == keras.as_number()) return true;
  } else if (ours.type() != keras.type()) {
    // fall through to the message
  } else if (ours.type() == Json::Type::kArray) {
    const auto &a = ours.items(), &b = keras.items();
    bool ok = a.size() == b.size();
    for (size_t i = 0; ok && i < a.size(); ++i) {
      ok = same(a[i], b[i], path + "[" + std::to_string(i) + "]", why);
    }
    if (ok) return true;
  } else if (ours.type() == Json::Type::kObject) {
    const Json* module = ours.find("module");
    if (module && module->as_string() == "keras.initializers") {
      if (ours.at("class_name").as_string() == keras.at("class_name").as_string()) return true;
    } else {
      for (const auto& [key, value] : ours.members()) {
        const Json* theirs = keras.find(key);
        if (!theirs) {
          why += path + "." + key + ": written by tfcc, not by Keras\n";
          return false;
        }
        if (!same(value, *theirs, path + "." + key, why)) return false;
      }
      return true;
    }
  } else if (ours.dump() == keras.dump()) {
    return true;
  }
  why += path + ": tfcc " + ours.dump() + ", Keras " + keras.dump() + "\n";
  return false;
}

Json load_fixture() {
  std::ifstream in(testdata() / "keras3_layer_configs.json");
  EXPECT_TRUE(in) << (testdata() / "keras3_layer_configs.json");
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str(), "keras3_layer_configs.json");
}

TEST(LayerConfig, Keras3ConfigsOfEachLayerClassReadToTheSameConfig) {
  const Json fixture = load_fixture();
  std::set<std::string> seen;
  for (const Json& entry : fixture.at("layers").items()) {
    const std::string cls = entry.at("class_name").as_string();
    SCOPED_TRACE(cls);
    seen.insert(cls);
    std::shared_ptr<Layer> layer = saving::layer_from_keras3(entry);
    EXPECT_EQ(layer->class_name(), cls);
    std::string why;
    EXPECT_TRUE(same(saving::keras3_layer_entry(*layer), entry, cls, why)) << why;
  }
  for (const std::string& cls : saving::registered_layers()) {
    EXPECT_TRUE(seen.count(cls)) << cls << " has no Keras 3 config in the fixture";
  }
}

// ---- optimizers and schedules ---------------------------------------------------------------

// Keras 3's optimizers with settings away from the defaults (one of each class, each schedule
// once) read into tfcc's; tfcc's config of each says what Keras' does (without the two tf.keras
// keys tfcc's own format keeps and config.json drops: jit_compile, is_legacy_optimizer); the
// config goes through JSON text back to an optimizer with the same config, which makes the same
// updates.
TEST(OptimizerConfig, Keras3OptimizersRoundTripWithTheSameConfigAndUpdates) {
  const Json fixture = load_fixture();
  std::set<std::string> classes, schedules;
  for (const Json& entry : fixture.at("optimizers").items()) {
    const std::string cls = entry.at("class_name").as_string();
    SCOPED_TRACE(cls);
    classes.insert(cls);
    if (const Json& lr = entry.at("config").at("learning_rate"); lr.type() == Json::Type::kObject) {
      schedules.insert(lr.at("class_name").as_string());
    }
    std::shared_ptr<optimizers::Optimizer> a = optimizers::deserialize(entry);
    EXPECT_EQ(a->class_name(), cls);
    Json ours = optimizers::serialize(*a);
    Json keras3 = Json::object();
    for (const auto& [key, value] : ours.at("config").members()) {
      if (key != "jit_compile" && key != "is_legacy_optimizer") keras3.set(key, value);
    }
    ours.set("config", keras3);
    std::string why;
    EXPECT_TRUE(same(ours, entry, cls, why)) << why;

    auto b = optimizers::deserialize(Json::parse(optimizers::serialize(*a).dump(), "config"));
    EXPECT_EQ(optimizers::serialize(*b).dump(), optimizers::serialize(*a).dump());
    Variable va(random::normal({3, 2}, 0, 1, float32, 1));
    Variable vb(va.read_value());
    for (int step = 0; step < 4; ++step) {
      Tensor g = random::normal({3, 2}, 0, 1, float32, 10 + step);
      a->apply_gradients(std::vector<std::pair<Tensor, Variable>>{{g, va}});
      b->apply_gradients(std::vector<std::pair<Tensor, Variable>>{{g, vb}});
    }
    EXPECT_EQ(vb.read_value().to_vector<float>(), va.read_value().to_vector<float>());
  }
  EXPECT_EQ(classes, (std::set<std::string>{"SGD", "Adam", "AdamW", "Adamax", "Nadam", "RMSprop",
                                            "Adagrad", "Adadelta", "Ftrl"}));
  EXPECT_EQ(schedules, (std::set<std::string>{"ExponentialDecay", "PiecewiseConstantDecay",
                                              "CosineDecay", "PolynomialDecay"}));
}

}  // namespace
}  // namespace tfcc::keras
