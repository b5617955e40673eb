// The float32 convolution kernels on oneDNN (inside the conv family only). Each returns false
// when oneDNN rejects the problem; the caller then runs the C++ loop.
#pragma once

#include <string>

#include "tfcc/ops/conv/conv_internal.h"

namespace tfcc::conv_onednn {

/// A fused activation applied by a post-op ("" = none); `alpha` is LeakyRelu's slope.
struct Activation {
  std::string name;
  float alpha = 0.2f;
};

/// y = act(conv(x, f) + bias); bias may be null (then no bias and no activation unless given).
bool forward(const ConvGeometry& g, const float* x, const float* f, const float* bias,
             const Activation& act, float* y);
/// dx = the input gradient of conv(., f) given dy.
bool backward_data(const ConvGeometry& g, const float* f, const float* dy, float* dx);
/// df = the filter gradient of conv(x, .) given dy.
bool backward_weights(const ConvGeometry& g, const float* x, const float* dy, float* df);

/// The oneDNN post-op algorithm of an activation name; false if unknown.
bool eltwise_algorithm(const Activation& act, dnnl::algorithm* alg, float* alpha, float* beta);

}  // namespace tfcc::conv_onednn
