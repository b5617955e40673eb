#include "tfcc/keras/initializers/initializers.h"

#include <cmath>
#include <functional>
#include <map>
#include <vector>

#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/random/random.h"

namespace tfcc::keras::initializers {

Tensor Zeros::operator()(const Shape& shape, DType dtype) const {
  return zeros(shape.dims(), dtype);
}
Tensor Ones::operator()(const Shape& shape, DType dtype) const { return ones(shape.dims(), dtype); }
Tensor Constant::operator()(const Shape& shape, DType dtype) const {
  return fill(shape.dims(), value_, dtype);
}
Tensor RandomNormal::operator()(const Shape& shape, DType dtype) const {
  return random::normal(shape.dims(), mean_, stddev_, dtype, seed_);
}
Tensor RandomUniform::operator()(const Shape& shape, DType dtype) const {
  return random::uniform(shape.dims(), minval_, maxval_, dtype, seed_);
}
Tensor TruncatedNormal::operator()(const Shape& shape, DType dtype) const {
  return random::truncated_normal(shape.dims(), mean_, stddev_, dtype, seed_);
}

std::pair<double, double> compute_fans(const Shape& shape) {
  if (shape.rank() < 1) return {1.0, 1.0};
  if (shape.rank() == 1) return {double(shape[0]), double(shape[0])};
  if (shape.rank() == 2) return {double(shape[0]), double(shape[1])};
  double receptive = 1;
  for (int i = 0; i < shape.rank() - 2; ++i) receptive *= double(shape[i]);
  return {double(shape[shape.rank() - 2]) * receptive, double(shape[shape.rank() - 1]) * receptive};
}

VarianceScaling::VarianceScaling(VarianceScalingOptions options)
    : VarianceScaling(std::move(options), "VarianceScaling") {}

VarianceScaling::VarianceScaling(VarianceScalingOptions options, std::string class_name)
    : options_(std::move(options)), class_name_(std::move(class_name)) {
  TFCC_CHECK_ARG(options_.scale > 0,
                 "Argument `scale` must be positive float. Received: scale=", options_.scale);
  TFCC_CHECK_ARG(
      options_.mode == "fan_in" || options_.mode == "fan_out" || options_.mode == "fan_avg",
      "Invalid `mode` argument: ", options_.mode, ". Expected one of fan_in, fan_out, fan_avg");
  TFCC_CHECK_ARG(options_.distribution == "truncated_normal" ||
                     options_.distribution == "untruncated_normal" ||
                     options_.distribution == "normal" || options_.distribution == "uniform",
                 "Invalid `distribution` argument: ", options_.distribution,
                 ". Expected one of truncated_normal, untruncated_normal, uniform");
}

Tensor VarianceScaling::operator()(const Shape& shape, DType dtype) const {
  auto [fan_in, fan_out] = compute_fans(shape);
  double n = options_.mode == "fan_in"    ? fan_in
             : options_.mode == "fan_out" ? fan_out
                                          : (fan_in + fan_out) / 2.0;
  const double scale = options_.scale / std::max(1.0, n);
  if (options_.distribution == "truncated_normal") {
    // Std of a unit normal truncated to (-2, 2).
    const double stddev = std::sqrt(scale) / 0.87962566103423978;
    return random::truncated_normal(shape.dims(), 0.0, stddev, dtype, options_.seed);
  }
  if (options_.distribution == "uniform") {
    const double limit = std::sqrt(3.0 * scale);
    return random::uniform(shape.dims(), -limit, limit, dtype, options_.seed);
  }
  return random::normal(shape.dims(), 0.0, std::sqrt(scale), dtype, options_.seed);
}

GlorotUniform::GlorotUniform(std::optional<int64_t> seed)
    : VarianceScaling({1.0, "fan_avg", "uniform", seed}, "GlorotUniform") {}
GlorotNormal::GlorotNormal(std::optional<int64_t> seed)
    : VarianceScaling({1.0, "fan_avg", "truncated_normal", seed}, "GlorotNormal") {}
HeNormal::HeNormal(std::optional<int64_t> seed)
    : VarianceScaling({2.0, "fan_in", "truncated_normal", seed}, "HeNormal") {}
HeUniform::HeUniform(std::optional<int64_t> seed)
    : VarianceScaling({2.0, "fan_in", "uniform", seed}, "HeUniform") {}
LecunNormal::LecunNormal(std::optional<int64_t> seed)
    : VarianceScaling({1.0, "fan_in", "truncated_normal", seed}, "LecunNormal") {}
LecunUniform::LecunUniform(std::optional<int64_t> seed)
    : VarianceScaling({1.0, "fan_in", "uniform", seed}, "LecunUniform") {}

Tensor Orthogonal::operator()(const Shape& shape, DType dtype) const {
  TFCC_CHECK_ARG(shape.rank() >= 2,
                 "The tensor to initialize must be at least two-dimensional. Received: shape=",
                 shape.to_string());
  int64_t rows = 1;
  for (int i = 0; i < shape.rank() - 1; ++i) rows = checked_mul(rows, shape[i]);
  const int64_t cols = shape[shape.rank() - 1];
  // Work on the tall orientation (m >= n) and transpose back, as Keras does.
  const int64_t m = std::max(rows, cols), n = std::min(rows, cols);
  auto a = random::normal({m, n}, 0, 1, float64, seed_).to_vector<double>();
  // Modified Gram-Schmidt on the columns of a: Q with R's diagonal positive, which is what
  // Keras' q * sign(diag(r)) produces.
  std::vector<double> q(static_cast<size_t>(m * n));
  for (int64_t j = 0; j < n; ++j) {
    std::vector<double> v(static_cast<size_t>(m));
    for (int64_t i = 0; i < m; ++i) v[i] = a[i * n + j];
    for (int64_t k = 0; k < j; ++k) {
      double dot = 0;
      for (int64_t i = 0; i < m; ++i) dot += q[i * n + k] * v[i];
      for (int64_t i = 0; i < m; ++i) v[i] -= dot * q[i * n + k];
    }
    double norm = 0;
    for (double x : v) norm += x * x;
    norm = std::sqrt(norm);
    if (norm == 0) norm = 1;  // probability zero with normal draws
    for (int64_t i = 0; i < m; ++i) q[i * n + j] = v[i] / norm;
  }
  std::vector<double> out(static_cast<size_t>(rows * cols));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      out[r * cols + c] = gain_ * (rows >= cols ? q[r * n + c] : q[c * n + r]);
    }
  }
  return cast(Tensor::from_vector(out, shape), dtype);
}

