// Conformance rows of the fused ops graph passes substitute for op chains: _FusedConv2D
// (conv + bias + activation) and _FusedMatMul (matmul + bias + activation), one row per
// activation, against plain float64 loops; gradients through every activation (away from the
// kinks of Relu / Relu6 / LeakyRelu / Elu: the drawn values keep pre-activations off zero only
// by chance, so those rows check the gradient on inputs whose products stay positive).
#include <gtest/gtest.h>

#include <cmath>

#include "tests/ops/conv_ref.h"

namespace tfcc::conformance {
namespace {

double act_ref(const std::string& act, double v, double alpha) {
  if (act == "Relu") return v > 0 ? v : 0;
  if (act == "Relu6") return v < 0 ? 0 : (v > 6 ? 6 : v);
  if (act == "LeakyRelu") return v > 0 ? v : alpha * v;
  if (act == "Elu") return v > 0 ? v : std::exp(v) - 1;
  if (act == "Tanh") return std::tanh(v);
  if (act == "Sigmoid") return 1 / (1 + std::exp(-v));
  if (act == "GeluExact") return v * 0.5 * std::erfc(-v / std::sqrt(2.0));
  if (act == "GeluApproximate") {
    const double pi = 3.14159265358979323846;
    return 0.5 * v * (1 + std::tanh(std::sqrt(2 / pi) * (v + 0.044715 * v * v * v)));
  }
  return v;
}

Ref bias_act(Ref y, const Ref& bias, const std::string& act, double alpha) {
  const size_t c = bias.values.size();
  for (size_t i = 0; i < y.values.size(); ++i) {
    y.values[i] = act_ref(act, y.values[i] + bias.values[i % c], alpha);
  }
  return y;
}

const std::vector<std::string> kActivations = {
    "", "Relu", "Relu6", "LeakyRelu", "Elu", "Tanh", "Sigmoid", "GeluExact", "GeluApproximate"};

// Piecewise activations have kinks; their gradient rows draw positive inputs (all products
// positive, away from 0 and, with the small sizes, below 6), which exercises the active branch.
std::pair<double, double> grad_domain(const std::string& act) {
  if (act == "Relu" || act == "Relu6" || act == "LeakyRelu" || act == "Elu") return {0.1, 0.5};
  return {-1.5, 1.5};
}

Tensor f32(std::vector<int64_t> s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return Tensor::from_vector(std::vector<float>(size_t(n), 1.f), Shape(s));
}

OpRow fused_conv_row(const std::string& act) {
  OpRow row;
  row.name = "fused_conv2d_" + (act.empty() ? std::string("bias") : act);
  row.ops = {"_FusedConv2D"};
  row.dtypes = kFloat;
  conv_ref::Params p;
  p.padding = "SAME";
  row.cases = {
      {"1x4x4x2 * 3x3x2x3",
       {filled({1, 4, 4, 2}, -2, 2, 1), filled({3, 3, 2, 3}, -1, 1, 2), filled({3}, -1, 1, 3)},
       {}},
      {"large (seed CNN layer)",
       {filled({4, 28, 28, 1}, -2, 2, 4), filled({3, 3, 1, 32}, -1, 1, 5), filled({32}, -1, 1, 6)},
       {}},
  };
  row.fn = [act](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{fused_conv2d(in[0], in[1], in[2], {1}, "SAME", act, {1}, 0.3)};
  };
  row.reference = [act, p](const std::vector<Ref>& in, DType dt) {
    return std::vector<Ref>{
        conv_ref::as_dtype(bias_act(conv_ref::conv(in[0], in[1], p, false), in[2], act, 0.3), dt)};
  };
  row.rtol32 = 1e-4;
  row.atol32 = 2e-4;
  row.rtol64 = 1e-12;
  row.atol64 = 1e-10;
  row.grad_domain = grad_domain(act);
  if (act.empty()) {
    row.invalid = {
        {"bias of the wrong size",
         [] {
           fused_conv2d(f32({1, 4, 4, 2}), f32({3, 3, 2, 3}), f32({2}), {1}, "SAME", "");
         },
         ErrorCode::kInvalidArgument, "bias must be a vector of the filter's output channels (3)"},
        {"unknown activation",
         [] {
           fused_conv2d(f32({1, 4, 4, 2}), f32({3, 3, 2, 3}), f32({3}), {1}, "SAME", "Swish");
         },
         ErrorCode::kInvalidArgument, "Fusion is not implemented: [BiasAdd,Swish]"},
        {"mismatched channels",
         [] {
           fused_conv2d(f32({1, 4, 4, 4}), f32({3, 3, 3, 3}), f32({3}), {1}, "SAME", "Relu");
         },
         ErrorCode::kInvalidArgument, "input depth must be evenly divisible by filter depth"},
    };
  }
  row.second_order = act == "Tanh" || act == "Sigmoid";
  return row;
}

OpRow fused_matmul_row(const std::string& act, bool ta, bool tb) {
  OpRow row;
  row.name = "fused_matmul_" + (act.empty() ? std::string("bias") : act) + (ta ? "_ta" : "") +
             (tb ? "_tb" : "");
  row.ops = {"_FusedMatMul"};
  row.dtypes = kFloat;
  auto mk = [ta, tb](std::string label, int64_t m, int64_t k, int64_t n, uint64_t seed) {
    return Case{
        std::move(label),
        {filled(ta ? std::vector<int64_t>{k, m} : std::vector<int64_t>{m, k}, -1, 1, seed),
         filled(tb ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n}, -1, 1, seed + 1),
         filled({n}, -1, 1, seed + 2)},
        {}};
  };
  row.cases = {mk("3x4 @ 4x5", 3, 4, 5, 1), mk("K = 0", 2, 0, 3, 4),
               mk("large (seed CNN dense)", 64, 800, 128, 7)};
  row.fn = [act, ta, tb](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{fused_matmul(in[0], in[1], in[2], act, ta, tb, 0.3)};
  };
  row.reference = [act, ta, tb](const std::vector<Ref>& in, DType dt) {
    const Ref &a = in[0], &b = in[1];
    const int64_t m = ta ? a.shape[1] : a.shape[0], k = ta ? a.shape[0] : a.shape[1];
    const int64_t n = tb ? b.shape[0] : b.shape[1];
    Ref y{{m, n}, std::vector<double>(size_t(m * n), 0.0), {}};
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        for (int64_t kk = 0; kk < k; ++kk)
          y.values[size_t(i * n + j)] +=
              (ta ? a.values[size_t(kk * m + i)] : a.values[size_t(i * k + kk)]) *
              (tb ? b.values[size_t(j * k + kk)] : b.values[size_t(kk * n + j)]);
    return std::vector<Ref>{conv_ref::as_dtype(bias_act(y, in[2], act, 0.3), dt)};
  };
  row.rtol32 = 1e-4;
  row.atol32 = 2e-4;
  row.rtol64 = 1e-12;
  row.atol64 = 1e-10;
  row.grad_domain = grad_domain(act);
  if (act.empty() && !ta && !tb) {
    row.invalid = {
        {"bias of the wrong size",
         [] {
           fused_matmul(f32({2, 3}), f32({3, 4}), f32({3}), "Relu");
         },
         ErrorCode::kInvalidArgument, "bias must be a vector of the product's columns (4)"},
        {"unknown activation",
         [] {
           fused_matmul(f32({2, 3}), f32({3, 4}), f32({4}), "Swish");
         },
         ErrorCode::kInvalidArgument, "Fusion is not implemented: [BiasAdd,Swish]"},
        {"batched operands",
         [] {
           fused_matmul(f32({2, 2, 3}), f32({3, 4}), f32({4}), "");
         },
         ErrorCode::kInvalidArgument, "In[0] is not a matrix"},
        {"inner mismatch",
         [] {
           fused_matmul(f32({2, 3}), f32({2, 4}), f32({4}), "");
         },
         ErrorCode::kInvalidArgument, "Matrix size-incompatible"},
    };
  }
  row.second_order = act == "Tanh" || act == "Sigmoid" || act == "GeluExact";
  return row;
}

}  // namespace

std::vector<OpRow> conv_fused_rows() {
  std::vector<OpRow> rows;
  for (const std::string& act : kActivations) rows.push_back(fused_conv_row(act));
  for (const std::string& act : kActivations) rows.push_back(fused_matmul_row(act, false, false));
  rows.push_back(fused_matmul_row("Relu", true, false));
  rows.push_back(fused_matmul_row("", false, true));
  rows.push_back(fused_matmul_row("GeluApproximate", true, true));
  share_invalid_cases(rows);
  return rows;
}

}  // namespace tfcc::conformance
