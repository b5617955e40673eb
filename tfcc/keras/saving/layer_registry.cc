#include "tfcc/keras/saving/layer_registry.h"

#include <map>
#include <mutex>

#include "tfcc/keras/engine/keras_tensor.h"
#include "tfcc/keras/layers/activation_layers.h"
#include "tfcc/keras/layers/advanced_activations.h"
#include "tfcc/keras/layers/attention.h"
#include "tfcc/keras/layers/categorical.h"
#include "tfcc/keras/layers/conv.h"
#include "tfcc/keras/layers/conv3d.h"
#include "tfcc/keras/layers/core.h"
#include "tfcc/keras/layers/embedding.h"
#include "tfcc/keras/layers/group_normalization.h"
#include "tfcc/keras/layers/image_preprocessing.h"
#include "tfcc/keras/layers/lambda_layer.h"
#include "tfcc/keras/layers/lookup.h"
#include "tfcc/keras/layers/masking.h"
#include "tfcc/keras/layers/merge_layers.h"
#include "tfcc/keras/layers/merging.h"
#include "tfcc/keras/layers/normalization.h"
#include "tfcc/keras/layers/pooling.h"
#include "tfcc/keras/layers/pooling1d.h"
#include "tfcc/keras/layers/preprocessing.h"
#include "tfcc/keras/layers/regularization.h"
#include "tfcc/keras/layers/reshaping.h"
#include "tfcc/keras/layers/rnn.h"
#include "tfcc/keras/layers/separable_conv.h"
#include "tfcc/keras/layers/text_vectorization.h"
#include "tfcc/keras/layers/wrappers.h"

