#include "tfcc/keras/saving/json.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "tfcc/keras/engine/layer.h"
#include "tfcc/platform/errors.h"

namespace tfcc::keras::saving {
namespace {

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

// One recursive-descent parser for JSON and for Python literals (`python`).
class Parser {
 public:
  Parser(std::string_view text, std::string source, bool python)
      : s_(text), source_(std::move(source)), python_(python) {}

  Json parse_document() {
    Json v = value(0);
    skip_ws();
    if (pos_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    std::string msg = internal::str_cat(source_, ": ", what, " at offset ", pos_);
    if (python_) throw InvalidArgumentError(msg);
    throw DataLossError(msg);
  }
  void skip_ws() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool consume(std::string_view word) {
    if (s_.substr(pos_, word.size()) == word) {
      pos_ += word.size();
      return true;
    }
    return false;
  }

  Json value(int depth) {
    if (depth > kMaxDepth) fail("nesting too deep");
    skip_ws();
    if (pos_ >= s_.size()) fail("unexpected end");
    const char c = s_[pos_];
    if (c == '"' || (python_ && c == '\'')) return Json(string());
    if (c == '[' || (python_ && c == '(')) return sequence(depth, c == '[' ? ']' : ')');
    if (c == '{') return object(depth);
    if (python_) {
      if (consume("True")) return Json(true);
      if (consume("False")) return Json(false);
      if (consume("None")) return Json();
      if (consume("inf")) return Json(std::numeric_limits<double>::infinity());
      if (consume("nan")) return Json(std::numeric_limits<double>::quiet_NaN());
    } else {
      if (consume("true")) return Json(true);
      if (consume("false")) return Json(false);
      if (consume("null")) return Json();
      if (consume("Infinity")) return Json(std::numeric_limits<double>::infinity());
      if (consume("-Infinity")) return Json(-std::numeric_limits<double>::infinity());
      if (consume("NaN")) return Json(std::numeric_limits<double>::quiet_NaN());
    }
    return number();
  }

  Json number() {
    const size_t start = pos_;
    if (pos_ < s_.size() && (s_[pos_] == '-' || s_[pos_] == '+')) ++pos_;
    if (python_ && consume("inf")) {
      return Json(s_[start] == '-' ? -std::numeric_limits<double>::infinity()
                                   : std::numeric_limits<double>::infinity());
    }
    bool integral = true;
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (c >= '0' && c <= '9') {
      } else if (c == '.' || c == 'e' || c == 'E' ||
                 ((c == '-' || c == '+') && (s_[pos_ - 1] == 'e' || s_[pos_ - 1] == 'E'))) {
        integral = false;
      } else {
        break;
      }
      ++pos_;
    }
    std::string text(s_.substr(start, pos_ - start));
    if (text.empty() || text == "-" || text == "+") fail("expected a value");
    char* end = nullptr;
    if (integral) {
      errno = 0;
      long long v = std::strtoll(text.c_str(), &end, 10);
      if (errno == 0 && end == text.c_str() + text.size()) return Json(static_cast<int64_t>(v));
    }
    double d = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) fail("malformed number '" + text + "'");
    return Json(d);
  }

