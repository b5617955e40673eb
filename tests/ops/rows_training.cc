// Conformance rows of the fused optimizer updates (ResourceApply*): the variable and its slots
// after one update, against the formulas in float64.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/ops/harness.h"
#include "tfcc/ops/training/training.h"

namespace tfcc::conformance {
namespace {

// Applies `update` to variables made from the first `num_vars` inputs; returns the op's result
// followed by every variable's value afterwards.
OpRow update_row(
    std::string name, std::string op, int num_vars,
    std::function<Tensor(const std::vector<Variable>&, const std::vector<Tensor>&)> update,
    std::function<std::vector<std::vector<double>>(const std::vector<Ref>&)> ref,
    std::vector<Case> cases) {
  OpRow row;
  row.name = std::move(name);
  row.ops = {std::move(op)};
  row.dtypes = kFloat;
  row.cases = std::move(cases);
  row.fn = [num_vars, update](const std::vector<Tensor>& in) {
    std::vector<Variable> vars;
    for (int i = 0; i < num_vars; ++i) vars.emplace_back(in[i]);
    std::vector<Tensor> rest(in.begin() + num_vars, in.end());
    std::vector<Tensor> out = {update(vars, rest)};
    for (const Variable& v : vars) out.push_back(v.read_value());
    return out;
  };
  row.reference = [ref, num_vars](const std::vector<Ref>& in, DType) {
    std::vector<std::vector<double>> after = ref(in);
    std::vector<Ref> out;
    out.push_back(Ref{in[0].shape, after[0], {}});
    for (int i = 0; i < num_vars; ++i) out.push_back(Ref{in[0].shape, after[i], {}});
    return out;
  };
  row.rtol32 = 1e-5;
  row.atol32 = 1e-6;
  row.grad_check = false;  // updates are not differentiable (marked so in the registry)
  return row;
}

std::vector<BadCase> common_invalid(std::function<void(const Variable&, const Tensor&)> apply) {
  return {
      {"gradient shape mismatch",
       [apply] {
         apply(Variable(constant({1.f, 2.f})), constant({1.f}));
       },
       ErrorCode::kInvalidArgument, "gradient shape (1,)"},
      {"gradient dtype mismatch",
       [apply] {
         apply(Variable(constant({1.f, 2.f})), constant({1.0, 2.0}, float64));
       },
       ErrorCode::kInvalidArgument, "float64"},
      {"integer variable",
       [apply] {
         apply(Variable(constant({1, 2})), constant({1, 2}));
       },
       ErrorCode::kInvalidArgument, "must be float32 or float64"},
      {"undefined variable", [apply] { apply(Variable(), constant({1.f})); },
       ErrorCode::kFailedPrecondition, "undefined"},
  };
}

std::vector<Case> cases(int num_vars) {
  // Variables (and slots) first, then the gradient.
  auto make = [num_vars](std::string label, std::vector<int64_t> shape, uint64_t seed) {
    Case c{std::move(label), {}, {}, false};
    for (int i = 0; i < num_vars; ++i) {
      // Second-moment slots must be non-negative; draw every slot from [0, 1).
      c.inputs.push_back(i == 0 ? filled(shape, -2, 2, seed) : filled(shape, 0, 1, seed + i));
    }
    c.inputs.push_back(filled(shape, -1, 1, seed + 10));
    return c;
  };
  return {make("vector", {5}, 1), make("matrix", {3, 4}, 2), make("scalar", {}, 3),
          make("empty", {0, 3}, 4), make("large", {70000}, 5)};
}

}  // namespace

std::vector<OpRow> training_rows() {
  std::vector<OpRow> rows;
  {
    auto row = update_row(
        "apply_gradient_descent", "ResourceApplyGradientDescent", 1,
        [](const std::vector<Variable>& v, const std::vector<Tensor>& in) {
          return training::apply_gradient_descent(v[0], 0.25, in[0]);
        },
        [](const std::vector<Ref>& in) {
          std::vector<double> w = in[0].values;
          for (size_t i = 0; i < w.size(); ++i) w[i] -= 0.25 * in[1].values[i];
          return std::vector<std::vector<double>>{w};
        },
        cases(1));
    row.invalid = common_invalid(
        [](const Variable& v, const Tensor& g) { training::apply_gradient_descent(v, 0.1, g); });
    row.invalid.push_back({"non-scalar rate",
                           [] {
                             training::apply_gradient_descent(Variable(constant({1.f})),
                                                              constant({0.1f}), constant({1.f}));
                           },
                           ErrorCode::kInvalidArgument, "must be a scalar"});
    rows.push_back(std::move(row));
  }
  for (bool nesterov : {false, true}) {
    auto row = update_row(
        nesterov ? "apply_keras_momentum_nesterov" : "apply_keras_momentum",
        "ResourceApplyKerasMomentum", 2,
        [nesterov](const std::vector<Variable>& v, const std::vector<Tensor>& in) {
          return training::apply_keras_momentum(v[0], v[1], 0.1, in[0], 0.9, nesterov);
        },
        [nesterov](const std::vector<Ref>& in) {
          std::vector<double> w = in[0].values, a = in[1].values;
          for (size_t i = 0; i < w.size(); ++i) {
            double g = in[2].values[i];
            a[i] = a[i] * 0.9 - 0.1 * g;
            w[i] += nesterov ? a[i] * 0.9 - 0.1 * g : a[i];
          }
          return std::vector<std::vector<double>>{w, a};
        },
        cases(2));
    row.invalid = common_invalid([](const Variable& v, const Tensor& g) {
      Variable acc(zeros_like(v.read_value()));
      training::apply_keras_momentum(v, acc, 0.1, g, 0.9);
    });
    row.invalid.push_back({"slot shape mismatch",
                           [] {
                             training::apply_keras_momentum(Variable(constant({1.f, 2.f})),
                                                            Variable(constant({1.f})), 0.1,
                                                            constant({1.f, 1.f}), 0.9);
                           },
                           ErrorCode::kInvalidArgument, "(accum)"});
    rows.push_back(std::move(row));
  }
  for (bool nesterov : {false, true}) {
    const double b1 = 0.9, b2 = 0.999, eps = 1e-7, lr = 0.01, t = 3;
    auto row = update_row(
        nesterov ? "apply_adam_nesterov" : "apply_adam", "ResourceApplyAdam", 3,
        [=](const std::vector<Variable>& v, const std::vector<Tensor>& in) {
          return training::apply_adam(v[0], v[1], v[2], std::pow(b1, t), std::pow(b2, t), lr, b1,
                                      b2, eps, in[0], nesterov);
        },
        [=](const std::vector<Ref>& in) {
          std::vector<double> w = in[0].values, m = in[1].values, v = in[2].values;
          double lr_t = lr * std::sqrt(1 - std::pow(b2, t)) / (1 - std::pow(b1, t));
          for (size_t i = 0; i < w.size(); ++i) {
            double g = in[3].values[i];
            m[i] += (g - m[i]) * (1 - b1);
            v[i] += (g * g - v[i]) * (1 - b2);
            double step = nesterov ? g * (1 - b1) + b1 * m[i] : m[i];
            w[i] -= lr_t * step / (std::sqrt(v[i]) + eps);
          }
          return std::vector<std::vector<double>>{w, m, v};
        },
        cases(3));
    row.invalid = common_invalid([](const Variable& v, const Tensor& g) {
      Variable m(zeros_like(v.read_value())), s(zeros_like(v.read_value()));
      training::apply_adam(v, m, s, 0.9, 0.999, 0.001, 0.9, 0.999, 1e-7, g);
    });
    row.invalid.push_back({"slot is the variable",
                           [] {
                             Variable w(constant({1.f})), m(constant({0.f}));
                             training::apply_adam(w, m, w, 0.9, 0.999, 0.001, 0.9, 0.999, 1e-7,
                                                  constant({1.f}));
                           },
                           ErrorCode::kInvalidArgument, "must be different variables"});
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace tfcc::conformance
