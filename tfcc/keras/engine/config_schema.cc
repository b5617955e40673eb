#include "tfcc/keras/engine/config_schema.h"

#include "tfcc/keras/saving/layer_registry.h"

namespace tfcc::keras::config {

void Codec<bool>::read(const Json& v, bool& out, std::string_view what) {
  if (!v.is_null()) out = v.as_bool(what);
}

void Codec<int64_t>::read(const Json& v, int64_t& out, std::string_view what) {
  if (!v.is_null()) out = v.as_int(what);
}

void Codec<double>::read(const Json& v, double& out, std::string_view what) {
  if (!v.is_null()) out = v.as_number(what);
}

void Codec<std::string>::read(const Json& v, std::string& out, std::string_view what) {
  if (!v.is_null()) out = v.as_string(what);
}

void Codec<std::vector<int64_t>>::read(const Json& v, std::vector<int64_t>& out,
                                       std::string_view what) {
  if (v.is_null()) return;
  // Keras accepts a single int for a tuple argument (kernel_size=3).
  out = v.type() == Json::Type::kNumber ? std::vector<int64_t>{v.as_int(what)}
                                        : saving::int_list(v, what);
}

std::string Codec<std::vector<std::vector<int64_t>>>::repr(
    const std::vector<std::vector<int64_t>>& v) {
  std::string out = "(";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out.append(", ");
    out.append(config::repr(v[i]));
  }
  if (v.size() == 1) out.append(",");
  return out.append(")");
}

void Codec<std::vector<std::vector<int64_t>>>::read(const Json& v,
                                                    std::vector<std::vector<int64_t>>& out,
                                                    std::string_view what) {
  if (v.is_null()) return;
  out.clear();
  for (const Json& item : v.items(what)) out.push_back(saving::int_list(item, what));
}

void Codec<activations::Activation>::read(const Json& v, activations::Activation& out,
                                          std::string_view what) {
  if (v.is_null()) return;
  if (v.type() == Json::Type::kObject) {
    // Keras 3 serializes a custom activation function as an object; built-ins by name.
    out = activations::get(v.at("config", what).as_string(what));
    return;
  }
  out = activations::get(v.as_string(what));
}

void Codec<initializers::Spec>::read(const Json& v, initializers::Spec& out,
                                     std::string_view what) {
  if (v.is_null()) return;
  if (v.type() == Json::Type::kObject) {
    // Keras 3: {"module", "class_name": "GlorotUniform", "config": {"seed": null}, ...}. The
    // class is kept; arguments beyond Keras' defaults are not read.
    out = initializers::get(v.at("class_name", what).as_string(what));
    return;
  }
  out = initializers::get(v.as_string(what));
}

void Codec<regularizers::Spec>::read(const Json& v, regularizers::Spec& out, std::string_view) {
  out = saving::regularizer_from_config(v);
}

std::string NoneIfEmpty::repr(const std::vector<int64_t>& v) {
  return v.empty() ? "None" : config::repr(v);
}

void NoneIfEmpty::read(const Json& v, std::vector<int64_t>& out, std::string_view what) {
  if (v.is_null()) {
    out.clear();
    return;
  }
  Codec<std::vector<int64_t>>::read(v, out, what);
}

std::string Ints::repr(const std::vector<int64_t>& v) {
  std::string out = "(";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out.append(", ");
    out.append(std::to_string(v[i]));
  }
  if (v.size() == 1) out.append(",");
  return out.append(")");
}

void Ints::read(const Json& v, std::vector<int64_t>& out, std::string_view what) {
  Codec<std::vector<int64_t>>::read(v, out, what);
}

std::string OneTuple::repr(int64_t v) { return config::repr(std::vector<int64_t>{v}); }

void OneTuple::read(const Json& v, int64_t& out, std::string_view what) {
  if (v.is_null()) return;
  if (v.type() == Json::Type::kNumber) {
    out = v.as_int(what);
    return;
  }
  std::vector<int64_t> values = saving::int_list(v, what);
  TFCC_CHECK_ARG(values.size() == 1, "Config key '", what, "' must hold one integer, got ",
                 config::repr(values));
  out = values[0];
}

void LayerSchema::append_config(const Layer& layer, Config& config) const {
  for (const auto& [key, write] : writers_) config.emplace_back(key, write(layer));
}

std::vector<std::string> LayerSchema::keys() const {
  std::vector<std::string> out;
  for (const auto& [key, write] : writers_) out.push_back(key);
  return out;
}

std::shared_ptr<Layer> from_config(const LayerSchema& schema, const Json& config) {
  return schema.from_config(config);
}

namespace schema_detail {
LayerArgs layer_args(const Json& config) { return saving::layer_args_from_config(config); }
}  // namespace schema_detail

}  // namespace tfcc::keras::config
