// CPU kernels of the strings family. Each kernel that makes strings writes them into one
// std::vector<std::string> that its output tensor keeps alive (Tensor::from_string_storage).
// Regular expressions are RE2's (TensorFlow's syntax); hashing is FarmHash's Fingerprint64, the
// function TensorFlow's StringToHashBucketFast uses, so buckets agree with TensorFlow's.
#include <farmhash.h>
#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <memory>

#include "tfcc/ops/binary/binary_internal.h"
#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/strings/strings_internal.h"

namespace tfcc {
namespace {

using internal::str_cat;
using Storage = std::vector<std::string>;

std::shared_ptr<Storage> storage(int64_t n) {
  auto s = std::make_shared<Storage>();
  s->resize(static_cast<size_t>(n));
  return s;
}

void set_strings(KernelContext& ctx, int i, std::shared_ptr<Storage> s, const Shape& shape) {
  ctx.set_output(i, Tensor::from_string_storage(std::move(s), shape));
}

// Applies f(std::string_view) -> std::string to every element of input 0.
template <typename F>
void map_strings(KernelContext& ctx, F f) {
  const Tensor& in = ctx.input(0);
  const TString* p = in.data<TString>();
  auto out = storage(in.num_elements());
  for (int64_t i = 0; i < in.num_elements(); ++i) (*out)[static_cast<size_t>(i)] = f(p[i].view());
  set_strings(ctx, 0, std::move(out), in.shape());
}

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

void case_kernel(KernelContext& ctx, bool upper) {
  if (!ctx.attr<std::string>("encoding").empty()) {
    throw UnimplementedError(str_cat(ctx.op().name(),
                                     ": only encoding \"\" (ASCII) is supported, got \"",
                                     ctx.attr<std::string>("encoding"), "\""));
  }
  map_strings(ctx, [upper](std::string_view v) {
    std::string s(v);
    for (char& c : s) {
      c = static_cast<char>(upper ? std::toupper(static_cast<unsigned char>(c))
                                  : std::tolower(static_cast<unsigned char>(c)));
    }
    return s;
  });
}

std::unique_ptr<RE2> compile(KernelContext& ctx, const std::string& pattern) {
  auto re = std::make_unique<RE2>(pattern, RE2::Quiet);
  if (!re->ok()) {
    ctx.fail(str_cat("Invalid pattern: ", pattern, ", error: ", re->error()));
  }
  return re;
}

void regex_replace_kernel(KernelContext& ctx) {
  auto re = compile(ctx, ctx.attr<std::string>("pattern"));
  const std::string& rewrite = ctx.attr<std::string>("rewrite");
  std::string why;
  if (!re->CheckRewriteString(rewrite, &why)) ctx.fail(str_cat("Invalid rewrite: ", why));
  const bool global = ctx.attr<bool>("replace_global");
  map_strings(ctx, [&](std::string_view v) {
    std::string s(v);
    if (global) {
      RE2::GlobalReplace(&s, *re, rewrite);
    } else {
      RE2::Replace(&s, *re, rewrite);
    }
    return s;
  });
}

void regex_full_match_kernel(KernelContext& ctx) {
  auto re = compile(ctx, ctx.attr<std::string>("pattern"));
  const Tensor& in = ctx.input(0);
  const TString* p = in.data<TString>();
  bool* o = ctx.allocate_output(0).mutable_data<bool>();
  for (int64_t i = 0; i < in.num_elements(); ++i) o[i] = RE2::FullMatch(p[i].view(), *re);
}

void strip_kernel(KernelContext& ctx) {
  map_strings(ctx, [](std::string_view v) {
    while (!v.empty() && is_space(v.front())) v.remove_prefix(1);
    while (!v.empty() && is_space(v.back())) v.remove_suffix(1);
    return std::string(v);
  });
}

// TensorFlow's StringSplitV2: pieces of each element, as a sparse (indices, values, shape).
void split_kernel(KernelContext& ctx) {
  const Tensor& in = ctx.input(0);
  const std::string sep(ctx.input(1).data<TString>()[0].view());
  const int64_t maxsplit = ctx.attr<int64_t>("maxsplit");
  const TString* p = in.data<TString>();
  auto values = std::make_shared<Storage>();
  std::vector<int64_t> rows, cols;
  int64_t widest = 0;
  for (int64_t r = 0; r < in.num_elements(); ++r) {
    std::string_view s = p[r].view();
    int64_t before = static_cast<int64_t>(values->size()), splits = 0;
    if (sep.empty()) {
      size_t i = 0;
      while (true) {
        while (i < s.size() && is_space(s[i])) ++i;
        if (i == s.size()) break;
        if (maxsplit >= 0 && splits == maxsplit) {  // the rest, as is (Python's str.split)
          values->emplace_back(s.substr(i));
          break;
        }
        size_t j = i;
        while (j < s.size() && !is_space(s[j])) ++j;
        values->emplace_back(s.substr(i, j - i));
        ++splits;
        i = j;
      }
    } else {  // an empty element gives one empty piece, as in TensorFlow
      size_t i = 0;
      while (true) {
        size_t j = (maxsplit >= 0 && splits == maxsplit) ? std::string_view::npos : s.find(sep, i);
        if (j == std::string_view::npos) {
          values->emplace_back(s.substr(i));
          break;
        }
        values->emplace_back(s.substr(i, j - i));
        ++splits;
        i = j + sep.size();
      }
    }
    int64_t n = static_cast<int64_t>(values->size()) - before;
    widest = std::max(widest, n);
    for (int64_t k = 0; k < n; ++k) {
      rows.push_back(r);
      cols.push_back(k);
    }
  }
  const int64_t n = static_cast<int64_t>(values->size());
  int64_t* idx = ctx.allocate_output(0, Shape{n, 2}).mutable_data<int64_t>();
  for (int64_t k = 0; k < n; ++k) {
    idx[2 * k] = rows[static_cast<size_t>(k)];
    idx[2 * k + 1] = cols[static_cast<size_t>(k)];
  }
  set_strings(ctx, 1, values, Shape{n});
  int64_t* shape = ctx.allocate_output(2).mutable_data<int64_t>();
  shape[0] = in.num_elements();
  shape[1] = widest;
}

void bytes_split_kernel(KernelContext& ctx) {
  const Tensor& in = ctx.input(0);
  const TString* p = in.data<TString>();
  auto values = std::make_shared<Storage>();
  int64_t* splits = ctx.allocate_output(1, Shape{in.num_elements() + 1}).mutable_data<int64_t>();
  splits[0] = 0;
  for (int64_t r = 0; r < in.num_elements(); ++r) {
    for (char c : p[r].view()) values->emplace_back(1, c);
    splits[r + 1] = static_cast<int64_t>(values->size());
  }
  const int64_t n = static_cast<int64_t>(values->size());
  set_strings(ctx, 0, values, Shape{n});
}

void join_kernel(KernelContext& ctx) {
  const std::string& sep = ctx.attr<std::string>("separator");
  Shape shape{};
  for (const Tensor& t : ctx.inputs()) {
    if (t.rank() == 0) continue;
    if (shape.rank() == 0) {
      shape = t.shape();
    } else if (t.shape() != shape) {
      ctx.fail(str_cat("Input shapes do not match: ", shape.to_string(), " vs. ",
                       t.shape().to_string()));
    }
  }
  auto out = storage(shape.num_elements());
  for (int64_t i = 0; i < shape.num_elements(); ++i) {
    std::string& s = (*out)[static_cast<size_t>(i)];
    for (int k = 0; k < ctx.num_inputs(); ++k) {
      const Tensor& t = ctx.input(k);
      if (k > 0) s += sep;
      s += t.data<TString>()[t.rank() == 0 ? 0 : i].view();
    }
  }
  set_strings(ctx, 0, std::move(out), shape);
}

void reduce_join_kernel(KernelContext& ctx) {
  const Tensor& in = ctx.input(0);
  const std::string& sep = ctx.attr<std::string>("separator");
  const std::vector<int64_t> dims = in.shape().dims();
  const int64_t rank = static_cast<int64_t>(dims.size());
  std::vector<int64_t> axes = ctx.input(1).to_vector<int64_t>();
  std::vector<bool> reduced(dims.size(), axes.empty());
  for (int64_t a : axes) {
    if (a < -rank || a >= rank) {
      ctx.fail(str_cat("Invalid reduction dimension ", a, " for input with ", rank, " dimensions"));
    }
    reduced[static_cast<size_t>(a < 0 ? a + rank : a)] = true;
  }
  // Output element of every input element: its index over the kept dimensions.
  std::vector<int64_t> kept_dims, out_dims;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (!reduced[i]) kept_dims.push_back(dims[i]);
    if (!reduced[i] || ctx.attr<bool>("keep_dims")) out_dims.push_back(reduced[i] ? 1 : dims[i]);
  }
  const Shape out_shape(out_dims);
  auto out = storage(out_shape.num_elements());
  std::vector<bool> started(out->size(), false);
  const TString* p = in.data<TString>();
  std::vector<int64_t> idx(dims.size(), 0);
  for (int64_t e = 0; e < in.num_elements(); ++e) {
    int64_t o = 0;
    for (size_t i = 0; i < dims.size(); ++i) {
      if (!reduced[i]) o = o * dims[i] + idx[i];
    }
    std::string& s = (*out)[static_cast<size_t>(o)];
    if (started[static_cast<size_t>(o)]) s += sep;
    started[static_cast<size_t>(o)] = true;
    s += p[e].view();
    for (int64_t i = rank - 1; i >= 0; --i) {
      if (++idx[static_cast<size_t>(i)] < dims[static_cast<size_t>(i)]) break;
      idx[static_cast<size_t>(i)] = 0;
    }
  }
  set_strings(ctx, 0, std::move(out), out_shape);
}

void length_kernel(KernelContext& ctx) {
  const std::string& unit = ctx.attr<std::string>("unit");
  if (unit != "BYTE" && unit != "UTF8_CHAR") {
    ctx.fail(str_cat("unit must be \"BYTE\" or \"UTF8_CHAR\", got \"", unit, "\""));
  }
  const Tensor& in = ctx.input(0);
  const TString* p = in.data<TString>();
  int32_t* o = ctx.allocate_output(0).mutable_data<int32_t>();
  for (int64_t i = 0; i < in.num_elements(); ++i) {
    std::string_view v = p[i].view();
    int64_t n = 0;
    if (unit == "BYTE") {
      n = static_cast<int64_t>(v.size());
    } else {
      for (char c : v) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }
    o[i] = static_cast<int32_t>(n);
  }
}

template <typename T>
void substr_kernel(KernelContext& ctx) {
  if (ctx.attr<std::string>("unit") != "BYTE") {
    throw UnimplementedError("Substr: only unit \"BYTE\" is supported");
  }
  const Tensor &in = ctx.input(0), &pos = ctx.input(1), &len = ctx.input(2);
  for (const Tensor* t : {&pos, &len}) {
    if (t->rank() != 0 && t->shape() != in.shape()) {
      ctx.fail(str_cat("pos and len must be scalars or of the input's shape ",
                       in.shape().to_string(), ", got ", t->shape().to_string()));
    }
  }
  const TString* p = in.data<TString>();
  const T* pp = pos.data<T>();
  const T* pl = len.data<T>();
  auto out = storage(in.num_elements());
  for (int64_t i = 0; i < in.num_elements(); ++i) {
    std::string_view v = p[i].view();
    const int64_t size = static_cast<int64_t>(v.size());
    int64_t b = static_cast<int64_t>(pp[pos.rank() == 0 ? 0 : i]);
    int64_t n = static_cast<int64_t>(pl[len.rank() == 0 ? 0 : i]);
    if (b < -size || b > size) {
      ctx.fail(str_cat("pos ", b, " out of range for string at index ", i));
    }
    if (b < 0) b += size;
    if (n < 0) ctx.fail(str_cat("len must be non-negative, got ", n, " at index ", i));
    (*out)[static_cast<size_t>(i)] =
        std::string(v.substr(static_cast<size_t>(b), static_cast<size_t>(n)));
  }
  set_strings(ctx, 0, std::move(out), in.shape());
}

template <typename T>
void to_number_kernel(KernelContext& ctx) {
  const Tensor& in = ctx.input(0);
  const TString* p = in.data<TString>();
  T* o = ctx.allocate_output(0).mutable_data<T>();
  for (int64_t i = 0; i < in.num_elements(); ++i) {
    std::string_view v = p[i].view();
    while (!v.empty() && is_space(v.front())) v.remove_prefix(1);
    while (!v.empty() && is_space(v.back())) v.remove_suffix(1);
    std::string_view digits = v;
    if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
    T value{};
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) {
      ctx.fail(str_cat("StringToNumberOp could not correctly convert string: ", p[i].view()));
    }
    o[i] = value;
  }
}