std::shared_ptr<const Initializer> get(const std::string& name) {
  static const std::map<std::string, std::function<std::shared_ptr<const Initializer>()>> table = {
      {"zeros", [] { return std::make_shared<Zeros>(); }},
      {"ones", [] { return std::make_shared<Ones>(); }},
      {"constant", [] { return std::make_shared<Constant>(); }},
      {"random_normal", [] { return std::make_shared<RandomNormal>(); }},
      {"random_uniform", [] { return std::make_shared<RandomUniform>(); }},
      {"truncated_normal", [] { return std::make_shared<TruncatedNormal>(); }},
      {"variance_scaling", [] { return std::make_shared<VarianceScaling>(); }},
      {"glorot_uniform", [] { return std::make_shared<GlorotUniform>(); }},
      {"glorot_normal", [] { return std::make_shared<GlorotNormal>(); }},
      {"he_normal", [] { return std::make_shared<HeNormal>(); }},
      {"he_uniform", [] { return std::make_shared<HeUniform>(); }},
      {"lecun_normal", [] { return std::make_shared<LecunNormal>(); }},
      {"lecun_uniform", [] { return std::make_shared<LecunUniform>(); }},
      {"orthogonal", [] { return std::make_shared<Orthogonal>(); }},
  };
  static const std::map<std::string, std::string> aliases = {
      {"Zeros", "zeros"},
      {"Ones", "ones"},
      {"Constant", "constant"},
      {"RandomNormal", "random_normal"},
      {"RandomUniform", "random_uniform"},
      {"TruncatedNormal", "truncated_normal"},
      {"VarianceScaling", "variance_scaling"},
      {"GlorotUniform", "glorot_uniform"},
      {"GlorotNormal", "glorot_normal"},
      {"HeNormal", "he_normal"},
      {"HeUniform", "he_uniform"},
      {"LecunNormal", "lecun_normal"},
      {"LecunUniform", "lecun_uniform"},
      {"Orthogonal", "orthogonal"},
  };
  std::string key = name;
  if (auto a = aliases.find(name); a != aliases.end()) key = a->second;
  auto it = table.find(key);
  if (it == table.end()) {
    std::string known;
    for (const auto& [k, f] : table) known.append(known.empty() ? "" : ", ").append(k);
    throw InvalidArgumentError(
        internal::str_cat("Unknown initializer: '", name, "'. Known initializers: ", known));
  }
  return it->second();
}

}  // namespace tfcc::keras::initializers