namespace tfcc::keras::saving {
namespace {

// The built-in layers: each class's from_config, derived from its declared config.
std::map<std::string, LayerFactory> builtins() {
  std::map<std::string, LayerFactory> m;
  m["InputLayer"] = InputLayer::from_config;
  m["Dense"] = layers::Dense::from_config;
  m["Activation"] = layers::Activation::from_config;
  m["Flatten"] = layers::Flatten::from_config;
  m["Reshape"] = layers::Reshape::from_config;
  m["Dropout"] = layers::Dropout::from_config;
  m["Conv1D"] = layers::Conv1D::from_config;
  m["Conv2D"] = layers::Conv2D::from_config;
  m["Conv2DTranspose"] = layers::Conv2DTranspose::from_config;
  m["DepthwiseConv2D"] = layers::DepthwiseConv2D::from_config;
  m["ZeroPadding2D"] = layers::ZeroPadding2D::from_config;
  m["MaxPooling2D"] = layers::MaxPooling2D::from_config;
  m["AveragePooling2D"] = layers::AveragePooling2D::from_config;
  m["GlobalAveragePooling2D"] = layers::GlobalAveragePooling2D::from_config;
  m["GlobalMaxPooling2D"] = layers::GlobalMaxPooling2D::from_config;
  m["BatchNormalization"] = layers::BatchNormalization::from_config;
  m["LayerNormalization"] = layers::LayerNormalization::from_config;
  m["Add"] = layers::Add::from_config;
  m["Multiply"] = layers::Multiply::from_config;
  m["Concatenate"] = layers::Concatenate::from_config;
  m["ReLU"] = layers::ReLU::from_config;
  m["Softmax"] = layers::Softmax::from_config;
  m["Embedding"] = layers::Embedding::from_config;
  m["SimpleRNNCell"] = layers::SimpleRNNCell::from_config;
  m["LSTMCell"] = layers::LSTMCell::from_config;
  m["GRUCell"] = layers::GRUCell::from_config;
  m["RNN"] = layers::RNN::from_config;
  m["SimpleRNN"] = layers::SimpleRNN::from_config;
  m["LSTM"] = layers::LSTM::from_config;
  m["GRU"] = layers::GRU::from_config;
  m["Rescaling"] = layers::Rescaling::from_config;
  m["Normalization"] = layers::Normalization::from_config;
  m["EinsumDense"] = layers::EinsumDense::from_config;
  m["MultiHeadAttention"] = layers::MultiHeadAttention::from_config;
  m["Attention"] = layers::Attention::from_config;
  m["AdditiveAttention"] = layers::AdditiveAttention::from_config;
  m["LeakyReLU"] = layers::LeakyReLU::from_config;
  m["PReLU"] = layers::PReLU::from_config;
  m["ELU"] = layers::ELU::from_config;
  m["Subtract"] = layers::Subtract::from_config;
  m["Average"] = layers::Average::from_config;
  m["Maximum"] = layers::Maximum::from_config;
  m["Minimum"] = layers::Minimum::from_config;
  m["Dot"] = layers::Dot::from_config;
  m["Permute"] = layers::Permute::from_config;
  m["RepeatVector"] = layers::RepeatVector::from_config;
  m["UpSampling1D"] = layers::UpSampling1D::from_config;
  m["UpSampling2D"] = layers::UpSampling2D::from_config;
  m["UpSampling3D"] = layers::UpSampling3D::from_config;
  m["Cropping1D"] = layers::Cropping1D::from_config;
  m["Cropping2D"] = layers::Cropping2D::from_config;
  m["Cropping3D"] = layers::Cropping3D::from_config;
  m["ZeroPadding1D"] = layers::ZeroPadding1D::from_config;
  m["ZeroPadding3D"] = layers::ZeroPadding3D::from_config;
  m["MaxPooling1D"] = layers::MaxPooling1D::from_config;
  m["AveragePooling1D"] = layers::AveragePooling1D::from_config;
  m["GlobalAveragePooling1D"] = layers::GlobalAveragePooling1D::from_config;
  m["GlobalMaxPooling1D"] = layers::GlobalMaxPooling1D::from_config;
  m["GroupNormalization"] = layers::GroupNormalization::from_config;
  m["UnitNormalization"] = layers::UnitNormalization::from_config;
  m["SpatialDropout1D"] = layers::SpatialDropout1D::from_config;
  m["SpatialDropout2D"] = layers::SpatialDropout2D::from_config;
  m["GaussianNoise"] = layers::GaussianNoise::from_config;
  m["GaussianDropout"] = layers::GaussianDropout::from_config;
  m["AlphaDropout"] = layers::AlphaDropout::from_config;
  m["ActivityRegularization"] = layers::ActivityRegularization::from_config;
  m["Lambda"] = layers::Lambda::from_config;
  m["SeparableConv2D"] = layers::SeparableConv2D::from_config;
  m["SeparableConv1D"] = layers::SeparableConv1D::from_config;
  m["Conv1DTranspose"] = layers::Conv1DTranspose::from_config;
  m["Masking"] = layers::Masking::from_config;
  m["Bidirectional"] = layers::Bidirectional::from_config;
  m["TimeDistributed"] = layers::TimeDistributed::from_config;
  m["Resizing"] = layers::Resizing::from_config;
  m["CenterCrop"] = layers::CenterCrop::from_config;
  m["RandomFlip"] = layers::RandomFlip::from_config;
  m["RandomContrast"] = layers::RandomContrast::from_config;
  m["RandomCrop"] = layers::RandomCrop::from_config;
  m["Conv3D"] = layers::Conv3D::from_config;
  m["Conv3DTranspose"] = layers::Conv3DTranspose::from_config;
  m["MaxPooling3D"] = layers::MaxPooling3D::from_config;
  m["AveragePooling3D"] = layers::AveragePooling3D::from_config;
  m["GlobalAveragePooling3D"] = layers::GlobalAveragePooling3D::from_config;
  m["GlobalMaxPooling3D"] = layers::GlobalMaxPooling3D::from_config;
  m["CategoryEncoding"] = layers::CategoryEncoding::from_config;
  m["Hashing"] = layers::Hashing::from_config;
  m["Discretization"] = layers::Discretization::from_config;
  m["StringLookup"] = layers::StringLookup::from_config;
  m["IntegerLookup"] = layers::IntegerLookup::from_config;
  m["TextVectorization"] = layers::TextVectorization::from_config;
  return m;
}

struct Registry {
  std::mutex mu;
  std::map<std::string, LayerFactory> factories = builtins();
};

Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: used until exit
  return *r;
}

}  // namespace

