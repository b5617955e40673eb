// Conformance rows of einsum (a composite of Transpose / Reshape / Sum / Mul / MatMul): one row
// per equation, against a float64 reference that walks every assignment of the labels.
#include <gtest/gtest.h>

#include <map>

#include "tests/ops/harness.h"

namespace tfcc::conformance {
namespace {

// Labels of each operand and of the output, "..." expanded into the characters '0'..'9'
// right-aligned ('9' the last broadcast dim), as NumPy defines the equation.
struct Parsed {
  std::vector<std::string> in;
  std::string out;
};

std::string expand(const std::string& s, size_t dims) {
  const size_t at = s.find("...");
  if (at == std::string::npos) return s;
  std::string e;
  for (size_t k = dims; k > 0; --k) e += char('9' - (k - 1));
  return s.substr(0, at) + e + s.substr(at + 3);
}

Parsed parse(const std::string& spaced, const std::vector<Ref>& in) {
  std::string eq;
  for (char c : spaced) {
    if (c != ' ') eq += c;
  }
  Parsed p;
  const size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow);
  size_t start = 0, ell = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const size_t comma = lhs.find(',', start);
    std::string s = lhs.substr(start, comma - start);
    const size_t letters = s.size() - (s.find("...") == std::string::npos ? 0 : 3);
    const size_t dims = in[i].shape.size() - letters;
    ell = std::max(ell, dims);
    p.in.push_back(expand(s, dims));
    start = comma + 1;
  }
  if (arrow != std::string::npos) {
    p.out = expand(eq.substr(arrow + 2), ell);
  } else {
    p.out = expand("...", ell);
    std::map<char, int> n;
    for (const auto& s : p.in) {
      for (char c : s) ++n[c];
    }
    for (auto [c, k] : n) {
      if (k == 1 && std::isalpha(static_cast<unsigned char>(c))) p.out += c;
    }
  }
  return p;
}

std::vector<Ref> einsum_reference(const std::string& eq, const std::vector<Ref>& in) {
  const Parsed p = parse(eq, in);
  std::map<char, int64_t> size;
  for (size_t i = 0; i < in.size(); ++i) {
    for (size_t j = 0; j < p.in[i].size(); ++j) {
      int64_t& s = size.emplace(p.in[i][j], 1).first->second;
      if (in[i].shape[j] != 1) s = in[i].shape[j];
    }
  }
  std::string labels;
  for (auto [c, n] : size) labels += c;
  Ref out{{}, {}, std::nullopt};
  int64_t out_n = 1;
  for (char c : p.out) {
    out.shape.push_back(size[c]);
    out_n *= size[c];
  }
  out.values.assign(size_t(out_n), 0.0);
  std::map<char, int64_t> idx;
  for (char c : labels) idx[c] = 0;
  int64_t total = 1;
  for (char c : labels) total *= size[c];
  for (int64_t flat = 0; flat < total; ++flat) {
    int64_t rem = flat;
    for (size_t l = labels.size(); l-- > 0;) {
      idx[labels[l]] = rem % size[labels[l]];
      rem /= size[labels[l]];
    }
    double prod = 1;
    for (size_t i = 0; i < in.size(); ++i) {
      int64_t off = 0;
      for (size_t j = 0; j < p.in[i].size(); ++j) {
        off = off * in[i].shape[j] + (in[i].shape[j] == 1 ? 0 : idx[p.in[i][j]]);
      }
      prod *= in[i].values[size_t(off)];
    }
    int64_t o = 0;
    for (char c : p.out) o = o * size[c] + idx[c];
    out.values[size_t(o)] += prod;
  }
  return {out};
}

Tensor ones_of(std::vector<int64_t> s, DType dtype = float32) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return to_tensor(Ref{s, std::vector<double>(size_t(n), 1.0), std::nullopt}, dtype);
}

OpRow einsum_row(const std::string& eq, std::vector<std::vector<std::vector<int64_t>>> shapes) {
  OpRow row;
  row.name = "einsum " + eq;
  row.dtypes = kSigned;
  uint64_t seed = 1;
  for (const auto& c : shapes) {
    std::vector<Ref> in;
    std::string label;
    for (const auto& s : c) {
      in.push_back(filled(s, -3, 3, seed++));
      label += (label.empty() ? "" : " x ") + Shape(s).to_string();
    }
    row.cases.push_back({label, in, {}});
  }
  row.fn = [eq](const std::vector<Tensor>& in) { return std::vector<Tensor>{einsum(eq, in)}; };
  row.reference = [eq](const std::vector<Ref>& in, DType) { return einsum_reference(eq, in); };
  row.rtol32 = 1e-4;
  row.atol32 = 1e-3;
  row.atol64 = 1e-9;
  row.invalid = {
      {"operand count", [eq] { einsum(eq, {}); }, ErrorCode::kInvalidArgument, "einsum: got 0"},
      {"bool",
       [eq, shapes] {
         std::vector<Tensor> in;
         for (const auto& s : shapes[0]) in.push_back(ones_of(s, bool_));
         einsum(eq, in);
       }},
  };
  return row;
}

