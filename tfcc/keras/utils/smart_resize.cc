#include "tfcc/keras/utils/smart_resize.h"

#include <algorithm>

#include "tfcc/ops/image/image.h"
#include "tfcc/platform/errors.h"

namespace tfcc::keras::utils {

Tensor smart_resize(const Tensor& images, std::array<int64_t, 2> size,
                    const std::string& interpolation) {
  const PartialShape s = images.partial_shape();
  TFCC_CHECK_ARG(s.rank() == 3 || s.rank() == 4,
                 "smart_resize: images must be (height, width, channels) or (batch, height, width, "
                 "channels), got shape ",
                 s.to_string());
  TFCC_CHECK_ARG(size[0] > 0 && size[1] > 0, "smart_resize: size must be positive");
  const int64_t h = s.dims()[size_t(s.rank() - 3)], w = s.dims()[size_t(s.rank() - 2)];
  TFCC_CHECK_ARG(h > 0 && w > 0, "smart_resize: the images' height and width must be known, got ",
                 s.to_string());
  int64_t crop_h = static_cast<int64_t>(double(w * size[0]) / double(size[1]));
  crop_h = std::max<int64_t>(std::min(h, crop_h), 1);
  int64_t crop_w = static_cast<int64_t>(double(h * size[1]) / double(size[0]));
  crop_w = std::max<int64_t>(std::min(w, crop_w), 1);
  const auto top = static_cast<int64_t>(double(h - crop_h) / 2);
  const auto left = static_cast<int64_t>(double(w - crop_w) / 2);
  Tensor cropped = image::crop_to_bounding_box(images, top, left, crop_h, crop_w);
  return image::resize(cropped, size, {.method = image::resize_method(interpolation)});
}

}  // namespace tfcc::keras::utils
