#include "tfcc/keras/callbacks/python_repr.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

namespace tfcc::keras::callbacks {
namespace {

// Lays out shortest scientific digits ("d.ddde[+-]x") the way Python's float_repr_style does.
std::string layout(const char* sci, size_t n) {
  std::string s(sci, n);
  bool negative = !s.empty() && s[0] == '-';
  if (negative) s.erase(0, 1);
  size_t e = s.find('e');
  std::string mantissa = s.substr(0, e);
  int exponent = std::atoi(s.c_str() + e + 1);
  std::string digits;
  for (char c : mantissa) {
    if (c != '.') digits.push_back(c);
  }
  std::string out;
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) {
      out = "0.";
      out.append(static_cast<size_t>(-exponent - 1), '0');
      out += digits;
    } else {
      auto point = static_cast<size_t>(exponent) + 1;
      if (digits.size() <= point) {
        out = digits;
        out.append(point - digits.size(), '0');
        out += ".0";
      } else {
        out.assign(digits, 0, point);
        out += '.';
        out.append(digits, point, std::string::npos);
      }
    }
  } else {
    out = digits.substr(0, 1);
    if (digits.size() > 1) {
      out += '.';
      out.append(digits, 1, std::string::npos);
    }
    out += exponent < 0 ? "e-" : "e+";
    int a = std::abs(exponent);
    if (a < 10) out += "0";
    out += std::to_string(a);
  }
  return negative ? "-" + out : out;
}

template <typename T>
std::string repr(T x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  if (x == 0) return std::signbit(x) ? "-0.0" : "0.0";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof(buf), x, std::chars_format::scientific);
  return layout(buf, static_cast<size_t>(r.ptr - buf));
}

}  // namespace

std::string python_float_repr(double x) { return repr(x); }
std::string python_float32_repr(float x) { return repr(x); }

}  // namespace tfcc::keras::callbacks
