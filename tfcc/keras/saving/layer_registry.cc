#include "tfcc/keras/saving/layer_registry.h"

#include <map>
#include <mutex>

#include "tfcc/keras/engine/keras_tensor.h"
#include "tfcc/keras/layers/activation_layers.h"
#include "tfcc/keras/layers/attention.h"
#include "tfcc/keras/layers/conv.h"
#include "tfcc/keras/layers/core.h"
#include "tfcc/keras/layers/embedding.h"
#include "tfcc/keras/layers/merging.h"
#include "tfcc/keras/layers/normalization.h"
#include "tfcc/keras/layers/pooling.h"
#include "tfcc/keras/layers/rnn.h"

namespace tfcc::keras::saving {
namespace {

layers::IntOrTuple int_or_tuple(const Json& v, std::string_view what) {
  layers::IntOrTuple out = 1;
  out.values = int_list(v, what);
  return out;
}

std::optional<int64_t> optional_int(const Json& config, const std::string& key) {
  const Json* v = config.find(key);
  if (!v || v->is_null()) return std::nullopt;
  return v->as_int(key);
}

std::string str(const Json& config, const std::string& key, const std::string& fallback) {
  const Json* v = config.find(key);
  return v && !v->is_null() ? v->as_string(key) : fallback;
}

bool flag(const Json& config, const std::string& key, bool fallback) {
  const Json* v = config.find(key);
  return v && !v->is_null() ? v->as_bool(key) : fallback;
}

double num(const Json& config, const std::string& key, double fallback) {
  const Json* v = config.find(key);
  return v && !v->is_null() ? v->as_number(key) : fallback;
}

regularizers::Spec reg(const Json& config, const std::string& key) {
  const Json* v = config.find(key);
  return v ? regularizer_from_config(*v) : regularizers::Spec();
}

// The options a layer's config shares with others, filled from the config for whichever of
// these members the options struct has: the table of keys below, applied by `requires`.
template <typename Options>
Options common_options(const Json& c) {
  const LayerArgs a = layer_args_from_config(c);
  Options o;
  o.name = a.name;
  o.trainable = a.trainable;
  if constexpr (requires { o.input_shape; }) o.input_shape = a.input_shape;
  if constexpr (requires { o.dtype; }) o.dtype = a.dtype;
  if constexpr (requires { o.activation; }) o.activation = str(c, "activation", "linear");
  if constexpr (requires { o.use_bias; }) o.use_bias = flag(c, "use_bias", true);
  if constexpr (requires { o.padding; }) o.padding = str(c, "padding", "valid");
  if constexpr (requires { o.data_format; }) {
    o.data_format = str(c, "data_format", "channels_last");
  }
  if constexpr (requires { o.kernel_regularizer; })
    o.kernel_regularizer = reg(c, "kernel_regularizer");
  if constexpr (requires { o.bias_regularizer; }) o.bias_regularizer = reg(c, "bias_regularizer");
  if constexpr (requires { o.activity_regularizer; }) {
    o.activity_regularizer = reg(c, "activity_regularizer");
  }
  if constexpr (requires { o.strides; }) {
    if (const Json* v = c.find("strides"); v && !v->is_null()) {
      o.strides = int_or_tuple(*v, "strides");
    }
  }
  return o;
}

// SimpleRNN / LSTM / GRU (the cell's settings at the top level of their config) and the cells
// SimpleRNNCell / LSTMCell / GRUCell: `Options` is RecurrentOptions or RNNCellOptions.
template <typename Options>
Options recurrent_options(const Json& c, const char* default_recurrent_activation) {
  auto o = common_options<Options>(c);
  o.activation = str(c, "activation", "tanh");
  o.recurrent_activation = str(c, "recurrent_activation", default_recurrent_activation);
  o.unit_forget_bias = flag(c, "unit_forget_bias", true);
  o.reset_after = flag(c, "reset_after", true);
  o.recurrent_regularizer = reg(c, "recurrent_regularizer");
  if constexpr (requires { o.return_sequences; }) {
    o.return_sequences = flag(c, "return_sequences", false);
    o.return_state = flag(c, "return_state", false);
    o.go_backwards = flag(c, "go_backwards", false);
  }
  return o;
}

template <typename Recurrent, typename Options>
LayerFactory recurrent_factory(const char* default_recurrent_activation) {
  return [default_recurrent_activation](const Json& c) {
    return std::make_shared<Recurrent>(c.at("units").as_int("units"),
                                       recurrent_options<Options>(c, default_recurrent_activation));
  };
}

// A shape list whose None entries become -1 (EinsumDense / MultiHeadAttention output_shape).
std::vector<int64_t> shape_list(const Json& c, const std::string& key) {
  std::vector<int64_t> out;
  const Json* v = c.find(key);
  if (!v || v->is_null()) return out;
  if (v->type() != Json::Type::kArray) return {v->as_int(key)};
  for (const Json& d : v->items(key)) out.push_back(d.is_null() ? -1 : d.as_int(key));
  return out;
}

template <typename Map>
void add_attention_factories(Map& m) {
  m["EinsumDense"] = [](const Json& c) {
    auto o = common_options<layers::EinsumDense::Options>(c);
    o.bias_axes = str(c, "bias_axes", "");
    return std::make_shared<layers::EinsumDense>(c.at("equation").as_string("equation"),
                                                 shape_list(c, "output_shape"), o);
  };
  m["MultiHeadAttention"] = [](const Json& c) {
    auto o = common_options<layers::MultiHeadAttention::Options>(c);
    o.value_dim = optional_int(c, "value_dim").value_or(-1);
    o.dropout = num(c, "dropout", 0.0);
    o.output_shape = shape_list(c, "output_shape");
    o.attention_axes = shape_list(c, "attention_axes");
    o.seed = optional_int(c, "seed");
    return std::make_shared<layers::MultiHeadAttention>(c.at("num_heads").as_int("num_heads"),
                                                        c.at("key_dim").as_int("key_dim"), o);
  };
  auto attention = [](const Json& c, bool default_scale) {
    auto o = common_options<layers::AttentionOptions>(c);
    o.use_scale = flag(c, "use_scale", default_scale);
    o.score_mode = str(c, "score_mode", "dot");
    o.dropout = num(c, "dropout", 0.0);
    o.seed = optional_int(c, "seed");
    return o;
  };
  m["Attention"] = [attention](const Json& c) {
    return std::make_shared<layers::Attention>(attention(c, false));
  };
  m["AdditiveAttention"] = [attention](const Json& c) {
    return std::make_shared<layers::AdditiveAttention>(attention(c, true));
  };
}

// RNN(cell): the cell comes back through the registry (a registered custom cell works too).
std::shared_ptr<Layer> rnn_from_config(const Json& c) {
  auto o = common_options<layers::RNNOptions>(c);
  o.return_sequences = flag(c, "return_sequences", false);
  o.return_state = flag(c, "return_state", false);
  o.go_backwards = flag(c, "go_backwards", false);
  const Json& cell = c.at("cell");
  const std::string cls = cell.at("class_name").as_string("cell.class_name");
  auto rnn_cell =
      std::dynamic_pointer_cast<layers::RNNCell>(layer_from_config(cls, cell.at("config")));
  TFCC_CHECK_ARG(rnn_cell != nullptr, "RNN config: the cell '", cls,
                 "' is not a recurrent cell (a layers::RNNCell)");
  return std::make_shared<layers::RNN>(std::move(rnn_cell), o);
}

// The built-in layers' factories: the inverse of their get_config.
std::map<std::string, LayerFactory> builtins() {
  std::map<std::string, LayerFactory> m;
  m["InputLayer"] = [](const Json& c) {
    std::vector<int64_t> shape = int_list(c.at("batch_input_shape"), "batch_input_shape");
    TFCC_CHECK_ARG(!shape.empty(), "InputLayer config: batch_input_shape is empty");
    std::optional<int64_t> batch;
    if (shape[0] >= 0) batch = shape[0];
    return std::make_shared<InputLayer>(
        std::vector<int64_t>(shape.begin() + 1, shape.end()),
        InputLayer::Options{.name = str(c, "name", ""),
                            .batch_size = batch,
                            .dtype = dtype_from_name(str(c, "dtype", "float32"))});
  };
  m["Dense"] = [](const Json& c) {
    return std::make_shared<layers::Dense>(c.at("units").as_int("units"),
                                           common_options<layers::Dense::Options>(c));
  };
  m["Activation"] = [](const Json& c) {
    return std::make_shared<layers::Activation>(str(c, "activation", "linear"),
                                                layer_args_from_config(c));
  };
  m["Flatten"] = [](const Json& c) {
    return std::make_shared<layers::Flatten>(layer_args_from_config(c));
  };
  m["Reshape"] = [](const Json& c) {
    return std::make_shared<layers::Reshape>(int_list(c.at("target_shape"), "target_shape"),
                                             layer_args_from_config(c));
  };
  m["Dropout"] = [](const Json& c) {
    auto o = common_options<layers::Dropout::Options>(c);
    if (const Json* ns = c.find("noise_shape"); ns && !ns->is_null()) {
      o.noise_shape = int_list(*ns, "noise_shape");
    }
    o.seed = optional_int(c, "seed");
    return std::make_shared<layers::Dropout>(c.at("rate").as_number("rate"), o);
  };
  m["Conv2D"] = [](const Json& c) {
    auto o = common_options<layers::Conv2D::Options>(c);
    o.dilation_rate = int_or_tuple(c.at("dilation_rate"), "dilation_rate");
    o.groups = optional_int(c, "groups").value_or(1);
    return std::make_shared<layers::Conv2D>(c.at("filters").as_int("filters"),
                                            int_or_tuple(c.at("kernel_size"), "kernel_size"), o);
  };
  m["MaxPooling2D"] = [](const Json& c) {
    return std::make_shared<layers::MaxPooling2D>(int_or_tuple(c.at("pool_size"), "pool_size"),
                                                  common_options<layers::Pooling2DOptions>(c));
  };
  m["AveragePooling2D"] = [](const Json& c) {
    return std::make_shared<layers::AveragePooling2D>(int_or_tuple(c.at("pool_size"), "pool_size"),
                                                      common_options<layers::Pooling2DOptions>(c));
  };
  m["BatchNormalization"] = [](const Json& c) {
    auto o = common_options<layers::BatchNormalization::Options>(c);
    o.axis = optional_int(c, "axis").value_or(-1);
    o.momentum = num(c, "momentum", 0.99);
    o.epsilon = num(c, "epsilon", 1e-3);
    o.center = flag(c, "center", true);
    o.scale = flag(c, "scale", true);
    return std::make_shared<layers::BatchNormalization>(o);
  };
  m["Add"] = [](const Json& c) { return std::make_shared<layers::Add>(layer_args_from_config(c)); };
  m["Multiply"] = [](const Json& c) {
    return std::make_shared<layers::Multiply>(layer_args_from_config(c));
  };
  m["Concatenate"] = [](const Json& c) {
    auto o = common_options<layers::Concatenate::Options>(c);
    o.axis = optional_int(c, "axis").value_or(-1);
    return std::make_shared<layers::Concatenate>(o);
  };
  m["Conv1D"] = [](const Json& c) {
    auto o = common_options<layers::Conv1D::Options>(c);
    o.dilation_rate = int_or_tuple(c.at("dilation_rate"), "dilation_rate");
    o.groups = optional_int(c, "groups").value_or(1);
    std::vector<int64_t> k = int_list(c.at("kernel_size"), "kernel_size");
    TFCC_CHECK_ARG(k.size() == 1, "Conv1D config: kernel_size must hold one integer");
    return std::make_shared<layers::Conv1D>(c.at("filters").as_int("filters"), k[0], o);
  };
  m["Conv2DTranspose"] = [](const Json& c) {
    auto o = common_options<layers::Conv2DTranspose::Options>(c);
    o.dilation_rate = int_or_tuple(c.at("dilation_rate"), "dilation_rate");
    return std::make_shared<layers::Conv2DTranspose>(
        c.at("filters").as_int("filters"), int_or_tuple(c.at("kernel_size"), "kernel_size"), o);
  };
  m["DepthwiseConv2D"] = [](const Json& c) {
    auto o = common_options<layers::DepthwiseConv2D::Options>(c);
    o.dilation_rate = int_or_tuple(c.at("dilation_rate"), "dilation_rate");
    o.depth_multiplier = optional_int(c, "depth_multiplier").value_or(1);
    o.depthwise_regularizer = reg(c, "depthwise_regularizer");
    o.bias_regularizer = reg(c, "bias_regularizer");
    o.activity_regularizer = reg(c, "activity_regularizer");
    return std::make_shared<layers::DepthwiseConv2D>(
        int_or_tuple(c.at("kernel_size"), "kernel_size"), o);
  };
  m["ZeroPadding2D"] = [](const Json& c) {
    const auto& sides = c.at("padding").items("padding");
    TFCC_CHECK_ARG(sides.size() == 2, "ZeroPadding2D config: padding must hold two pairs");
    return std::make_shared<layers::ZeroPadding2D>(
        std::vector<std::vector<int64_t>>{int_list(sides[0], "padding"),
                                          int_list(sides[1], "padding")},
        layer_args_from_config(c));
  };
  m["GlobalAveragePooling2D"] = [](const Json& c) {
    auto o = common_options<layers::GlobalPooling2DOptions>(c);
    o.keepdims = flag(c, "keepdims", false);
    return std::make_shared<layers::GlobalAveragePooling2D>(o);
  };
  m["GlobalMaxPooling2D"] = [](const Json& c) {
    auto o = common_options<layers::GlobalPooling2DOptions>(c);
    o.keepdims = flag(c, "keepdims", false);
    return std::make_shared<layers::GlobalMaxPooling2D>(o);
  };
  m["LayerNormalization"] = [](const Json& c) {
    auto o = common_options<layers::LayerNormalization::Options>(c);
    // Keras 3 writes the axis as a list ([-1]); tfcc normalises over one axis.
    const std::vector<int64_t> axes = shape_list(c, "axis");
    TFCC_CHECK_ARG(axes.size() <= 1, "LayerNormalization over several axes ", "(config axis has ",
                   axes.size(), ") is not supported");
    o.axis = axes.empty() ? -1 : axes[0];
    o.epsilon = num(c, "epsilon", 1e-3);
    o.center = flag(c, "center", true);
    o.scale = flag(c, "scale", true);
    return std::make_shared<layers::LayerNormalization>(o);
  };
  m["ReLU"] = [](const Json& c) {
    auto o = common_options<layers::ReLU::Options>(c);
    if (const Json* v = c.find("max_value"); v && !v->is_null()) {
      o.max_value = v->as_number("max_value");
    }
    o.negative_slope = num(c, "negative_slope", 0.0);
    o.threshold = num(c, "threshold", 0.0);
    return std::make_shared<layers::ReLU>(o);
  };
  m["Softmax"] = [](const Json& c) {
    auto o = common_options<layers::Softmax::Options>(c);
    o.axis = optional_int(c, "axis").value_or(-1);
    return std::make_shared<layers::Softmax>(o);
  };
  m["Embedding"] = [](const Json& c) {
    auto o = common_options<layers::Embedding::Options>(c);
    o.embeddings_regularizer = reg(c, "embeddings_regularizer");
    return std::make_shared<layers::Embedding>(c.at("input_dim").as_int("input_dim"),
                                               c.at("output_dim").as_int("output_dim"), o);
  };
  using layers::RecurrentOptions, layers::RNNCellOptions;
  m["SimpleRNN"] = recurrent_factory<layers::SimpleRNN, RecurrentOptions>("tanh");
  m["LSTM"] = recurrent_factory<layers::LSTM, RecurrentOptions>("sigmoid");
  m["GRU"] = recurrent_factory<layers::GRU, RecurrentOptions>("sigmoid");
  m["SimpleRNNCell"] = recurrent_factory<layers::SimpleRNNCell, RNNCellOptions>("tanh");
  m["LSTMCell"] = recurrent_factory<layers::LSTMCell, RNNCellOptions>("sigmoid");
  m["GRUCell"] = recurrent_factory<layers::GRUCell, RNNCellOptions>("sigmoid");
  m["RNN"] = rnn_from_config;
  add_attention_factories(m);
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
  a.name = str(config, "name", "");
  a.trainable = flag(config, "trainable", true);
  a.dtype = dtype_from_name(str(config, "dtype", "float32"));
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
  if (cls == "L1") return regularizers::L1(num(c, "l1", 0.01));
  if (cls == "L2") return regularizers::L2(num(c, "l2", 0.01));
  if (cls == "L1L2") return regularizers::L1L2(num(c, "l1", 0.0), num(c, "l2", 0.0));
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
