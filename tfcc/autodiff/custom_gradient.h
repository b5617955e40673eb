// custom_gradient: a function whose gradient you write yourself, like @tf.custom_gradient.
//
//   auto log1pexp = tfcc::custom_gradient([](const std::vector<tfcc::Tensor>& xs) {
//     auto e = tfcc::exp(xs[0]);
//     return tfcc::CustomGradientResult{
//         tfcc::log(1 + e),
//         [e](const tfcc::Tensor& dy) { return std::vector<tfcc::Tensor>{dy * (1 - 1 / (1 + e))};
//         }};
//   });
//   auto y = log1pexp({x});   // forward as written; backward uses the lambda
//
// The forward computation is not recorded by any tape; the gradient function's ops are, so a
// custom gradient can itself be differentiated by an outer tape.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <functional>
#include <vector>

#include "tfcc/core/tensor.h"

namespace tfcc {

/// What the wrapped function returns: its output and the gradient function, mapping the output's
/// gradient to one gradient per input (undefined Tensor: none).
struct CustomGradientResult {
  Tensor output;
  std::function<std::vector<Tensor>(const Tensor& dy)> grad;
};

using CustomGradientFn = std::function<CustomGradientResult(const std::vector<Tensor>&)>;

/// Wraps `f` so that tapes use its gradient function instead of differentiating its body.
std::function<Tensor(const std::vector<Tensor>&)> custom_gradient(CustomGradientFn f);

}  // namespace tfcc
#pragma GCC visibility pop