std::vector<OpRow> einsum_rows() {
  std::vector<OpRow> rows;
  rows.push_back(einsum_row(
      "ij,jk->ik", {{{2, 3}, {3, 4}}, {{1, 1}, {1, 1}}, {{0, 3}, {3, 2}}, {{70, 90}, {90, 60}}}));
  rows.push_back(einsum_row("bij,bjk->bik", {{{2, 3, 4}, {2, 4, 5}}}));
  rows.push_back(einsum_row("abc,cde->abde", {{{2, 3, 4}, {4, 2, 3}}}));  // EinsumDense (MHA)
  rows.push_back(einsum_row("aecd,abcd->acbe", {{{2, 3, 2, 2}, {2, 4, 2, 2}}}));
  rows.push_back(einsum_row("acbe,aecd->abcd", {{{2, 2, 3, 4}, {2, 4, 2, 2}}}));
  rows.push_back(einsum_row("abcd,cde->abe", {{{2, 3, 2, 2}, {2, 2, 5}}}));
  rows.push_back(einsum_row("...ij,...jk->...ik", {{{2, 1, 2, 3}, {4, 3, 2}}, {{2, 3}, {3, 2}}}));
  rows.push_back(einsum_row("...i,...i->...", {{{2, 1, 3}, {4, 3}}}));
  rows.push_back(einsum_row("ij->ji", {{{2, 3}}}));
  rows.push_back(einsum_row("ij->", {{{2, 3}}}));
  rows.push_back(einsum_row("ijk->ki", {{{2, 3, 4}}}));
  rows.push_back(einsum_row("ii->i", {{{3, 3}}}));
  rows.push_back(einsum_row("ii", {{{4, 4}}}));
  rows.push_back(einsum_row("bii,bi->b", {{{2, 3, 3}, {2, 3}}}));
  rows.push_back(einsum_row("ij,jk", {{{2, 3}, {3, 4}}}));
  rows.push_back(einsum_row("ba", {{{2, 3}}}));
  rows.push_back(einsum_row("i,j->ij", {{{2}, {3}}}));
  rows.push_back(einsum_row("i,i->", {{{5}, {5}}}));
  rows.push_back(einsum_row("ij,jk,kl->il", {{{2, 3}, {3, 4}, {4, 2}}}));
  rows.push_back(einsum_row("ij,ij->ij", {{{2, 3}, {2, 3}}}));
  rows.push_back(einsum_row("iJ,Jk->ki", {{{2, 3}, {3, 2}}}));
  rows.push_back(einsum_row("i j , j k -> i k", {{{2, 3}, {3, 2}}}));
  // Malformed equations and shapes, on the first row.
  auto f = [](std::vector<int64_t> s) { return ones_of(s); };
  rows[0].invalid.insert(
      rows[0].invalid.end(),
      {
          {"size mismatch",
           [f] {
             einsum("ij,jk->ik", {f({2, 3}), f({4, 5})});
           },
           ErrorCode::kInvalidArgument, "expected dimension 3 at axis 0 of the input shaped [4,5]"},
          {"letter broadcast",
           [f] {
             einsum("ij,jk->ik", {f({2, 1}), f({3, 5})});
           },
           ErrorCode::kInvalidArgument, "expected dimension"},
          {"bad character",
           [f] {
             einsum("a$b->a", {f({2, 3})});
           },
           ErrorCode::kInvalidArgument, "incorrect format"},
          {"two ellipses",
           [f] {
             einsum("......->", {f({2, 3})});
           },
           ErrorCode::kInvalidArgument, "incorrect format"},
          {"input count",
           [f] {
             einsum("ij,jk->ik", {f({2, 3})});
           },
           ErrorCode::kInvalidArgument, "got 1 inputs for equation 'ij,jk->ik', expecting 2"},
          {"rank",
           [f] {
             einsum("ij", {f({2, 3, 4})});
           },
           ErrorCode::kInvalidArgument, "to have rank 2 but got: 3"},
          {"output label not in inputs",
           [f] {
             einsum("ij->k", {f({3, 3})});
           },
           ErrorCode::kInvalidArgument, "the label k not present"},
          {"output label twice",
           [f] {
             einsum("ij->iij", {f({3, 3})});
           },
           ErrorCode::kInvalidArgument, "more than once"},
          {"broadcast dims without output ellipsis",
           [f] {
             einsum("...ij->ij", {f({2, 3, 4})});
           },
           ErrorCode::kInvalidArgument, "no ellipsis"},
          {"mixed dtypes",
           [f] {
             einsum("ij,jk->ik", {f({2, 3}), ones_of({3, 2}, float64)});
           },
           ErrorCode::kInvalidArgument, "input 1 is float64"},
      });
  return rows;
}

}  // namespace

std::vector<OpRow> einsum_family_rows() { return einsum_rows(); }

}  // namespace tfcc::conformance