template <typename T>
void as_string_kernel(KernelContext& ctx) {
  const int64_t precision = ctx.attr<int64_t>("precision");
  const int64_t width = ctx.attr<int64_t>("width");
  const bool scientific = ctx.attr<bool>("scientific"), shortest = ctx.attr<bool>("shortest");
  const std::string& fill = ctx.attr<std::string>("fill");
  if (fill.size() > 1) ctx.fail(str_cat("Fill string must be one or fewer characters: ", fill));
  if (scientific && shortest) ctx.fail("Cannot select both scientific and shortest notation");
  constexpr bool kFloat = std::is_floating_point_v<T>;
  if (!kFloat && (scientific || shortest || precision > -1)) {
    ctx.fail("scientific, shortest and precision apply to floating-point inputs only");
  }
  if (fill == "0" && width < 0) ctx.fail("Zero fill needs a width");
  if (width > 4096 || precision > 4096) {
    ctx.fail(str_cat("width and precision must be at most 4096, got ", width, " and ", precision));
  }
  std::string format = "%";
  if (!fill.empty() && fill != " ") {
    if (fill == "-" || fill == "0" || fill == "+" || fill == "#") {
      format += fill;
    } else {
      ctx.fail(str_cat("Fill argument not supported: \"", fill, "\""));
    }
  }
  if (width > -1) format += std::to_string(width);
  if (precision > -1) format += "." + std::to_string(precision);
  const Tensor& in = ctx.input(0);
  const T* p = in.data<T>();
  auto out = storage(in.num_elements());
  char buf[512];
  for (int64_t i = 0; i < in.num_elements(); ++i) {
    std::string& s = (*out)[static_cast<size_t>(i)];
    if constexpr (std::is_same_v<T, bool>) {
      s = p[i] ? "true" : "false";
      if (width > -1 && static_cast<int64_t>(s.size()) < width) {
        s = std::string(static_cast<size_t>(width) - s.size(), ' ') + s;
      }
    } else if constexpr (kFloat) {
      std::string f = format + (shortest ? "g" : scientific ? "e" : "f");
      std::snprintf(buf, sizeof buf, f.c_str(), static_cast<double>(p[i]));
      s = buf;
    } else {
      std::string f = format + "lld";
      std::snprintf(buf, sizeof buf, f.c_str(), static_cast<long long>(p[i]));
      s = buf;
    }
  }
  set_strings(ctx, 0, std::move(out), in.shape());
}

