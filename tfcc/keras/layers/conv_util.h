// Helpers the convolution layers share (conv.cc, separable_conv.cc): Keras padding names to
// TensorFlow's, the channels_last check, the input's channel count, bias + activation, and the
// transposed convolutions' output length. Internal: not part of the public API.
#pragma once

#include <algorithm>
#include <string>

#include "tfcc/keras/activations/activations.h"
#include "tfcc/ops/nn/nn.h"

namespace tfcc::keras::layers::conv_util {

inline std::string tf_padding(const std::string& keras_padding, const std::string& layer) {
  if (keras_padding == "valid") return "VALID";
  if (keras_padding == "same") return "SAME";
  throw InvalidArgumentError(internal::str_cat("Layer '", layer, "': unsupported padding '",
                                               keras_padding, "'; expected 'valid' or 'same'"));
}

inline void check_channels_last(const std::string& data_format, const std::string& layer) {
  if (data_format == "channels_last") return;
  if (data_format == "channels_first") {
    throw UnimplementedError(
        internal::str_cat("Layer '", layer,
                          "': data_format='channels_first' is not supported on CPU (as TF's CPU "
                          "kernels); transpose to channels_last"));
  }
  throw InvalidArgumentError(internal::str_cat("Layer '", layer,
                                               "': data_format must be 'channels_last' or "
                                               "'channels_first', got '",
                                               data_format, "'"));
}

inline int64_t channels_of(const PartialShape& s, int rank, const std::string& layer) {
  TFCC_CHECK_ARG(s.rank_known() && s.rank() == rank, "Input 0 of layer \"", layer,
                 "\" is incompatible with the layer: expected ndim=", rank,
                 ", found ndim=", s.rank_known() ? s.rank() : -1,
                 ". Full shape received: ", s.to_string());
  const int64_t c = s.dim(rank - 1);
  TFCC_CHECK_ARG(c != PartialShape::kUnknown,
                 "The channel dimension of the inputs should be "
                 "defined. The input_shape received is ",
                 s.to_string(), " (layer '", layer, "')");
  return c;
}

inline Tensor finish(Tensor y, const Variable& bias, bool use_bias,
                     const activations::Activation& act) {
  if (use_bias) y = nn::bias_add(y, bias);
  return act(y);
}

inline int64_t deconv_length(int64_t in, int64_t k, int64_t s, int64_t d,
                             const std::string& padding) {
  const int64_t k_eff = k + (k - 1) * (d - 1);
  if (padding == "valid") return in * s + std::max<int64_t>(k_eff - s, 0);
  return in * s;
}

}  // namespace tfcc::keras::layers::conv_util
