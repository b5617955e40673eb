// The float32 Conv3D kernels on oneDNN (inside the conv3d family only). Each returns false when
// oneDNN rejects the problem; the caller then runs the C++ loop.
#pragma once

#include "tfcc/ops/conv3d/conv3d_internal.h"
#include "tfcc/ops/linalg/onednn.h"

namespace tfcc::conv3d_onednn {

/// y = conv3d(x, f).
bool forward(const Window3D& g, const float* x, const float* f, float* y);
/// dx = the input gradient of conv3d(., f) given dy.
bool backward_data(const Window3D& g, const float* f, const float* dy, float* dx);
/// df = the filter gradient of conv3d(x, .) given dy.
bool backward_weights(const Window3D& g, const float* x, const float* dy, float* df);

}  // namespace tfcc::conv3d_onednn

namespace tfcc {
/// Counters of the oneDNN 3-D convolution primitive cache.
onednn::CacheStats conv3d_cache_stats();
}  // namespace tfcc
