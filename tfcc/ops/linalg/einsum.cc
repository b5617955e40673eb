// einsum as a composite. The equation is parsed into integer labels (a letter's code; the
// dimensions "..." stands for get -1, -2, ... counted from the right, so they broadcast
// right-aligned). Each operand first takes its diagonals and sums the labels nobody else needs;
// operands are then contracted left to right, each pair as one batched matmul:
//   A -> [batch..., free_a, contracted], B -> [batch..., contracted, free_b]
// (transposes, and reshapes that group dims), and the result is transposed to the output order.
#include "tfcc/ops/linalg/einsum.h"

#include <algorithm>
#include <map>

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/linalg/linalg.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/platform/errors.h"

namespace tfcc {
namespace {

using internal::str_cat;
using Labels = std::vector<int>;

struct Term {
  Tensor t;
  Labels labels;
};

std::string dims_text(const PartialShape& s) {
  std::string out = "[";
  for (int i = 0; i < s.rank(); ++i) out += str_cat(i ? "," : "", s.dim(i));
  return out + "]";
}

// Subscripts of one operand or the output: letters, and "..." at most once (ellipsis_at = the
// position of "..." among the letters, -1 if absent).
struct Subscripts {
  std::string letters;
  int ellipsis_at = -1;
};

Subscripts parse_subscripts(const std::string& s, const std::string& eq) {
  Subscripts out;
  for (size_t i = 0; i < s.size(); ++i) {
    const char ch = s[i];
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) {
      out.letters += ch;
    } else if (ch == '.' && s.compare(i, 3, "...") == 0 && out.ellipsis_at < 0) {
      out.ellipsis_at = static_cast<int>(out.letters.size());
      i += 2;
    } else {
      throw InvalidArgumentError(str_cat("einsum: subscripts have incorrect format: '", eq,
                                         "' (letters a-z, A-Z and one '...' per operand)"));
    }
  }
  return out;
}

Labels expand(const Subscripts& s, int ellipsis_dims) {
  Labels labels;
  for (int i = 0; i <= static_cast<int>(s.letters.size()); ++i) {
    if (i == s.ellipsis_at) {
      for (int k = ellipsis_dims; k > 0; --k) labels.push_back(-k);
    }
    if (i < static_cast<int>(s.letters.size())) labels.push_back(s.letters[size_t(i)]);
  }
  return labels;
}

bool has(const Labels& l, int label) { return std::find(l.begin(), l.end(), label) != l.end(); }

int64_t dim_of(const Term& o, size_t i) { return o.t.partial_shape().dim(int(i)); }

// x[..., i, ..., i, ...] -> x[..., i, ...] for each label repeated in the operand: multiply by
// an identity matrix placed on the two axes, then sum the second one.
Term take_diagonals(Term o, const std::string& eq, Loc loc) {
  for (size_t p = 0; p < o.labels.size(); ++p) {
    for (size_t q = p + 1; q < o.labels.size(); ++q) {
      if (o.labels[q] != o.labels[p]) continue;
      const int64_t n = dim_of(o, p);
      if (n < 0) {
        throw UnimplementedError(str_cat("einsum '", eq, "': the diagonal of a dimension of ",
                                         "unknown size (trace with the size known)"));
      }
      std::vector<double> eye(size_t(n * n), 0.0);
      for (int64_t i = 0; i < n; ++i) eye[size_t(i * n + i)] = 1.0;
      std::vector<int64_t> shape(o.labels.size(), 1);
      shape[p] = shape[q] = n;
      o.t = reduce_sum(multiply(o.t, detail::make_constant(eye, Shape(shape), o.t.dtype()), loc),
                       {int64_t(q)}, false, loc);
      o.labels.erase(o.labels.begin() + std::ptrdiff_t(q));
      --q;
    }
  }
  return o;
}

// Sums the labels of `o` that are not in `keep`.
Term reduce_unneeded(Term o, const Labels& keep, Loc loc) {
  std::vector<int64_t> axes;
  Labels kept;
  for (size_t i = 0; i < o.labels.size(); ++i) {
    if (has(keep, o.labels[i])) {
      kept.push_back(o.labels[i]);
    } else {
      axes.push_back(int64_t(i));
    }
  }
  if (axes.empty()) return o;
  return {reduce_sum(o.t, axes, false, loc), kept};
}

Term permuted(const Term& o, const Labels& order, Loc loc) {
  std::vector<int64_t> perm;
  for (int l : order) {
    perm.push_back(std::find(o.labels.begin(), o.labels.end(), l) - o.labels.begin());
  }
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i) identity = identity && perm[i] == int64_t(i);
  return {identity ? o.t : transpose(o.t, perm, loc), order};
}