void register_layer(const std::string& class_name, LayerFactory factory) {
  TFCC_CHECK_ARG(!class_name.empty() && factory, "register_layer needs a class name and a factory");
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  r.factories[class_name] = std::move(factory);
}

std::vector<std::string> registered_layers() {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  std::vector<std::string> out;
  for (const auto& [name, factory] : r.factories) out.push_back(name);
  return out;
}

bool is_layer_registered(const std::string& class_name) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  return r.factories.count(class_name) > 0;
}

std::shared_ptr<Layer> layer_from_config(const std::string& class_name, const Json& config) {
  LayerFactory factory;
  {
    Registry& r = registry();
    std::lock_guard lock(r.mu);
    auto it = r.factories.find(class_name);
    if (it != r.factories.end()) factory = it->second;
  }
  TFCC_CHECK_ARG(factory != nullptr, "Unknown layer: '", class_name,
                 "'. A model using it can only be rebuilt once the class is registered: call "
                 "keras::saving::register_layer(\"",
                 class_name,
                 "\", [](const keras::saving::Json& config) { return "
                 "std::make_shared<",
                 class_name, ">(...); }) before load_model");
  std::shared_ptr<Layer> layer = factory(config);
  TFCC_CHECK_ARG(layer != nullptr, "The factory registered for '", class_name,
                 "' returned a null layer");
  return layer;
}

Json layer_config(const Layer& layer) {
  Json out = Json::object();
  for (const auto& [key, value] : layer.get_config()) {
    out.set(key, Json::from_python_literal(value));
  }
  if (layer.declared_input_shape() && !out.find("batch_input_shape")) {
    Json shape = Json::array();
    for (int64_t d : layer.declared_input_shape()->dims()) shape.push(d < 0 ? Json() : Json(d));
    out.set("batch_input_shape", shape);
  }
  return out;
}

LayerArgs layer_args_from_config(const Json& config) {
  LayerArgs a;
  if (const Json* v = config.find("name"); v && !v->is_null()) a.name = v->as_string("name");
  if (const Json* v = config.find("trainable"); v && !v->is_null()) {
    a.trainable = v->as_bool("trainable");
  }
  if (const Json* v = config.find("dtype"); v && !v->is_null()) {
    a.dtype = dtype_from_name(v->as_string("dtype"));
  }
  if (const Json* s = config.find("batch_input_shape"); s && !s->is_null()) {
    std::vector<int64_t> dims = int_list(*s, "batch_input_shape");
    TFCC_CHECK_ARG(!dims.empty(), "batch_input_shape is empty");
    a.input_shape.assign(dims.begin() + 1, dims.end());
  }
  return a;
}

std::vector<int64_t> int_list(const Json& value, std::string_view what) {
  std::vector<int64_t> out;
  for (const Json& v : value.items(what)) out.push_back(v.is_null() ? -1 : v.as_int(what));
  return out;
}

regularizers::Spec regularizer_from_config(const Json& value) {
  if (value.is_null()) return {};
  const std::string& cls = value.at("class_name", "regularizer").as_string("class_name");
  const Json& c = value.at("config", "regularizer");
  auto num = [&](const char* key, double fallback) {
    const Json* v = c.find(key);
    return v && !v->is_null() ? v->as_number(key) : fallback;
  };
  if (cls == "L1") return regularizers::L1(num("l1", 0.01));
  if (cls == "L2") return regularizers::L2(num("l2", 0.01));
  if (cls == "L1L2") return regularizers::L1L2(num("l1", 0.0), num("l2", 0.0));
  throw InvalidArgumentError(
      internal::str_cat("Unknown regularizer: '", cls, "' (known: L1, L2, L1L2)"));
}

DType dtype_from_name(const std::string& name) {
  for (int i = 0; i < kNumDTypes; ++i) {
    DType d = static_cast<DType>(i);
    if (dtype_name(d) == name) return d;
  }
  throw InvalidArgumentError(internal::str_cat("Unknown dtype '", name, "'"));
}

}  // namespace tfcc::keras::saving
