// A JSON value for Keras configs (to_json, config.json), parsed / written by nlohmann-json, with
// typed errors. Objects keep key order; NaN / Infinity / -Infinity bare, as Python's json. Python
// literals (get_config values: 'relu', True, None, (None, 8), {'l2': 0.01}) convert to JSON.
//
//   Json c = Json::object();
//   c.set("units", Json(int64_t{64}));
//   c.set("activation", Json("relu"));
//   std::string text = c.dump();                   // {"units": 64, "activation": "relu"}
//   Json back = Json::parse(text, "config.json");  // DataLossError on malformed text
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tfcc::keras::saving {

/// A JSON value: null, boolean, number, string, array or object.
class Json {
 public:
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject };

  Json() = default;  ///< null
  explicit Json(bool b) : type_(Type::kBool), bool_(b) {}
  explicit Json(double v) : type_(Type::kNumber), number_(v) {}
  explicit Json(int64_t v)
      : type_(Type::kNumber), number_(static_cast<double>(v)), int_(v), is_int_(true) {}
  explicit Json(std::string s) : type_(Type::kString), string_(std::move(s)) {}
  explicit Json(const char* s) : Json(std::string(s)) {}
  /// An empty array / object.
  static Json array();
  static Json object();

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::kNull; }
  /// The value; InvalidArgumentError naming `what` if the type differs.
  bool as_bool(std::string_view what = "value") const;
  double as_number(std::string_view what = "value") const;
  /// An integral number (InvalidArgumentError for 1.5).
  int64_t as_int(std::string_view what = "value") const;
  const std::string& as_string(std::string_view what = "value") const;
  const std::vector<Json>& items(std::string_view what = "value") const;
  const std::vector<std::pair<std::string, Json>>& members(std::string_view what = "value") const;

  /// Appends to an array.
  Json& push(Json v);
  /// Sets an object member (replacing one of the same key).
  Json& set(const std::string& key, Json v);
  /// The member `key` of an object, or nullptr.
  const Json* find(const std::string& key) const;
  /// The member `key`; InvalidArgumentError naming `what` and the key if absent.
  const Json& at(const std::string& key, std::string_view what = "config") const;

  /// Text with ", " and ": " separators (Python's json.dumps); infinities and NaN as
  /// Infinity / -Infinity / NaN, as Python writes them.
  std::string dump() const;
  /// Parses JSON (and bare NaN / Infinity / -Infinity); DataLossError naming `source` and the
  /// byte offset when malformed. Nesting deeper than 100 levels is rejected.
  static Json parse(std::string_view text, const std::string& source);
  /// Converts a Python literal (str, int, float, True/False/None, tuple, list, dict);
  /// InvalidArgumentError when it is not one.
  static Json from_python_literal(std::string_view text);

 private:
  void dump_to(std::string& out) const;

  Type type_ = Type::kNull;
  bool bool_ = false;
  double number_ = 0;
  int64_t int_ = 0;
  bool is_int_ = false;
  std::string string_;
  std::vector<Json> items_;
  std::vector<std::pair<std::string, Json>> members_;
};

}  // namespace tfcc::keras::saving
#pragma GCC visibility pop
