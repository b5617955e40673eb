// Internal: reading and writing the values of metric configs (get_config / serialization.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tfcc/keras/saving/json.h"

namespace tfcc::keras::metrics::config_util {

using saving::Json;

/// None for an empty list, the number for one value, else the list (Keras' `thresholds`).
inline Json numbers_or_none(const std::vector<double>& v) {
  if (v.empty()) return Json();
  if (v.size() == 1) return Json(v[0]);
  Json out = Json::array();
  for (double x : v) out.push(Json(x));
  return out;
}
/// A list of integers.
inline Json ints(const std::vector<int64_t>& v) {
  Json out = Json::array();
  for (int64_t x : v) out.push(Json(x));
  return out;
}
/// The value or None.
template <typename T>
Json optional(const std::optional<T>& v) {
  return v ? Json(*v) : Json();
}

/// `key` of `c` as a list of numbers (a single number is a list of one); absent or None: `def`.
inline std::vector<double> read_numbers(const Json& c, const std::string& key,
                                        std::vector<double> def = {}) {
  const Json* v = c.find(key);
  if (v == nullptr || v->is_null()) return def;
  if (v->type() == Json::Type::kNumber) return {v->as_number(key)};
  std::vector<double> out;
  for (const Json& x : v->items(key)) out.push_back(x.as_number(key));
  return out;
}
/// `key` of `c` as a list of integers.
inline std::vector<int64_t> read_ints(const Json& c, const std::string& key) {
  std::vector<int64_t> out;
  for (const Json& x : c.at(key).items(key)) out.push_back(x.as_int(key));
  return out;
}
/// `key` of `c` as a number; absent or None: `def`.
inline double read_number(const Json& c, const std::string& key, double def) {
  const Json* v = c.find(key);
  return v == nullptr || v->is_null() ? def : v->as_number(key);
}
/// `key` of `c` as an integer; absent or None: nullopt.
inline std::optional<int64_t> read_optional_int(const Json& c, const std::string& key) {
  const Json* v = c.find(key);
  if (v == nullptr || v->is_null()) return std::nullopt;
  return v->as_int(key);
}
/// `key` of `c` as a number; absent or None: nullopt.
inline std::optional<double> read_optional_number(const Json& c, const std::string& key) {
  const Json* v = c.find(key);
  if (v == nullptr || v->is_null()) return std::nullopt;
  return v->as_number(key);
}
/// `key` of `c` as a bool; absent or None: `def`.
inline bool read_bool(const Json& c, const std::string& key, bool def) {
  const Json* v = c.find(key);
  return v == nullptr || v->is_null() ? def : v->as_bool(key);
}
/// `key` of `c` as a string; absent or None: nullopt.
inline std::optional<std::string> read_optional_string(const Json& c, const std::string& key) {
  const Json* v = c.find(key);
  if (v == nullptr || v->is_null()) return std::nullopt;
  return v->as_string(key);
}

}  // namespace tfcc::keras::metrics::config_util
