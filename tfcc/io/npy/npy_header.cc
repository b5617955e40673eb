// A small recursive-descent reader for the one Python literal a .npy header holds.
#include "tfcc/io/npy/npy_header.h"

#include <optional>

#include "tfcc/platform/errors.h"

namespace tfcc::io {
namespace {

constexpr size_t kMaxRank = 64;

class Parser {
 public:
  Parser(std::string_view text, const std::string& source) : s_(text), source_(source) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw DataLossError(
        internal::str_cat("Invalid .npy header in ", source_, " at offset ", pos_, ": ", what));
  }
  void skip_space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n')) ++pos_;
  }
  bool accept(char c) {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!accept(c)) fail(internal::str_cat("expected '", c, "'"));
  }
  std::string string_literal() {
    skip_space();
    if (pos_ >= s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"')) fail("expected a string");
    char quote = s_[pos_++];
    std::string out;
    while (pos_ < s_.size() && s_[pos_] != quote) {
      if (s_[pos_] == '\\') fail("escapes are not supported in header strings");
      out.push_back(s_[pos_++]);
    }
    if (pos_ >= s_.size()) fail("unterminated string");
    ++pos_;
    return out;
  }
  bool boolean() {
    skip_space();
    if (s_.substr(pos_, 4) == "True") {
      pos_ += 4;
      return true;
    }
    if (s_.substr(pos_, 5) == "False") {
      pos_ += 5;
      return false;
    }
    fail("expected True or False");
  }
  int64_t integer() {
    skip_space();
    size_t start = pos_;
    int64_t v = 0;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s_[pos_] - '0', &v)) {
        fail("dimension overflows int64");
      }
      ++pos_;
    }
    if (pos_ == start) fail("expected a non-negative integer dimension");
    if (pos_ < s_.size() && s_[pos_] == 'L') ++pos_;  // Python 2 long suffix
    return v;
  }
  std::vector<int64_t> shape() {
    expect('(');
    std::vector<int64_t> dims;
    if (accept(')')) return dims;
    for (;;) {
      if (dims.size() >= kMaxRank) fail("too many dimensions");
      dims.push_back(integer());
      if (accept(')')) break;
      expect(',');
      if (accept(')')) break;
    }
    return dims;
  }
  bool at_end() {
    skip_space();
    return pos_ == s_.size();
  }

 private:
  std::string_view s_;
  const std::string& source_;
  size_t pos_ = 0;
};

void set_dtype(NpyHeader& h, const std::string& source) {
  const std::string& d = h.descr;
  if (d.size() < 3 || (d[0] != '<' && d[0] != '>' && d[0] != '|' && d[0] != '=')) {
    throw UnimplementedError(
        internal::str_cat(".npy file ", source, " has dtype '", d, "', which tfcc cannot read"));
  }
  h.big_endian = d[0] == '>';
  std::string code = d.substr(1);
  struct Known {
    const char* code;
    DType dtype;
  };
  static const Known kKnown[] = {{"f4", float32}, {"f8", float64}, {"i4", int32},
                                 {"i8", int64},   {"u1", uint8},   {"b1", bool_}};
  for (const Known& k : kKnown) {
    if (code == k.code) {
      h.dtype = k.dtype;
      h.item_size = dtype_size(k.dtype);
      return;
    }
  }
  throw UnimplementedError(internal::str_cat(
      ".npy file ", source, " has dtype '", d,
      "'; tfcc reads float32 (<f4), float64 (<f8), int32 (<i4), int64 (<i8), uint8 (|u1) and bool "
      "(|b1)"));
}

}  // namespace

NpyHeader parse_npy_header(std::string_view text, const std::string& source) {
  Parser p(text, source);
  NpyHeader h;
  std::optional<std::string> descr;
  std::optional<bool> fortran;
  std::optional<std::vector<int64_t>> shape;
  p.expect('{');
  while (!p.accept('}')) {
    std::string key = p.string_literal();
    p.expect(':');
    if (key == "descr" && !descr) {
      descr = p.string_literal();
    } else if (key == "fortran_order" && !fortran) {
      fortran = p.boolean();
    } else if (key == "shape" && !shape) {
      shape = p.shape();
    } else {
      p.fail(internal::str_cat("unexpected or repeated key '", key, "'"));
    }
    if (!p.accept(',')) {
      p.expect('}');
      break;
    }
  }
  if (!p.at_end()) p.fail("trailing characters after the header dict");
  if (!descr || !fortran || !shape)
    p.fail("header needs the keys 'descr', 'fortran_order', 'shape'");
  h.descr = *descr;
  h.fortran_order = *fortran;
  h.shape = *shape;
  set_dtype(h, source);
  return h;
}

}  // namespace tfcc::io
