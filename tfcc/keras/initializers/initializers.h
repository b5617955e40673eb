// Keras weight initializers with tf.keras' defaults and formulas.
//
//   namespace init = tfcc::keras::initializers;
//   auto w = init::GlorotUniform()({784, 64}, tfcc::float32);   // U(-sqrt(6/(784+64)), +...)
//   auto b = init::get("zeros")->operator()({64}, tfcc::float32);
//   layers::Dense(64, {.kernel_initializer = init::HeNormal()});   // or = "he_normal"
//
// Fans: 2-D (in, out); conv kernels (k..., in, out) multiply both by the receptive field size;
// 1-D: both are shape[0]. Random streams follow tfcc::random (TF's exact numbers cannot be matched;
// the distributions are the same).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "tfcc/core/tensor.h"

namespace tfcc::keras::initializers {

/// Makes the initial value of a weight.
class Initializer {
 public:
  virtual ~Initializer() = default;
  /// A tensor of `shape` and `dtype`.
  virtual Tensor operator()(const Shape& shape, DType dtype) const = 0;
  /// The Keras class name ("GlorotUniform").
  virtual std::string class_name() const = 0;
};

/// Zeros.
class Zeros : public Initializer {
 public:
  Tensor operator()(const Shape& shape, DType dtype) const override;
  std::string class_name() const override { return "Zeros"; }
};
/// Ones.
class Ones : public Initializer {
 public:
  Tensor operator()(const Shape& shape, DType dtype) const override;
  std::string class_name() const override { return "Ones"; }
};
/// Every element `value`.
class Constant : public Initializer {
 public:
  explicit Constant(double value = 0) : value_(value) {}
  Tensor operator()(const Shape& shape, DType dtype) const override;
  std::string class_name() const override { return "Constant"; }

 private:
  double value_;
};
/// N(mean, stddev); defaults 0, 0.05.
class RandomNormal : public Initializer {
 public:
  explicit RandomNormal(double mean = 0, double stddev = 0.05, std::optional<int64_t> seed = {})
      : mean_(mean), stddev_(stddev), seed_(seed) {}
  Tensor operator()(const Shape& shape, DType dtype) const override;
  std::string class_name() const override { return "RandomNormal"; }

 private:
  double mean_, stddev_;
  std::optional<int64_t> seed_;
};
/// U(minval, maxval); defaults -0.05, 0.05.
class RandomUniform : public Initializer {
 public:
  explicit RandomUniform(double minval = -0.05, double maxval = 0.05,
                         std::optional<int64_t> seed = {})
      : minval_(minval), maxval_(maxval), seed_(seed) {}
  Tensor operator()(const Shape& shape, DType dtype) const override;
  std::string class_name() const override { return "RandomUniform"; }

 private:
  double minval_, maxval_;
  std::optional<int64_t> seed_;
};
/// N(mean, stddev) truncated at two standard deviations; defaults 0, 0.05.
class TruncatedNormal : public Initializer {
 public:
  explicit TruncatedNormal(double mean = 0, double stddev = 0.05, std::optional<int64_t> seed = {})
      : mean_(mean), stddev_(stddev), seed_(seed) {}
  Tensor operator()(const Shape& shape, DType dtype) const override;
  std::string class_name() const override { return "TruncatedNormal"; }

 private:
  double mean_, stddev_;
  std::optional<int64_t> seed_;
};

/// Options of VarianceScaling.
struct VarianceScalingOptions {
  double scale = 1.0;
  std::string mode = "fan_in";                    ///< fan_in, fan_out or fan_avg
  std::string distribution = "truncated_normal";  ///< truncated_normal, untruncated_normal, uniform
  std::optional<int64_t> seed;
};
/// Scale / n with n picked by `mode`: truncated normal with stddev
/// sqrt(scale/n)/0.8796256610342398, normal with stddev sqrt(scale/n), or U(-sqrt(3 scale/n),
/// +sqrt(3 scale/n)).
class VarianceScaling : public Initializer {
 public:
  explicit VarianceScaling(VarianceScalingOptions options = {});
  Tensor operator()(const Shape& shape, DType dtype) const override;
  std::string class_name() const override { return class_name_; }

 protected:
  VarianceScaling(VarianceScalingOptions options, std::string class_name);

 private:
  VarianceScalingOptions options_;
  std::string class_name_;
};
/// VarianceScaling(1, fan_avg, uniform): U(-sqrt(6/(in+out)), +sqrt(6/(in+out))).
class GlorotUniform : public VarianceScaling {
 public:
  explicit GlorotUniform(std::optional<int64_t> seed = {});
};
/// VarianceScaling(1, fan_avg, truncated_normal).
class GlorotNormal : public VarianceScaling {
 public:
  explicit GlorotNormal(std::optional<int64_t> seed = {});
};
/// VarianceScaling(2, fan_in, truncated_normal).
class HeNormal : public VarianceScaling {
 public:
  explicit HeNormal(std::optional<int64_t> seed = {});
};
/// VarianceScaling(2, fan_in, uniform).
class HeUniform : public VarianceScaling {
 public:
  explicit HeUniform(std::optional<int64_t> seed = {});
};
/// VarianceScaling(1, fan_in, truncated_normal).
class LecunNormal : public VarianceScaling {
 public:
  explicit LecunNormal(std::optional<int64_t> seed = {});
};
/// VarianceScaling(1, fan_in, uniform).
class LecunUniform : public VarianceScaling {
 public:
  explicit LecunUniform(std::optional<int64_t> seed = {});
};
/// A (semi-)orthogonal matrix times `gain`, from the QR decomposition of a normal matrix of shape
/// (prod(shape[:-1]), shape[-1]) with the signs of R's diagonal folded into Q, as Keras.
class Orthogonal : public Initializer {
 public:
  explicit Orthogonal(double gain = 1.0, std::optional<int64_t> seed = {})
      : gain_(gain), seed_(seed) {}
  Tensor operator()(const Shape& shape, DType dtype) const override;
  std::string class_name() const override { return "Orthogonal"; }

 private:
  double gain_;
  std::optional<int64_t> seed_;
};

/// The initializer called `name` ("glorot_uniform", "he_normal", "zeros", "ones", "orthogonal",
/// "random_normal", "random_uniform", "truncated_normal", "lecun_normal", ...; the CamelCase class
/// names are accepted too). Unknown names raise InvalidArgumentError listing the known ones.
std::shared_ptr<const Initializer> get(const std::string& name);

/// (fan_in, fan_out) of a weight shape, as Keras computes them.
std::pair<double, double> compute_fans(const Shape& shape);

/// What layer options accept for an initializer: a name, an Initializer value, or a shared_ptr.
class Spec {
 public:
  Spec(const char* name) : ptr_(get(name)) {}         // NOLINT: implicit by design
  Spec(const std::string& name) : ptr_(get(name)) {}  // NOLINT
  template <typename I>
  requires std::is_base_of_v<Initializer, std::decay_t<I>> Spec(I&& init)  // NOLINT
      : ptr_(std::make_shared<std::decay_t<I>>(std::forward<I>(init))) {}
  Spec(std::shared_ptr<const Initializer> ptr) : ptr_(std::move(ptr)) {}  // NOLINT
  const Initializer& operator*() const { return *ptr_; }
  const Initializer* operator->() const { return ptr_.get(); }
  const std::shared_ptr<const Initializer>& ptr() const { return ptr_; }

 private:
  std::shared_ptr<const Initializer> ptr_;
};

}  // namespace tfcc::keras::initializers
#pragma GCC visibility pop
