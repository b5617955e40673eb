// tf.image.resize as separable sampling: for each output row (then column) a few input rows with
// weights, computed exactly as TensorFlow's kernels compute them (ResizeBilinear,
// ResizeNearestNeighbor and ResizeBicubic with half-pixel centres, ResizeArea, ScaleAndTranslate),
// then applied with gather + multiply + reduce_sum so that the result traces and differentiates.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/image/image.h"
#include "tfcc/ops/image/image_internal.h"
#include "tfcc/ops/operators.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/platform/errors.h"

namespace tfcc::image {
namespace {

// For each output position, `taps` input indices and weights (zero weights pad short spans).
struct Taps {
  int64_t taps = 0;
  std::vector<int32_t> index;  // out_size * taps
  std::vector<float> weight;   // out_size * taps
};

Taps bilinear_taps(int64_t in, int64_t out) {
  Taps t{2, std::vector<int32_t>(size_t(out * 2)), std::vector<float>(size_t(out * 2))};
  const float scale = static_cast<float>(in) / static_cast<float>(out);
  for (int64_t i = 0; i < out; ++i) {
    const float pos = (static_cast<float>(i) + 0.5f) * scale - 0.5f;
    const float lo = std::floor(pos);
    const float lerp = pos - lo;
    t.index[size_t(2 * i)] = static_cast<int32_t>(std::max<int64_t>(int64_t(lo), 0));
    t.index[size_t(2 * i + 1)] =
        static_cast<int32_t>(std::min<int64_t>(int64_t(std::ceil(pos)), in - 1));
    t.weight[size_t(2 * i)] = 1.0f - lerp;
    t.weight[size_t(2 * i + 1)] = lerp;
  }
  return t;
}

std::vector<int32_t> nearest_index(int64_t in, int64_t out) {
  std::vector<int32_t> idx(static_cast<size_t>(out));
  const float scale = static_cast<float>(in) / static_cast<float>(out);
  for (int64_t i = 0; i < out; ++i) {
    const float pos = std::floor((static_cast<float>(i) + 0.5f) * scale);
    idx[size_t(i)] = static_cast<int32_t>(std::clamp<int64_t>(int64_t(pos), 0, in - 1));
  }
  return idx;
}

// Keys' cubic (A = -0.5), tabulated at 1/1024 steps as TensorFlow's ResizeBicubic does.
const std::vector<float>& keys_table() {
  static const std::vector<float> table = [] {
    constexpr int kSize = 1024;
    constexpr float A = -0.5f;
    std::vector<float> t((kSize + 1) * 2);
    for (int i = 0; i <= kSize; ++i) {
      float x = static_cast<float>(i) / kSize;
      t[size_t(i * 2)] = ((A + 2) * x - (A + 3)) * x * x + 1;
      x += 1.0f;
      t[size_t(i * 2 + 1)] = ((A * x - 5 * A) * x + 8 * A) * x - 4 * A;
    }
    return t;
  }();
  return table;
}

Taps bicubic_taps(int64_t in, int64_t out) {
  constexpr int kSize = 1024;
  const std::vector<float>& c = keys_table();
  Taps t{4, std::vector<int32_t>(size_t(out * 4)), std::vector<float>(size_t(out * 4))};
  const float scale = static_cast<float>(in) / static_cast<float>(out);
  for (int64_t i = 0; i < out; ++i) {
    const float pos = (static_cast<float>(i) + 0.5f) * scale - 0.5f;
    const int64_t loc = static_cast<int64_t>(std::floor(pos));
    const float delta = pos - std::floor(pos);
    const int64_t off = std::lrint(delta * kSize);
    const float raw[4] = {c[size_t(off * 2 + 1)], c[size_t(off * 2)], c[size_t((kSize - off) * 2)],
                          c[size_t((kSize - off) * 2 + 1)]};
    float w[4];
    float sum = 0;
    for (int k = 0; k < 4; ++k) {
      const int64_t want = loc - 1 + k;
      const int64_t got = std::clamp<int64_t>(want, 0, in - 1);
      t.index[size_t(4 * i + k)] = static_cast<int32_t>(got);
      w[k] = got == want ? raw[k] : 0.0f;
      sum += w[k];
    }
    if (std::abs(sum) >= 1000.0f * std::numeric_limits<float>::min()) {
      const float inv = 1.0f / sum;
      for (float& v : w) v *= inv;
    }
    for (int k = 0; k < 4; ++k) t.weight[size_t(4 * i + k)] = w[k];
  }
  return t;
}

Taps area_taps(int64_t in, int64_t out) {
  const float scale = static_cast<float>(in) / static_cast<float>(out);
  int64_t taps = 1;
  for (int64_t i = 0; i < out; ++i) {
    const float a = static_cast<float>(i) * scale, b = static_cast<float>(i + 1) * scale;
    taps = std::max<int64_t>(taps, int64_t(std::ceil(b)) - int64_t(std::floor(a)));
  }
  Taps t{taps, std::vector<int32_t>(size_t(out * taps), 0),
         std::vector<float>(size_t(out * taps), 0)};
  for (int64_t i = 0; i < out; ++i) {
    const float a = static_cast<float>(i) * scale, b = static_cast<float>(i + 1) * scale;
    const int64_t start = int64_t(std::floor(a)), end = int64_t(std::ceil(b));
    for (int64_t j = start; j < end; ++j) {
      const float part =
          std::min(static_cast<float>(j + 1), b) - std::max(static_cast<float>(j), a);
      t.index[size_t(i * taps + j - start)] =
          static_cast<int32_t>(std::clamp<int64_t>(j, 0, in - 1));
      t.weight[size_t(i * taps + j - start)] = part / scale;
    }
  }
  return t;
}

// ScaleAndTranslate's kernels (TensorFlow's sampling_kernels.h), on |x|.
float kernel_value(ResizeMethod m, bool box, float x) {
  constexpr float kPi = 3.14159265359f;
  x = std::abs(x);
  if (box) return x < 0.5f ? 1.0f : (x == 0.5f ? 0.5f : 0.0f);
  switch (m) {
    case ResizeMethod::kBilinear:  // triangle
      return x < 1.0f ? 1.0f - x : 0.0f;
    case ResizeMethod::kBicubic:  // Keys cubic
      if (x >= 2.0f) return 0.0f;
      if (x >= 1.0f) return ((-0.5f * x + 2.5f) * x - 4.0f) * x + 2.0f;
      return ((1.5f * x - 2.5f) * x) * x + 1.0f;
    case ResizeMethod::kLanczos3:
    case ResizeMethod::kLanczos5: {
      const float r = m == ResizeMethod::kLanczos3 ? 3.0f : 5.0f;
      if (x > r) return 0.0f;
      if (x <= 1e-3f) return 1.0f;
      return r * std::sin(kPi * x) * std::sin(kPi * x / r) / (kPi * kPi * x * x);
    }
    case ResizeMethod::kGaussian: {
      constexpr float kRadius = 1.5f;
      constexpr float kSigma = kRadius / 3.0f;
      if (x >= kRadius) return 0.0f;
      return std::exp(-x * x / (2.0f * kSigma * kSigma));
    }
    case ResizeMethod::kMitchellCubic:
      if (x >= 2.0f) return 0.0f;
      if (x >= 1.0f) {
        return (((-7.0f / 18.0f) * x + 2.0f) * x - 10.0f / 3.0f) * x + 16.0f / 9.0f;
      }
      return (((7.0f / 6.0f) * x - 2.0f) * x) * x + 8.0f / 9.0f;
    default:
      return 0.0f;
  }
}

float kernel_radius(ResizeMethod m) {
  switch (m) {
    case ResizeMethod::kBilinear:
      return 1.0f;
    case ResizeMethod::kLanczos3:
      return 3.0f;
    case ResizeMethod::kLanczos5:
      return 5.0f;
    case ResizeMethod::kGaussian:
      return 1.5f;
    default:
      return 2.0f;  // Keys and Mitchell cubics
  }
}

Taps scale_translate_taps(int64_t in, int64_t out, ResizeMethod m, bool antialias) {
  const float scale = static_cast<float>(out) / static_cast<float>(in);
  const float inv_scale = 1.0f / scale;
  const float kernel_scale = antialias ? std::max(inv_scale, 1.0f) : 1.0f;
  const float radius = kernel_radius(m);
  const int64_t span =
      std::min<int64_t>(2 * static_cast<int64_t>(std::ceil(radius * kernel_scale)) + 1, in);
  Taps t{span, std::vector<int32_t>(size_t(out * span), 0),
         std::vector<float>(size_t(out * span), 0)};
  std::vector<float> w;
  for (int64_t i = 0; i < out; ++i) {
    const float sample = (static_cast<float>(i) + 0.5f) * inv_scale;
    if (sample < 0 || sample > static_cast<float>(in)) continue;
    int64_t start = static_cast<int64_t>(std::ceil(sample - radius * kernel_scale - 0.5f));
    int64_t end = static_cast<int64_t>(std::floor(sample + radius * kernel_scale - 0.5f));
    start = std::clamp<int64_t>(start, 0, in - 1);
    end = std::clamp<int64_t>(end, 0, in - 1) + 1;
    w.clear();
    float total = 0;
    for (int64_t s = start; s < end && s - start < span; ++s) {
      const float pos = static_cast<float>(s) + 0.5f - sample;
      const float v = kernel_value(m, false, std::abs(pos * (1.0f / kernel_scale)));
      total += v;
      w.push_back(v);
    }
    if (std::abs(total) < 1000.0f * std::numeric_limits<float>::min()) continue;
    const float inv = 1.0f / total;
    for (size_t k = 0; k < w.size(); ++k) {
      t.index[size_t(i * span) + k] = static_cast<int32_t>(start + int64_t(k));
      t.weight[size_t(i * span) + k] = w[k] * inv;
    }
  }
  return t;
}

Taps taps_for(int64_t in, int64_t out, const ResizeOptions& o) {
  switch (o.method) {
    case ResizeMethod::kBilinear:
      return o.antialias ? scale_translate_taps(in, out, o.method, true) : bilinear_taps(in, out);
    case ResizeMethod::kBicubic:
      return o.antialias ? scale_translate_taps(in, out, o.method, true) : bicubic_taps(in, out);
    case ResizeMethod::kArea:
      return area_taps(in, out);
    default:
      return scale_translate_taps(in, out, o.method, o.antialias);
  }
}

// Applies `t` along `axis` (1: height, 2: width) of a rank-4 float tensor.
Tensor apply_taps(const Tensor& x, int axis, const Taps& t, int64_t out, Loc loc) {
  Tensor idx = Tensor::from_vector(t.index, Shape{out * t.taps});
  Tensor g = gather(x, idx, axis, 0, loc);
  std::vector<int64_t> shape = x.partial_shape().dims();
  std::vector<int64_t> split(shape.begin(), shape.end());
  split[size_t(axis)] = out;
  split.insert(split.begin() + axis + 1, t.taps);
  std::vector<int64_t> wshape(split.size(), 1);
  wshape[size_t(axis)] = out;
  wshape[size_t(axis) + 1] = t.taps;
  for (size_t i = 0; i < split.size(); ++i) {
    if (split[i] < 0) split[i] = -1;  // the batch may be unknown in a trace
  }
  Tensor w = cast(Tensor::from_vector(t.weight, Shape(wshape)), x.dtype(), loc);
  return reduce_sum(reshape(g, split, loc) * w, {axis + 1}, false, loc);
}

}  // namespace

ResizeMethod resize_method(const std::string& name) {
  if (name == "bilinear") return ResizeMethod::kBilinear;
  if (name == "nearest") return ResizeMethod::kNearest;
  if (name == "bicubic") return ResizeMethod::kBicubic;
  if (name == "area") return ResizeMethod::kArea;
  if (name == "lanczos3") return ResizeMethod::kLanczos3;
  if (name == "lanczos5") return ResizeMethod::kLanczos5;
  if (name == "gaussian") return ResizeMethod::kGaussian;
  if (name == "mitchellcubic") return ResizeMethod::kMitchellCubic;
  throw InvalidArgumentError("resize: unknown method '" + name +
                             "' (bilinear, nearest, bicubic, area, lanczos3, lanczos5, gaussian, "
                             "mitchellcubic)");
}

Tensor resize(const Tensor& images, std::array<int64_t, 2> size, const ResizeOptions& o, Loc loc) {
  const auto [x, batched] = internal::as_batch(images, "resize", loc);
  const std::vector<int64_t> dims = x.partial_shape().dims();
  const int64_t h = dims[1], w = dims[2];
  TFCC_CHECK_ARG(h >= 0 && w >= 0, "resize: the images' height and width must be known, got ",
                 x.partial_shape().to_string());
  TFCC_CHECK_ARG(size[0] > 0 && size[1] > 0, "resize: size must be positive, got [", size[0], ", ",
                 size[1], "]");
  TFCC_CHECK_ARG(h > 0 && w > 0, "resize: cannot resize an empty image of shape ",
                 x.partial_shape().to_string());
  int64_t oh = size[0], ow = size[1];
  if (o.preserve_aspect_ratio) {
    const float sh = static_cast<float>(oh) / static_cast<float>(h);
    const float sw = static_cast<float>(ow) / static_cast<float>(w);
    const float s = std::min(sh, sw);
    oh = static_cast<int64_t>(std::nearbyint(s * static_cast<float>(h)));
    ow = static_cast<int64_t>(std::nearbyint(s * static_cast<float>(w)));
    oh = std::max<int64_t>(oh, 1);
    ow = std::max<int64_t>(ow, 1);
  }
  TFCC_CHECK_ARG(oh <= (int64_t{1} << 24) && ow <= (int64_t{1} << 24), "resize: size [", oh, ", ",
                 ow, "] is too large");
  Tensor y;
  if (o.method == ResizeMethod::kNearest) {
    y = gather(x, Tensor::from_vector(nearest_index(h, oh)), 1, 0, loc);
    y = gather(y, Tensor::from_vector(nearest_index(w, ow)), 2, 0, loc);
  } else {
    Tensor f = x.dtype() == float64 ? x : cast(x, float32, loc);
    y = apply_taps(f, 1, taps_for(h, oh, o), oh, loc);
    y = apply_taps(y, 2, taps_for(w, ow, o), ow, loc);
  }
  return batched ? y : squeeze(y, {0}, loc);
}

}  // namespace tfcc::image
