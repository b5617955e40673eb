// The image preprocessing layers: inference passthrough vs training behaviour, as Keras 3.15.
#include "tfcc/keras/layers/image_preprocessing.h"

#include <gtest/gtest.h>

#include "tfcc/ops/array/array.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/image/image.h"
#include "tfcc/ops/random/random.h"
#include "tfcc/platform/errors.h"

namespace tfcc::keras::layers {
namespace {

Tensor images(int64_t n, int64_t h, int64_t w) {
  return random::stateless_uniform({n, h, w, 3}, {1, 2}, 0, 255);
}

TEST(ImagePreprocessing, ResizingAndCenterCropActAlways) {
  Tensor x = images(2, 6, 8);
  Resizing r(3, 4, {.interpolation = "area"});
  EXPECT_EQ(r(x, {.training = false}).to_vector<float>(),
            image::resize(x, {3, 4}, {.method = image::ResizeMethod::kArea}).to_vector<float>());
  // Integer images come back rounded and saturated to their dtype, as Keras does.
  Tensor u8 = cast(x, uint8);
  EXPECT_EQ(Resizing(3, 4)(u8, {.training = false}).dtype(), uint8);
  CenterCrop c(4, 4);
  EXPECT_EQ(c(x, {.training = false}).to_vector<float>(),
            image::crop_to_bounding_box(x, 1, 2, 4, 4).to_vector<float>());
  // Smaller than the target: smart-resized.
  EXPECT_EQ(CenterCrop(10, 10)(x, {.training = false}).shape(), (Shape{2, 10, 10, 3}));
}

TEST(ImagePreprocessing, RandomLayersPassThroughAtInference) {
  Tensor x = images(2, 6, 8);
  EXPECT_EQ(RandomFlip()(x, {.training = false}).to_vector<float>(), x.to_vector<float>());
  EXPECT_EQ(RandomContrast(0.5)(x, {.training = false}).to_vector<float>(), x.to_vector<float>());
  EXPECT_EQ(RandomCrop(3, 3)(x, {.training = false}).shape(), x.shape());
}

TEST(ImagePreprocessing, RandomLayersChangeImagesInTraining) {
  Tensor x = images(8, 6, 8);
  Tensor flipped = RandomFlip({.seed = 1, .mode = "horizontal"})(x, {.training = true});
  Tensor mirror = image::flip_left_right(x);
  int changed = 0;
  for (int64_t i = 0; i < 8; ++i) {
    auto row = flipped(i).to_vector<float>();
    const bool same = row == x(i).to_vector<float>();
    EXPECT_TRUE(same || row == mirror(i).to_vector<float>()) << i;
    changed += same ? 0 : 1;
  }
  EXPECT_GT(changed, 0);
  EXPECT_LT(changed, 8);
  Tensor contrast =
      RandomContrast(std::vector<double>{0.5, 0.5}, {.seed = 2})(x, {.training = true});
  for (float v : contrast.to_vector<float>()) {
    EXPECT_GE(v, 0.0f);
    EXPECT_LE(v, 255.0f);
  }
  EXPECT_NE(contrast.to_vector<float>(), x.to_vector<float>());
  Tensor crop = RandomCrop(3, 5, {.seed = 3})(x, {.training = true});
  EXPECT_EQ(crop.shape(), (Shape{8, 3, 5, 3}));
  EXPECT_EQ(RandomCrop(7, 5)(x, {.training = true}).shape(),
            (Shape{8, 7, 5, 3}));  // taller: resized
}

TEST(ImagePreprocessing, InvalidArguments) {
  EXPECT_THROW(Resizing(0, 3), InvalidArgumentError);
  EXPECT_THROW(Resizing(3, 3, {.interpolation = "cubic"}), InvalidArgumentError);
  EXPECT_THROW(Resizing(3, 3, {.data_format = "channels_first"}), InvalidArgumentError);
  EXPECT_THROW(RandomFlip({.mode = "diagonal"}), InvalidArgumentError);
  EXPECT_THROW(RandomContrast(1.5), InvalidArgumentError);
  EXPECT_THROW(CenterCrop(2, 2)(Tensor::from_vector<float>({1, 2}), {.training = false}),
               InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::keras::layers