// Reshapes to `dims` unless the shape already is; an unknown size becomes -1 (only one may be).
Tensor reshaped(const Tensor& t, const std::vector<int64_t>& dims, const std::string& eq, Loc loc) {
  const PartialShape s = t.partial_shape();
  if (s.rank_known() && s.dims() == dims) return t;
  if (std::count_if(dims.begin(), dims.end(), [](int64_t d) { return d < 0; }) > 1) {
    throw UnimplementedError(str_cat("einsum '", eq, "': grouping dimensions of unknown size ",
                                     "into ", dims_text(PartialShape(dims)),
                                     " (trace with at most one unknown dimension per operand)"));
  }
  return reshape(t, dims, loc);
}

std::map<int, int64_t> sizes_of(const Term& o) {
  std::map<int, int64_t> s;
  for (size_t i = 0; i < o.labels.size(); ++i) s[o.labels[i]] = dim_of(o, i);
  return s;
}

int64_t product(const Labels& group, const std::map<int, int64_t>& size) {
  int64_t p = 1;
  for (int l : group) {
    const int64_t d = size.at(l);
    if (d < 0) return -1;
    p = checked_mul(p, d);
  }
  return p;
}

// Contracts two operands into one holding the labels of either that are in `keep`.
Term contract(Term a, Term b, const Labels& keep, const std::string& eq, Loc loc) {
  // A label both hold, summed, with size 1 in one of them (broadcast "..." dims): sum it out of
  // that one first, so that it is summed out of the other alone.
  for (int pass = 0; pass < 2; ++pass) {
    Term& x = pass ? b : a;
    const Term& y = pass ? a : b;
    const auto sx = sizes_of(x), sy = sizes_of(y);
    Labels x_keep;
    for (int l : x.labels) {
      const bool drop = !has(keep, l) && has(y.labels, l) && sx.at(l) == 1 && sy.at(l) != 1;
      if (!drop) x_keep.push_back(l);
    }
    x = reduce_unneeded(x, x_keep, loc);
  }
  Labels both_keep = keep;
  both_keep.insert(both_keep.end(), b.labels.begin(), b.labels.end());
  a = reduce_unneeded(a, both_keep, loc);
  both_keep = keep;
  both_keep.insert(both_keep.end(), a.labels.begin(), a.labels.end());
  b = reduce_unneeded(b, both_keep, loc);

  Labels batch, free_a, free_b, summed;
  for (int l : a.labels) {
    if (!has(b.labels, l)) {
      free_a.push_back(l);
    } else if (has(keep, l)) {
      batch.push_back(l);
    } else {
      summed.push_back(l);
    }
  }
  for (int l : b.labels) {
    if (!has(a.labels, l)) free_b.push_back(l);
  }
  const auto size_a = sizes_of(a), size_b = sizes_of(b);
  std::vector<int64_t> batch_a, batch_b, batch_out;
  for (int l : batch) {
    batch_a.push_back(size_a.at(l));
    batch_b.push_back(size_b.at(l));
    batch_out.push_back(size_a.at(l) == 1 ? size_b.at(l) : size_a.at(l));
  }
  auto concat_labels = [](Labels x, const Labels& y, const Labels& z) {
    x.insert(x.end(), y.begin(), y.end());
    x.insert(x.end(), z.begin(), z.end());
    return x;
  };
  a = permuted(a, concat_labels(batch, free_a, summed), loc);
  b = permuted(b, concat_labels(batch, summed, free_b), loc);
  const int64_t m = product(free_a, size_a), k = product(summed, size_a),
                n = product(free_b, size_b);
  auto with = [](std::vector<int64_t> d, std::vector<int64_t> tail) {
    d.insert(d.end(), tail.begin(), tail.end());
    return d;
  };
  Tensor r = matmul(reshaped(a.t, with(batch_a, {m, k}), eq, loc),
                    reshaped(b.t, with(batch_b, {k, n}), eq, loc), false, false, loc);
  std::vector<int64_t> out_dims = batch_out;
  for (int l : free_a) out_dims.push_back(size_a.at(l));
  for (int l : free_b) out_dims.push_back(size_b.at(l));
  return {reshaped(r, out_dims, eq, loc), concat_labels(batch, free_a, free_b)};
}

}  // namespace

