// Printing tensors the way TensorFlow does: NumPy's str() of the values inside
// "tf.Tensor(..., shape=..., dtype=...)". NumPy's rules, reproduced: floats use the shortest
// representation that round-trips, at most 8 fractional digits, trailing zeros trimmed to "1.",
// and are padded so decimal points line up; scientific notation when the largest magnitude is
// >= 1e8, the smallest non-zero one < 1e-4, or their ratio > 1e3; tensors over 1000 elements show
// 3 items at each edge of every axis around "..."; lines wrap at 75 columns.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include "tfcc/core/tensor.h"

namespace tfcc {
namespace {

constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
constexpr size_t kLineWidth = 75;
constexpr int kPrecision = 8;

// The indices shown along an axis of size n (-1 marks the "..." gap).
std::vector<int64_t> shown_indices(int64_t n, bool summarize) {
  std::vector<int64_t> idx;
  if (summarize && n > 2 * kEdgeItems) {
    for (int64_t i = 0; i < kEdgeItems; ++i) idx.push_back(i);
    idx.push_back(-1);
    for (int64_t i = n - kEdgeItems; i < n; ++i) idx.push_back(i);
  } else {
    for (int64_t i = 0; i < n; ++i) idx.push_back(i);
  }
  return idx;
}

template <typename F>
std::string shortest(F v, std::chars_format fmt) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v, fmt);
  return std::string(buf, res.ptr);
}

template <typename F>
std::string fixed_precision(F v, std::chars_format fmt, int precision) {
  char buf[400];
  auto res = std::to_chars(buf, buf + sizeof buf, v, fmt, precision);
  return std::string(buf, res.ptr);
}

// Splits "12.5" / "1.5e-05" into integer part, fraction digits and exponent (without 'e').
struct Parts {
  std::string int_part, frac, exp;
};

Parts split_number(std::string s) {
  Parts p;
  auto e = s.find('e');
  if (e != std::string::npos) {
    p.exp = s.substr(e + 1);
    s = s.substr(0, e);
  }
  auto dot = s.find('.');
  if (dot == std::string::npos) {
    p.int_part = s;
  } else {
    p.int_part = s.substr(0, dot);
    p.frac = s.substr(dot + 1);
  }
  while (!p.frac.empty() && p.frac.back() == '0') p.frac.pop_back();
  return p;
}

template <typename F>
Parts float_parts(F v, bool scientific) {
  auto fmt = scientific ? std::chars_format::scientific : std::chars_format::fixed;
  Parts p = split_number(shortest(v, fmt));
  if (static_cast<int>(p.frac.size()) > kPrecision) {
    p = split_number(fixed_precision(v, fmt, kPrecision));
  }
  return p;
}

