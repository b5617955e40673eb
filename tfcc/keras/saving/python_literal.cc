// Python literals (the values of Layer::get_config: 'relu', True, None, (None, 8), 1e-07,
// {'l2': 0.01}) turned into JSON values. JSON text itself goes through nlohmann-json (json.cc);
// this parser reads only Python's syntax. (The `.npy` header, also a Python literal, has its
// own strict parser in tfcc/io/npy: it accepts exactly NumPy's three keys.)
#include <cerrno>
#include <cstdlib>
#include <limits>

#include "tfcc/keras/saving/json.h"
#include "tfcc/platform/errors.h"

namespace tfcc::keras::saving {
namespace {

constexpr int kMaxDepth = 100;

// A recursive-descent parser of the Python literals get_config values are written in.
class Parser {
 public:
  Parser(std::string_view text, std::string source) : s_(text), source_(std::move(source)) {}

  Json parse_document() {
    Json v = value(0);
    skip_ws();
    if (pos_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InvalidArgumentError(internal::str_cat(source_, ": ", what, " at offset ", pos_));
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
    if (c == '"' || c == '\'') return Json(string());
    if (c == '[' || c == '(') return sequence(depth, c == '[' ? ']' : ')');
    if (c == '{') return object(depth);
    if (consume("True")) return Json(true);
    if (consume("False")) return Json(false);
    if (consume("None")) return Json();
    if (consume("inf")) return Json(std::numeric_limits<double>::infinity());
    if (consume("nan")) return Json(std::numeric_limits<double>::quiet_NaN());
    return number();
  }

  Json number() {
    const size_t start = pos_;
    if (pos_ < s_.size() && (s_[pos_] == '-' || s_[pos_] == '+')) ++pos_;
    if (consume("inf")) {
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
      if (pos_ < s_.size() && s_[pos_] == close) {  // (8,)
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
      if (pos_ >= s_.size() || !(s_[pos_] == '"' || s_[pos_] == '\'')) {
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
  size_t pos_ = 0;
};

}  // namespace

Json Json::from_python_literal(std::string_view text) {
  return Parser(text, internal::str_cat("Python literal `", text, "`")).parse_document();
}

}  // namespace tfcc::keras::saving
