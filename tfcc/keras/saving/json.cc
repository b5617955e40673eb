// Json on nlohmann-json: the text is parsed and written by the library; this file converts
// between its values and Json's, and handles what Python's json module writes beyond JSON
// (bare NaN, Infinity, -Infinity).
#include "tfcc/keras/saving/json.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "tfcc/platform/errors.h"

namespace tfcc::keras::saving {
namespace {

using nlohmann::ordered_json;

constexpr int kMaxDepth = 100;

const char* type_name(Json::Type t) {
  switch (t) {
    case Json::Type::kNull:
      return "null";
    case Json::Type::kBool:
      return "a boolean";
    case Json::Type::kNumber:
      return "a number";
    case Json::Type::kString:
      return "a string";
    case Json::Type::kArray:
      return "an array";
    case Json::Type::kObject:
      return "an object";
  }
  return "?";
}

// Python's json writes non-finite floats as bare NaN / Infinity / -Infinity, which JSON (and
// nlohmann) rejects. Outside strings they are replaced by these strings before parsing and
// turned back into numbers after. (A config string equal to one of them would be read as the
// number; Keras configs hold none.)
constexpr const char* kNaN = "\\u0000tfcc:NaN";
constexpr const char* kInf = "\\u0000tfcc:Infinity";
constexpr const char* kNegInf = "\\u0000tfcc:-Infinity";

std::string replace_non_finite(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out.push_back(c);
      if (c == '\\' && i + 1 < text.size()) {
        out.push_back(text[++i]);
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    auto token = [&](std::string_view word, const char* with) {
      if (text.substr(i, word.size()) != word) return false;
      out.append("\"").append(with).append("\"");
      i += word.size() - 1;
      return true;
    };
    if (c == '"') in_string = true;
    if (token("NaN", kNaN) || token("Infinity", kInf) || token("-Infinity", kNegInf)) continue;
    out.push_back(c);
  }
  return out;
}

Json from_library(const ordered_json& j) {
  switch (j.type()) {
    case ordered_json::value_t::boolean:
      return Json(j.get<bool>());
    case ordered_json::value_t::number_integer:
      return Json(j.get<int64_t>());
    case ordered_json::value_t::number_unsigned: {
      const uint64_t v = j.get<uint64_t>();
      if (v <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return Json(static_cast<int64_t>(v));
      }
      return Json(static_cast<double>(v));
    }
    case ordered_json::value_t::number_float:
      return Json(j.get<double>());
    case ordered_json::value_t::string: {
      const std::string& s = j.get_ref<const std::string&>();
      if (!s.empty() && s[0] == '\0') {
        if (s == std::string_view("\0tfcc:NaN", 9)) {
          return Json(std::numeric_limits<double>::quiet_NaN());
        }
        if (s == std::string_view("\0tfcc:Infinity", 14)) {
          return Json(std::numeric_limits<double>::infinity());
        }
        if (s == std::string_view("\0tfcc:-Infinity", 15)) {
          return Json(-std::numeric_limits<double>::infinity());
        }
      }
      return Json(s);
    }
    case ordered_json::value_t::array: {
      Json out = Json::array();
      for (const auto& v : j) out.push(from_library(v));
      return out;
    }
    case ordered_json::value_t::object: {
      Json out = Json::object();
      for (const auto& [k, v] : j.items()) out.set(k, from_library(v));
      return out;
    }
    default:
      return Json();  // null (and discarded / binary values, which text parsing never makes)
  }
}

}  // namespace

Json Json::array() {
  Json j;
  j.type_ = Type::kArray;
  return j;
}

Json Json::object() {
  Json j;
  j.type_ = Type::kObject;
  return j;
}

#define TFCC_JSON_EXPECT(t)                                                          \
  TFCC_CHECK_ARG(type_ == (t), "Expected ", what, " to be ", type_name(t), ", got ", \
                 type_name(type_))

bool Json::as_bool(std::string_view what) const {
  TFCC_JSON_EXPECT(Type::kBool);
  return bool_;
}
double Json::as_number(std::string_view what) const {
  TFCC_JSON_EXPECT(Type::kNumber);
  return number_;
}
int64_t Json::as_int(std::string_view what) const {
  TFCC_JSON_EXPECT(Type::kNumber);
  TFCC_CHECK_ARG(is_int_, "Expected ", what, " to be an integer, got ", number_);
  return int_;
}
const std::string& Json::as_string(std::string_view what) const {
  TFCC_JSON_EXPECT(Type::kString);
  return string_;
}
const std::vector<Json>& Json::items(std::string_view what) const {
  TFCC_JSON_EXPECT(Type::kArray);
  return items_;
}
const std::vector<std::pair<std::string, Json>>& Json::members(std::string_view what) const {
  TFCC_JSON_EXPECT(Type::kObject);
  return members_;
}
#undef TFCC_JSON_EXPECT

Json& Json::push(Json v) {
  TFCC_CHECK_ARG(type_ == Type::kArray, "Json::push on ", type_name(type_));
  items_.push_back(std::move(v));
  return *this;
}

Json& Json::set(const std::string& key, Json v) {
  TFCC_CHECK_ARG(type_ == Type::kObject, "Json::set on ", type_name(type_));
  for (auto& [k, old] : members_) {
    if (k == key) {
      old = std::move(v);
      return *this;
    }
  }
  members_.emplace_back(key, std::move(v));
  return *this;
}

const Json* Json::find(const std::string& key) const {
  if (type_ != Type::kObject) return nullptr;
  for (const auto& [k, v] : members_) {
    if (k == key) return &v;
  }
  return nullptr;
}

const Json& Json::at(const std::string& key, std::string_view what) const {
  const Json* v = find(key);
  TFCC_CHECK_ARG(v != nullptr, "Missing key '", key, "' in ", what);
  return *v;
}

std::string Json::dump() const {
  std::string out;
  dump_to(out);
  return out;
}

// Arrays and objects with Python's ", " and ": " separators; scalars written by nlohmann-json,
// except non-finite numbers, written as Python does.
void Json::dump_to(std::string& out) const {
  switch (type_) {
    case Type::kNumber:
      if (is_int_) {
        out.append(ordered_json(int_).dump());
      } else if (std::isnan(number_)) {
        out.append("NaN");
      } else if (std::isinf(number_)) {
        out.append(number_ > 0 ? "Infinity" : "-Infinity");
      } else {
        out.append(ordered_json(number_).dump());
      }
      return;
    case Type::kArray:
      out.push_back('[');
      for (size_t i = 0; i < items_.size(); ++i) {
        if (i) out.append(", ");
        items_[i].dump_to(out);
      }
      out.push_back(']');
      return;
    case Type::kObject:
      out.push_back('{');
      for (size_t i = 0; i < members_.size(); ++i) {
        if (i) out.append(", ");
        out.append(ordered_json(members_[i].first)
                       .dump(-1, ' ', false, ordered_json::error_handler_t::replace));
        out.append(": ");
        members_[i].second.dump_to(out);
      }
      out.push_back('}');
      return;
    case Type::kNull:
      out.append("null");
      return;
    case Type::kBool:
      out.append(bool_ ? "true" : "false");
      return;
    case Type::kString:
      out.append(
          ordered_json(string_).dump(-1, ' ', false, ordered_json::error_handler_t::replace));
      return;
  }
}

Json Json::parse(std::string_view text, const std::string& source) {
  // Nesting is bounded while parsing (the callback sees each value's depth).
  auto limit_depth = [&](int depth, ordered_json::parse_event_t, ordered_json&) {
    TFCC_REQUIRE(DataLossError, depth <= kMaxDepth, source, ": JSON nested deeper than ", kMaxDepth,
                 " levels");
    return true;
  };
  try {
    return from_library(ordered_json::parse(replace_non_finite(text), limit_depth));
  } catch (const ordered_json::parse_error& e) {
    throw DataLossError(
        internal::str_cat(source, ": malformed JSON at offset ", e.byte, " (", e.what(), ")"));
  } catch (const ordered_json::exception& e) {
    throw DataLossError(internal::str_cat(source, ": malformed JSON (", e.what(), ")"));
  }
}

}  // namespace tfcc::keras::saving