  std::string string() {
    const char quote = s_[pos_++];
    std::string out;
    while (true) {
      if (pos_ >= s_.size()) fail("unterminated string");
      char c = s_[pos_++];
      if (c == quote) return out;
      if (c != '\\') {
        if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
        out.push_back(c);
        continue;
      }
      if (pos_ >= s_.size()) fail("unterminated escape");
      c = s_[pos_++];
      switch (c) {
        case 'n':
          out.push_back('\n');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'u': {
          if (pos_ + 4 > s_.size()) fail("truncated \\u escape");
          unsigned v = 0;
          for (int i = 0; i < 4; ++i) {
            char h = s_[pos_++];
            v <<= 4;
            if (h >= '0' && h <= '9')
              v |= unsigned(h - '0');
            else if (h >= 'a' && h <= 'f')
              v |= unsigned(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F')
              v |= unsigned(h - 'A' + 10);
            else
              fail("bad \\u escape");
          }
          // UTF-8 encode (surrogate pairs are kept as two code units; configs are ASCII).
          if (v < 0x80) {
            out.push_back(static_cast<char>(v));
          } else if (v < 0x800) {
            out.push_back(static_cast<char>(0xC0 | (v >> 6)));
            out.push_back(static_cast<char>(0x80 | (v & 0x3F)));
          } else {
            out.push_back(static_cast<char>(0xE0 | (v >> 12)));
            out.push_back(static_cast<char>(0x80 | ((v >> 6) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | (v & 0x3F)));
          }
          break;
        }
        default:
          out.push_back(c);  // \" \\ \/ \'
      }
    }
  }

  Json sequence(int depth, char close) {
    ++pos_;
    Json out = Json::array();
    skip_ws();
    if (pos_ < s_.size() && s_[pos_] == close) {
      ++pos_;
      return out;
    }
    while (true) {
      out.push(value(depth + 1));
      skip_ws();
      if (pos_ >= s_.size()) fail("unterminated array");
      if (s_[pos_] == close) {
        ++pos_;
        return out;
      }
      if (s_[pos_] != ',') fail("expected ',' in an array");
      ++pos_;
      skip_ws();
      if (python_ && pos_ < s_.size() && s_[pos_] == close) {  // (8,)
        ++pos_;
        return out;
      }
    }
  }

  Json object(int depth) {
    ++pos_;
    Json out = Json::object();
    skip_ws();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      return out;
    }
    while (true) {
      skip_ws();
      if (pos_ >= s_.size() || !(s_[pos_] == '"' || (python_ && s_[pos_] == '\''))) {
        fail("expected a string key");
      }
      std::string key = string();
      skip_ws();
      if (pos_ >= s_.size() || s_[pos_] != ':') fail("expected ':'");
      ++pos_;
      out.set(key, value(depth + 1));
      skip_ws();
      if (pos_ >= s_.size()) fail("unterminated object");
      if (s_[pos_] == '}') {
        ++pos_;
        return out;
      }
      if (s_[pos_] != ',') fail("expected ',' in an object");
      ++pos_;
    }
  }

  std::string_view s_;
  std::string source_;
  bool python_;
  size_t pos_ = 0;
};

void dump_string(const std::string& s, std::string& out) {
  out.push_back('"');
  for (char c : s) {
    switch (c) {
      case '"':
        out.append("\\\"");
        break;
      case '\\':
        out.append("\\\\");
        break;
      case '\n':
        out.append("\\n");
        break;
      case '\t':
        out.append("\\t");
        break;
      case '\r':
        out.append("\\r");
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          out.append(buf);
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
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

void Json::dump_to(std::string& out) const {
  switch (type_) {
    case Type::kNull:
      out.append("null");
      return;
    case Type::kBool:
      out.append(bool_ ? "true" : "false");
      return;
    case Type::kNumber:
      if (is_int_) {
        out.append(std::to_string(int_));
      } else if (std::isnan(number_)) {
        out.append("NaN");
      } else if (std::isinf(number_)) {
        out.append(number_ > 0 ? "Infinity" : "-Infinity");
      } else {
        out.append(config::repr(number_));
      }
      return;
    case Type::kString:
      dump_string(string_, out);
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
        dump_string(members_[i].first, out);
        out.append(": ");
        members_[i].second.dump_to(out);
      }
      out.push_back('}');
      return;
  }
}

Json Json::parse(std::string_view text, const std::string& source) {
  return Parser(text, source, false).parse_document();
}

Json Json::from_python_literal(std::string_view text) {
  return Parser(text, internal::str_cat("Python literal `", text, "`"), true).parse_document();
}

}  // namespace tfcc::keras::saving