Tensor einsum(const std::string& equation, const std::vector<Tensor>& inputs, Loc loc) {
  std::string eq;
  for (char ch : equation) {
    if (ch != ' ') eq += ch;
  }
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<Subscripts> subs;
  for (size_t start = 0;;) {
    const size_t comma = lhs.find(',', start);
    subs.push_back(parse_subscripts(lhs.substr(start, comma - start), equation));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (subs.size() != inputs.size()) {
    throw InvalidArgumentError(str_cat("einsum: got ", inputs.size(), " inputs for equation '",
                                       equation, "', expecting ", subs.size()));
  }
  std::vector<Term> ops;
  int ellipsis_dims = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& t = inputs[i];
    if (t.dtype() != inputs[0].dtype()) {
      throw InvalidArgumentError(str_cat("einsum '", equation, "': input ", i, " is ",
                                         dtype_name(t.dtype()), ", input 0 is ",
                                         dtype_name(inputs[0].dtype())));
    }
    if (t.dtype() != float32 && t.dtype() != float64 && t.dtype() != int32 && t.dtype() != int64) {
      throw InvalidArgumentError(str_cat("einsum '", equation, "': input ", i, " has dtype ",
                                         dtype_name(t.dtype()),
                                         " (float32, float64, int32 or int64 expected)"));
    }
    const PartialShape s = t.partial_shape();
    if (!s.rank_known()) {
      throw UnimplementedError(str_cat("einsum '", equation, "': input ", i, " of unknown rank"));
    }
    const int letters = static_cast<int>(subs[i].letters.size());
    const int extra = s.rank() - letters;
    if (extra < 0 || (extra > 0 && subs[i].ellipsis_at < 0)) {
      throw InvalidArgumentError(str_cat("einsum '", equation, "': expected input ", i,
                                         " to have rank ", letters,
                                         subs[i].ellipsis_at < 0 ? "" : " or more",
                                         " but got: ", s.rank(), " (shape ", dims_text(s), ")"));
    }
    ellipsis_dims = std::max(ellipsis_dims, extra);
    ops.push_back({t, expand(subs[i], extra)});
  }
  // Sizes: a letter's must agree everywhere; "..." dims broadcast (1 against n).
  std::map<int, int64_t> size;
  std::map<int, int> count;
  for (size_t i = 0; i < ops.size(); ++i) {
    const PartialShape s = ops[i].t.partial_shape();
    for (size_t j = 0; j < ops[i].labels.size(); ++j) {
      const int l = ops[i].labels[j];
      const int64_t d = s.dim(int(j));
      auto [it, fresh] = size.emplace(l, d);
      const bool equal = it->second == d || d < 0 || it->second < 0;
      if (!fresh && !equal && !(l < 0 && (d == 1 || it->second == 1))) {
        throw InvalidArgumentError(str_cat("einsum '", equation, "': expected dimension ",
                                           it->second, " at axis ", j, " of the input shaped ",
                                           dims_text(s), " but got dimension ", d));
      }
      if (!fresh && (it->second == 1 || it->second < 0) && d != 1) it->second = d;
    }
    Labels seen;
    for (int l : ops[i].labels) {
      if (!has(seen, l)) ++count[l];
      seen.push_back(l);
    }
  }
  Labels out;
  if (arrow != std::string::npos) {
    Subscripts so = parse_subscripts(eq.substr(arrow + 2), equation);
    if (so.ellipsis_at < 0 && ellipsis_dims > 0) {
      throw InvalidArgumentError(str_cat("einsum '", equation, "': output contains ", ellipsis_dims,
                                         " broadcasting dimension(s) but no ",
                                         "ellipsis (...) was found in the output subscripts"));
    }
    out = expand(so, ellipsis_dims);
    for (size_t i = 0; i < out.size(); ++i) {
      if (size.count(out[i]) == 0) {
        throw InvalidArgumentError(str_cat("einsum '", equation, "': output subscripts contain ",
                                           "the label ", char(out[i]),
                                           " not present in the input subscripts"));
      }
      if (std::count(out.begin(), out.end(), out[i]) > 1) {
        throw InvalidArgumentError(str_cat("einsum '", equation, "': output subscripts contain ",
                                           "a label appearing more than once: ", char(out[i])));
      }
    }
  } else {
    for (int k = ellipsis_dims; k > 0; --k) out.push_back(-k);
    for (auto [l, n] : count) {
      if (l > 0 && n == 1) {
        bool repeated = false;
        for (const Term& o : ops)
          repeated = repeated || std::count(o.labels.begin(), o.labels.end(), l) > 1;
        if (!repeated) out.push_back(l);
      }
    }
  }
  // Diagonals, then labels only one operand holds and the output does not need.
  for (Term& o : ops) {
    o = take_diagonals(o, equation, loc);
    Labels keep = out;
    for (const Term& other : ops) {
      if (&other != &o) keep.insert(keep.end(), other.labels.begin(), other.labels.end());
    }
    o = reduce_unneeded(o, keep, loc);
  }
  Term acc = ops[0];
  for (size_t i = 1; i < ops.size(); ++i) {
    Labels keep = out;
    for (size_t j = i + 1; j < ops.size(); ++j) {
      keep.insert(keep.end(), ops[j].labels.begin(), ops[j].labels.end());
    }
    acc = contract(acc, ops[i], keep, equation, loc);
  }
  acc = reduce_unneeded(acc, out, loc);
  // A "..." dimension of size 1 in every operand that holds it stays 1; one that only some
  // operands broadcast was resolved by the matmuls.
  return permuted(acc, out, loc).t;
}

}  // namespace tfcc