void hash_bucket_kernel(KernelContext& ctx) {
  const int64_t buckets = ctx.attr<int64_t>("num_buckets");
  if (buckets <= 0) ctx.fail(str_cat("num_buckets must be positive, got ", buckets));
  const Tensor& in = ctx.input(0);
  const TString* p = in.data<TString>();
  int64_t* o = ctx.allocate_output(0).mutable_data<int64_t>();
  for (int64_t i = 0; i < in.num_elements(); ++i) {
    std::string_view v = p[i].view();
    o[i] = static_cast<int64_t>(util::Fingerprint64(v.data(), v.size()) %
                                static_cast<uint64_t>(buckets));
  }
}

template <typename S>
void ngrams_kernel(KernelContext& ctx) {
  const Tensor &data = ctx.input(0), &splits = ctx.input(1);
  const std::string& sep = ctx.attr<std::string>("separator");
  const std::string& left = ctx.attr<std::string>("left_pad");
  const std::string& right = ctx.attr<std::string>("right_pad");
  const int64_t pad_width = ctx.attr<int64_t>("pad_width");
  const bool preserve = ctx.attr<bool>("preserve_short_sequences");
  const std::vector<int64_t>& widths = ctx.attr<std::vector<int64_t>>("ngram_widths");
  if (splits.rank() != 1 || splits.num_elements() < 1) ctx.fail("data_splits must be a 1-D list");
  const S* sp = splits.data<S>();
  const int64_t rows = splits.num_elements() - 1, n = data.num_elements();
  if (sp[0] != 0) ctx.fail("First split value must be 0");
  for (int64_t r = 0; r < rows; ++r) {
    if (sp[r + 1] < sp[r] || sp[r + 1] > n) {
      ctx.fail(str_cat("Invalid split value ", sp[r + 1], " (data has ", n, " values)"));
    }
  }
  if (rows >= 0 && sp[rows] != n) ctx.fail("Last split value must be the data size");
  for (int64_t w : widths) {
    if (w <= 0) ctx.fail(str_cat("ngram width must be positive, got ", w));
  }
  // The output is bounded before anything is made: n-grams * their items.
  constexpr int64_t kMaxItems = int64_t{1} << 28;
  int64_t items = 0;
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t len = static_cast<int64_t>(sp[r + 1] - sp[r]);
    for (int64_t w : widths) {
      if (w > kMaxItems) ctx.fail(str_cat("ngram width ", w, " is too large"));
      const int64_t pad = std::min(pad_width < 0 ? w - 1 : pad_width, w - 1);
      items += std::max<int64_t>(0, len + 2 * pad - w + 1) * w;
      if (items > kMaxItems) ctx.fail("StringNGrams would produce more than 2^28 items");
    }
    if (preserve && pad_width > kMaxItems) ctx.fail("pad_width is too large");
    items += preserve ? len + 2 * std::max<int64_t>(pad_width, 0) : 0;
    if (items > kMaxItems) ctx.fail("StringNGrams would produce more than 2^28 items");
  }
  const TString* p = data.data<TString>();
  auto out = std::make_shared<Storage>();
  S* osp = ctx.allocate_output(1, splits.shape()).mutable_data<S>();
  osp[0] = 0;
  // One n-gram: `w` items of the padded row starting at `start` (padded index).
  auto ngram = [&](int64_t b, int64_t len, int64_t pad, int64_t start, int64_t w) {
    std::string s;
    for (int64_t k = start; k < start + w; ++k) {
      if (k > start) s += sep;
      if (k < pad) {
        s += left;
      } else if (k >= pad + len) {
        s += right;
      } else {
        s += p[b + k - pad].view();
      }
    }
    return s;
  };
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t b = static_cast<int64_t>(sp[r]), len = static_cast<int64_t>(sp[r + 1]) - b;
    const size_t before = out->size();
    for (int64_t w : widths) {
      const int64_t pad = std::min(pad_width < 0 ? w - 1 : pad_width, w - 1);
      const int64_t count = std::max<int64_t>(0, len + 2 * pad - w + 1);
      for (int64_t k = 0; k < count; ++k) out->push_back(ngram(b, len, pad, k, w));
    }
    if (preserve && out->size() == before && len > 0) {
      const int64_t pad = pad_width < 0 ? 0 : pad_width;
      out->push_back(ngram(b, len, pad, 0, len + 2 * pad));
    }
    osp[r + 1] = static_cast<S>(out->size());
  }
  const int64_t count = static_cast<int64_t>(out->size());
  set_strings(ctx, 0, out, Shape{count});
}

