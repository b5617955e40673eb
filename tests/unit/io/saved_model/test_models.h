// Small models shared by the saved_model tests: an MLP, a CNN (conv, pool, batch norm) and a
// function with cond and while_loop, each a Module with a traced serving function.
#pragma once

#include <unistd.h>

#include <string>

#include "tfcc/control_flow/control_flow.h"
#include "tfcc/graph/trace/function.h"
#include "tfcc/module/module.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/conv/conv.h"
#include "tfcc/ops/linalg/linalg.h"
#include "tfcc/ops/nn/nn.h"
#include "tfcc/ops/operators.h"
#include "tfcc/ops/pool/pool.h"
#include "tfcc/ops/random/random.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"
#include "tfcc/platform/file.h"

namespace tfcc::saved_model::testing_models {

inline std::string temp_dir(const std::string& name) {
  std::string dir = ::tfcc::internal::str_cat(::testing::TempDir(), "tfcc_saved_model_test_",
                                              ::getpid(), "/", name);
  make_dirs(dir);
  return dir;
}

class Dense : public Module {
 public:
  Dense(int64_t in, int64_t out, int64_t seed) : Module("dense") {
    w_ = add_variable("kernel", random::stateless_normal({in, out}, {seed, 1}));
    b_ = add_variable("bias", random::stateless_normal({out}, {seed, 2}));
  }
  Tensor operator()(const Tensor& x) const { return matmul(x, w_) + b_; }
  Variable w_, b_;
};

class Mlp : public Module {
 public:
  Mlp() : Module("mlp") {
    l1_ = track_module(std::make_shared<Dense>(4, 8, 1), "l1");
    l2_ = track_module(std::make_shared<Dense>(8, 3, 2), "l2");
  }
  Tensor operator()(const Tensor& x) const { return (*l2_)(relu((*l1_)(x))); }
  ConcreteFunction serving() const {
    auto f = tfcc::function([this](Tensor x) { return (*this)(x); }, {.name = "mlp_serve"});
    return f.get_concrete_function(TensorSpec{{-1, 4}, float32, "x"});
  }
  std::shared_ptr<Dense> l1_, l2_;
};

// conv 3x3 (4 filters) -> relu -> max pool 2x2 -> batch norm (inference) -> dense 10.
class Cnn : public Module {
 public:
  Cnn() : Module("cnn") {
    k_ = add_variable("conv_kernel", random::stateless_normal({3, 3, 1, 4}, {7, 1}));
    gamma_ = add_variable("bn_gamma", random::stateless_uniform({4}, {7, 2}) + 0.5f);
    beta_ = add_variable("bn_beta", random::stateless_normal({4}, {7, 3}));
    mean_ = add_variable("bn_moving_mean", random::stateless_normal({4}, {7, 4}), false);
    var_ = add_variable("bn_moving_variance", random::stateless_uniform({4}, {7, 5}) + 1.0f, false);
    dense_ = track_module(std::make_shared<Dense>(3 * 3 * 4, 10, 8), "dense");
  }
  Tensor operator()(const Tensor& x) const {
    Tensor h = relu(conv2d(x, k_, {1}, "VALID"));
    h = max_pool2d(h, {2}, {2}, "VALID");
    h = nn::fused_batch_norm(h, gamma_, beta_, mean_, var_, {.is_training = false}).y;
    return (*dense_)(reshape(h, {-1, 3 * 3 * 4}));
  }
  ConcreteFunction serving() const {
    auto f = tfcc::function([this](Tensor x) { return (*this)(x); }, {.name = "cnn_serve"});
    return f.get_concrete_function(TensorSpec{{-1, 8, 8, 1}, float32, "images"});
  }
  Variable k_, gamma_, beta_, mean_, var_;
  std::shared_ptr<Dense> dense_;
};

// y = x * scale when sum(x) > 0 else -x; then doubled while its sum stays below 100 (at most 8
// times); returns (y, iterations).
class Looper : public Module {
 public:
  Looper() : Module("looper") { scale_ = add_variable("scale", Tensor::scalar<float>(1.5f)); }
  ConcreteFunction serving() const {
    auto f = tfcc::function(
        [this](Tensor x) {
          Tensor y = cond(
              greater(reduce_sum(x), 0.0f), [&] { return x * scale_.read_value(); },
              [&] { return -x; });
          auto [out, n] =
              while_loop([](const Tensor& v, const Tensor&) { return less(reduce_sum(v), 100.0f); },
                         [](const Tensor& v, const Tensor& i) {
                           return std::tuple{v * 2.0f, i + Tensor::scalar<int32_t>(1)};
                         },
                         std::tuple{y, Tensor::scalar<int32_t>(0)}, {.maximum_iterations = 8});
          return std::vector<Tensor>{out, n};
        },
        {.name = "looper_serve"});
    return f.get_concrete_function(TensorSpec{{-1}, float32, "x"});
  }
  Variable scale_;
};

}  // namespace tfcc::saved_model::testing_models
