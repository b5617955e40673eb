// Keras weight regularizers: a penalty computed from a weight and added to model.losses.
//
//   layers::Conv2D(32, 3, {.kernel_regularizer = regularizers::l2(0.02)});
//   regularizers::L2(0.02)(w);          // 0.02 * sum(w^2)  (no 1/2 factor, as Keras)
//   regularizers::get("l1_l2");          // L1L2(l1=0.01, l2=0.01)
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <memory>
#include <string>
#include <type_traits>

#include "tfcc/core/tensor.h"

namespace tfcc::keras::regularizers {

/// A penalty on a weight (or on a layer's output, as an activity regularizer).
class Regularizer {
 public:
  virtual ~Regularizer() = default;
  /// The scalar penalty for `x`.
  virtual Tensor operator()(const Tensor& x) const = 0;
  /// The Keras class name.
  virtual std::string class_name() const = 0;
};

/// l1 * sum(|x|) + l2 * sum(x^2).
class L1L2 : public Regularizer {
 public:
  explicit L1L2(double l1 = 0.0, double l2 = 0.0);
  Tensor operator()(const Tensor& x) const override;
  std::string class_name() const override { return "L1L2"; }
  double l1() const { return l1_; }
  double l2() const { return l2_; }

 private:
  double l1_, l2_;
};
/// l1 * sum(|x|); default 0.01.
class L1 : public L1L2 {
 public:
  explicit L1(double l1 = 0.01) : L1L2(l1, 0.0) {}
  std::string class_name() const override { return "L1"; }
};
/// l2 * sum(x^2); default 0.01.
class L2 : public L1L2 {
 public:
  explicit L2(double l2 = 0.01) : L1L2(0.0, l2) {}
  std::string class_name() const override { return "L2"; }
};

/// tf.keras.regularizers.l1(l1=0.01).
inline L1 l1(double l1 = 0.01) { return L1(l1); }
/// tf.keras.regularizers.l2(l2=0.01).
inline L2 l2(double l2 = 0.01) { return L2(l2); }
/// tf.keras.regularizers.l1_l2(l1=0.01, l2=0.01).
inline L1L2 l1_l2(double l1 = 0.01, double l2 = 0.01) { return L1L2(l1, l2); }

/// "l1", "l2", "l1_l2" (0.01 each) or the class names; InvalidArgumentError otherwise.
std::shared_ptr<const Regularizer> get(const std::string& name);

/// What layer options accept for a regularizer: nothing (the default), a name, a Regularizer
/// value or a shared_ptr.
class Spec {
 public:
  Spec() = default;
  Spec(const char* name) : ptr_(get(name)) {}         // NOLINT: implicit by design
  Spec(const std::string& name) : ptr_(get(name)) {}  // NOLINT
  template <typename R>
  requires std::is_base_of_v<Regularizer, std::decay_t<R>> Spec(R&& r)  // NOLINT
      : ptr_(std::make_shared<std::decay_t<R>>(std::forward<R>(r))) {}
  Spec(std::shared_ptr<const Regularizer> ptr) : ptr_(std::move(ptr)) {}  // NOLINT
  explicit operator bool() const { return ptr_ != nullptr; }
  const Regularizer& operator*() const { return *ptr_; }
  const std::shared_ptr<const Regularizer>& ptr() const { return ptr_; }

 private:
  std::shared_ptr<const Regularizer> ptr_;
};

}  // namespace tfcc::keras::regularizers
#pragma GCC visibility pop