// Equal / NotEqual of two string tensors under broadcasting.
template <bool kEqual>
void compare_kernel(KernelContext& ctx) {
  const Tensor &a = ctx.input(0), &b = ctx.input(1);
  Tensor& out = ctx.allocate_output(0);
  bool* o = out.mutable_data<bool>();
  if (out.num_elements() == 0) return;
  const TString* pa = a.data<TString>();
  const TString* pb = b.data<TString>();
  const int64_t n = out.num_elements();
  if (a.num_elements() == n && b.num_elements() == n) {  // same shape (or both one element)
    for (int64_t i = 0; i < n; ++i) o[i] = (pa[i].view() == pb[i].view()) == kEqual;
    return;
  }
  if (a.num_elements() == 1 || b.num_elements() == 1) {
    const int64_t da = a.num_elements() == 1 ? 0 : 1, db = b.num_elements() == 1 ? 0 : 1;
    for (int64_t i = 0; i < n; ++i) o[i] = (pa[i * da].view() == pb[i * db].view()) == kEqual;
    return;
  }
  kernels::BroadcastPlan plan({a.shape(), b.shape()}, out.shape());
  const int64_t inner = plan.inner();
  const int64_t sa = plan.in_strides[0].back(), sb = plan.in_strides[1].back();
  int64_t offs[2];
  for (int64_t row = 0; row < plan.outer(); ++row) {
    plan.offsets(row, offs);
    for (int64_t i = 0; i < inner; ++i) {
      const bool eq = pa[offs[0] + i * sa].view() == pb[offs[1] + i * sb].view();
      o[row * inner + i] = eq == kEqual;
    }
  }
}

}  // namespace