// Python's repr() of a bytes object: b'ab', b"it's", b'\xc3\xa9'.
std::string bytes_repr(std::string_view v) {
  bool single = v.find('\'') != std::string_view::npos && v.find('"') == std::string_view::npos;
  char quote = single ? '"' : '\'';
  std::string out = "b";
  out += quote;
  static const char kHex[] = "0123456789abcdef";
  for (unsigned char c : v) {
    if (c == '\\' || c == static_cast<unsigned char>(quote)) {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c >= 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  out += quote;
  return out;
}

// Formats every shown element to equal width, NumPy style (strings: unpadded, as NumPy prints
// object arrays).
class ElementFormatter {
 public:
  void prepare_strings(const std::vector<std::string_view>& vals) {
    for (std::string_view v : vals) strs_.push_back(bytes_repr(v));
  }

  template <typename T>
  void prepare(const std::vector<T>& vals) {
    if constexpr (std::is_same_v<T, bool>) {
      bool any_false = std::find(vals.begin(), vals.end(), false) != vals.end();
      width_ = any_false ? 5 : 4;
      for (bool b : vals) strs_.push_back(pad_left(b ? "True" : "False", width_));
    } else if constexpr (std::is_floating_point_v<T>) {
      prepare_float(vals);
    } else {
      for (T v : vals) strs_.push_back(std::to_string(static_cast<int64_t>(v)));
      for (auto& s : strs_) width_ = std::max(width_, s.size());
      for (auto& s : strs_) s = pad_left(s, width_);
    }
  }
  const std::string& str(size_t i) const { return strs_[i]; }

 private:
  static std::string pad_left(const std::string& s, size_t w) {
    return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
  }

  template <typename F>
  void prepare_float(const std::vector<F>& vals) {
    double max_val = 0, min_val = INFINITY;
    bool any_finite_nonzero = false;
    for (F v : vals) {
      double a = std::fabs(static_cast<double>(v));
      if (std::isfinite(a) && a != 0) {
        any_finite_nonzero = true;
        max_val = std::max(max_val, a);
        min_val = std::min(min_val, a);
      }
    }
    bool sci = any_finite_nonzero && (max_val >= 1e8 || min_val < 1e-4 || max_val / min_val > 1e3);
    std::vector<Parts> parts(vals.size());
    size_t pad_int = 0, pad_frac = 0, pad_exp = 2;
    for (size_t i = 0; i < vals.size(); ++i) {
      if (!std::isfinite(vals[i])) continue;
      parts[i] = float_parts(vals[i], sci);
      pad_int = std::max(pad_int, parts[i].int_part.size());
      pad_frac = std::max(pad_frac, parts[i].frac.size());
      if (sci) {
        std::string digits = parts[i].exp.substr(1);
        while (digits.size() > 2 && digits[0] == '0') digits.erase(0, 1);
        parts[i].exp = parts[i].exp.substr(0, 1) + digits;
        pad_exp = std::max(pad_exp, digits.size());
      }
    }
    for (size_t i = 0; i < vals.size(); ++i) {
      F v = vals[i];
      std::string s;
      if (std::isnan(v)) {
        s = "nan";
      } else if (std::isinf(v)) {
        s = v < 0 ? "-inf" : "inf";
      } else {
        const Parts& p = parts[i];
        s = pad_left(p.int_part, pad_int) + "." + p.frac +
            std::string(pad_frac - p.frac.size(), ' ');
        if (sci) {
          std::string digits = p.exp.substr(1);
          s += "e" + p.exp.substr(0, 1) + std::string(pad_exp - digits.size(), '0') + digits;
        }
      }
      strs_.push_back(s);
    }
    for (auto& s : strs_) width_ = std::max(width_, s.size());
    for (auto& s : strs_) s = pad_left(s, width_);
  }

  std::vector<std::string> strs_;
  size_t width_ = 0;
};

class Printer {
 public:
  Printer(const Tensor& t) : t_(t), dims_(t.shape().dims()) {
    summarize_ = t.num_elements() > kThreshold;
    strides_.assign(dims_.size(), 1);
    for (int i = static_cast<int>(dims_.size()) - 2; i >= 0; --i) {
      strides_[i] = strides_[i + 1] * dims_[i + 1];
    }
  }

  std::string run() {
    if (t_.num_elements() == 0 && !dims_.empty()) return empty_string();
    collect(0, 0);
    if (t_.dtype() == DType::kString) {
      const TString* data = t_.data<TString>();
      std::vector<std::string_view> vals;
      for (int64_t off : offsets_) vals.push_back(data[off].view());
      fmt_.prepare_strings(vals);
    } else {
      prepare_numbers();
    }
    if (dims_.empty()) return scalar_string();
    next_ = 0;
    std::string out;
    format(0, 0, " ", &out);
    return out;
  }

 private:
  void prepare_numbers() {
    visit_dtype(t_.dtype(), [&]<typename T>() {
      const T* data = static_cast<const T*>(t_.raw_data());
      if constexpr (std::is_same_v<T, BFloat16>) {
        std::vector<float> vals;
        for (int64_t off : offsets_) vals.push_back(static_cast<float>(data[off]));
        fmt_.prepare(vals);
      } else {
        std::vector<T> vals;
        for (int64_t off : offsets_) vals.push_back(data[off]);
        fmt_.prepare(vals);
      }
    });
  }

  // A rank-0 tensor prints like a Python/NumPy scalar: 10.0 (not "10."), 1e-05, nan.
  std::string scalar_string() const {
    if (t_.dtype() == DType::kString) return fmt_.str(0);
    if (!is_floating(t_.dtype())) {
      std::string s = fmt_.str(0);
      return s.substr(s.find_first_not_of(' '));
    }
    double v =
        t_.dtype() == float64 ? *static_cast<const double*>(t_.raw_data()) : t_.item<double>();
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    auto shortest_of = [&](std::chars_format f) {
      return t_.dtype() == float64 ? shortest(v, f) : shortest(static_cast<float>(v), f);
    };
    std::string sci = shortest_of(std::chars_format::scientific);
    int exp10 = std::stoi(sci.substr(sci.find('e') + 1));
    if (exp10 < -4 || exp10 >= 16) return sci;
    std::string fixed = shortest_of(std::chars_format::fixed);
    if (fixed.find('.') == std::string::npos) fixed += ".0";
    return fixed;
  }

  std::string empty_string() const {
    // NumPy prints an empty array as [] (nested for higher ranks with leading non-zero dims).
    std::string open, close;
    for (size_t i = 0; i < dims_.size(); ++i) {
      open += "[";
      close += "]";
      if (dims_[i] == 0) break;
    }
    return open + close;
  }

  void collect(size_t axis, int64_t base) {
    if (axis == dims_.size()) {
      offsets_.push_back(base);
      return;
    }
    for (int64_t i : shown_indices(dims_[axis], summarize_)) {
      if (i >= 0) collect(axis + 1, base + i * strides_[axis]);
    }
  }

  // Appends axis `axis` (0 = outermost) to *out; `indent` is the hanging indent for wrapped lines.
  void format(size_t axis, int64_t, const std::string& indent, std::string* out) {
    size_t axes_left = dims_.size() - axis;
    auto idx = shown_indices(dims_[axis], summarize_);
    *out += "[";
    if (axes_left == 1) {
      size_t line_start = out->rfind('\n');
      line_start = line_start == std::string::npos ? 0 : line_start + 1;
      for (size_t k = 0; k < idx.size(); ++k) {
        std::string word = idx[k] < 0 ? "..." : fmt_.str(next_++);
        if (k > 0) {
          size_t line_len = out->size() - line_start;
          if (line_len + 1 + word.size() + 1 > kLineWidth) {
            *out += "\n" + indent;
            line_start = out->size() - indent.size();
          } else {
            *out += " ";
          }
        }
        *out += word;
      }
    } else {
      std::string sep(axes_left - 1, '\n');
      for (size_t k = 0; k < idx.size(); ++k) {
        if (k > 0) *out += sep + indent;
        if (idx[k] < 0) {
          *out += "...";
        } else {
          format(axis + 1, 0, indent + " ", out);
        }
      }
    }
    *out += "]";
  }

  const Tensor& t_;
  std::vector<int64_t> dims_, strides_, offsets_;
  bool summarize_ = false;
  ElementFormatter fmt_;
  size_t next_ = 0;
};

}  // namespace

std::string Tensor::values_string() const {
  if (is_symbolic()) return "<symbolic>";
  return Printer(*this).run();
}

std::string Tensor::to_string() const {
  if (!defined()) return "tf.Tensor(<undefined>)";
  std::ostringstream os;
  if (is_symbolic()) {
    os << "Tensor(\"symbolic:" << id() << "\", shape=" << partial_shape().to_string()
       << ", dtype=" << dtype() << ")";
    return os.str();
  }
  std::string values = values_string();
  if (values.find('\n') != std::string::npos) values = "\n" + values;
  os << "tf.Tensor(" << values << ", shape=" << shape().to_string() << ", dtype=" << dtype() << ")";
  return os.str();
}

}  // namespace tfcc
