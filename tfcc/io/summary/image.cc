// image(): converts to uint8 like tf.image.convert_image_dtype(saturate=True) and PNG-encodes.
#include <cmath>

#include "tfcc/io/summary/png_encoder.h"
#include "tfcc/io/summary/summary.h"
#include "tfcc/io/summary/summary_trace.h"
#include "tfcc/platform/errors.h"

namespace tfcc::summary {
namespace {

// Float to uint8 as TensorFlow does it: scale by 255.5 in the input's precision (so the cast's
// truncation rounds values near a level to it), clamp to [0, 255], truncate. NaN becomes 0.
template <typename T>
uint8_t float_to_uint8(T x) {
  T scaled = x * static_cast<T>(255.5);
  if (!(scaled > 0)) return 0;
  if (scaled >= 255) return 255;
  return static_cast<uint8_t>(scaled);
}

std::vector<uint8_t> to_uint8(const Tensor& data, size_t count) {
  std::vector<uint8_t> out(count);
  if (data.dtype() == uint8) {
    const uint8_t* p = data.data<uint8_t>();
    out.assign(p, p + count);
  } else if (data.dtype() == float64) {
    const double* p = data.data<double>();
    for (size_t i = 0; i < count; ++i) out[i] = float_to_uint8(p[i]);
  } else {
    std::vector<float> values = data.to_vector<float>();  // float32, or bfloat16 widened
    for (size_t i = 0; i < count; ++i) out[i] = float_to_uint8(values[i]);
  }
  return out;
}

}  // namespace

bool image(const std::string& name, const Tensor& data, Step step, int max_outputs,
           const std::string& description) {
  if (!should_record_summaries()) return false;
  auto where = [&] { return tfcc::internal::str_cat("summary::image(\"", name, "\"): "); };
  TFCC_CHECK_ARG(data.defined(), where(), "data is a null tensor");
  TFCC_CHECK_ARG(max_outputs >= 0, where(), "max_outputs must be non-negative, got ", max_outputs);
  if (internal::tracing()) {
    const PartialShape shape = data.partial_shape();
    TFCC_CHECK_ARG(!shape.rank_known() || shape.rank() == 4, where(),
                   "data must have rank 4 [k, h, w, c], got shape ", shape.to_string());
    Tensor in[] = {data};
    internal::add_summary_node(
        "WriteSummary", in, step,
        [name, max_outputs, description](std::span<const Tensor> v, int64_t s) {
          image(name, v[0], s, max_outputs, description);
        });
    return true;
  }
  TFCC_CHECK_ARG(data.rank() == 4, where(), "data must have rank 4 [k, h, w, c], got shape ",
                 data.shape().to_string());
  DType d = data.dtype();
  TFCC_CHECK_ARG(d == uint8 || d == float32 || d == float64 || d == bfloat16, where(),
                 "data must be uint8 or floating point, got ", dtype_name(d));
  const Shape& s = data.shape();
  int64_t k = s.dim(0), h = s.dim(1), w = s.dim(2), c = s.dim(3);
  TFCC_CHECK_ARG(c >= 1 && c <= 4, where(), "images must have 1, 2, 3 or 4 channels, got ", c);
  int64_t n = std::min<int64_t>(k, max_outputs);
  size_t per_image = static_cast<size_t>(h * w * c);
  std::vector<uint8_t> pixels = to_uint8(data, per_image * static_cast<size_t>(n));

  TensorProto t;
  t.dtype = kDtString;
  t.shape = {n + 2};
  t.string_val.push_back(std::to_string(w));
  t.string_val.push_back(std::to_string(h));
  for (int64_t i = 0; i < n; ++i) {
    t.string_val.push_back(encode_png(pixels.data() + per_image * i, h, w, c));
  }
  SummaryMetadata m;
  m.plugin_name = "images";
  m.summary_description = description;
  return write(name, t, std::move(step), m);
}

}  // namespace tfcc::summary