KernelFn string_comparison_kernel(const std::string& op) {
  if (op == "Equal") return compare_kernel<true>;
  if (op == "NotEqual") return compare_kernel<false>;
  return nullptr;
}

KernelFn strings_cpu_kernel(const std::string& op, DType dtype) {
  if (op == "StringLower") return [](KernelContext& c) { case_kernel(c, false); };
  if (op == "StringUpper") return [](KernelContext& c) { case_kernel(c, true); };
  if (op == "StringStrip") return strip_kernel;
  if (op == "StaticRegexReplace") return regex_replace_kernel;
  if (op == "StaticRegexFullMatch") return regex_full_match_kernel;
  if (op == "StringSplitV2") return split_kernel;
  if (op == "_BytesSplit") return bytes_split_kernel;
  if (op == "StringJoin") return join_kernel;
  if (op == "ReduceJoin") return reduce_join_kernel;
  if (op == "StringLength") return length_kernel;
  if (op == "StringToHashBucketFast") return hash_bucket_kernel;
  if (op == "Substr") return dtype == int32 ? substr_kernel<int32_t> : substr_kernel<int64_t>;
  if (op == "StringNGrams") return dtype == int32 ? ngrams_kernel<int32_t> : ngrams_kernel<int64_t>;
  if (op == "StringToNumber") {
    return visit_dtype(dtype, [&]<typename T>() -> KernelFn {
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                    std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
        return to_number_kernel<T>;
      } else {
        return nullptr;
      }
    });
  }
  if (op == "AsString") {
    if (dtype == DType::kString) {
      return [](KernelContext& c) { c.set_output(0, c.input(0)); };
    }
    return visit_dtype(dtype, [&]<typename T>() -> KernelFn {
      if constexpr (std::is_same_v<T, BFloat16>) {
        return nullptr;
      } else {
        return as_string_kernel<T>;
      }
    });
  }
  return nullptr;
}

}  // namespace tfcc
