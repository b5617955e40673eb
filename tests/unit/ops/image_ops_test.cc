// tf.image ops against TensorFlow 2.21 (testdata/image_ops.npz, written by
// testdata/make_image_ops_fixture.py): values within 1e-5 (relative to max(1, |value|)), integer
// images exactly, resize gradients included; plus tracing, argument checks and the random
// variants' properties.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

#include "tfcc/autodiff/gradient_tape.h"
#include "tfcc/graph/graph.h"
#include "tfcc/io/npy/npy.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/image/image.h"
#include "tfcc/ops/operators.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/platform/errors.h"

namespace tfcc::image {
namespace {

namespace fs = std::filesystem;

const std::map<std::string, Tensor>& fixture() {
  static const std::map<std::string, Tensor> arrays = [] {
    fs::path file(__FILE__);
    if (!file.is_absolute()) file = fs::read_symlink("/proc/self/exe").parent_path() / file;
    std::ifstream f(fs::weakly_canonical(file).parent_path() / "testdata/image_ops.npz",
                    std::ios::binary);
    std::string bytes{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
    std::map<std::string, Tensor> out;
    for (auto& [k, v] : io::decode_npz(bytes, "image_ops.npz")) out[k] = v;
    return out;
  }();
  return arrays;
}

const Tensor& want(const std::string& key) {
  auto it = fixture().find(key);
  if (it == fixture().end()) throw NotFoundError("fixture has no " + key);
  return it->second;
}

void expect_close(const std::string& key, const Tensor& got, double tol = 1e-5) {
  const Tensor& w = want(key);
  ASSERT_EQ(w.shape(), got.shape()) << key;
  ASSERT_EQ(w.dtype(), got.dtype()) << key;
  const auto a = w.to_vector<double>();
  const auto b = got.to_vector<double>();
  const bool integer = w.dtype() == uint8 || w.dtype() == int32;
  int bad = 0;
  size_t first = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double err = std::abs(a[i] - b[i]);
    if (integer ? err != 0 : err > tol * std::max(1.0, std::abs(a[i]))) {
      if (bad++ == 0) first = i;
    }
  }
  if (bad > 0) {
    ADD_FAILURE() << key << ": " << bad << " values differ; first [" << first << "]: TensorFlow "
                  << a[first] << ", tfcc " << b[first];
  }
}

TEST(ImageOps, ResizeMatchesTensorFlow) {
  const Tensor& f = want("f");
  const char* names[] = {"bilinear", "nearest",  "bicubic",  "area",
                         "lanczos3", "lanczos5", "gaussian", "mitchellcubic"};
  for (const char* m : names) {
    for (bool aa : {false, true}) {
      for (auto [h, w] : {std::pair{5, 4}, {11, 13}, {7, 20}}) {
        const std::string key = tfcc::internal::str_cat("resize_", m, "_", int(aa), "_", h, "x", w);
        expect_close(key, resize(f, {h, w}, {.method = resize_method(m), .antialias = aa}));
      }
    }
    expect_close(std::string("resize_u8_") + m,
                 resize(want("u8"), {4, 11}, {.method = resize_method(m)}));
  }
  expect_close("resize_preserve", resize(f, {14, 14}, {.preserve_aspect_ratio = true}));
  // The comparison can fail: bicubic is not bilinear.
  EXPECT_NONFATAL_FAILURE(
      expect_close("resize_bilinear_0_5x4", resize(f, {5, 4}, {.method = ResizeMethod::kBicubic})),
      "TensorFlow");
}

TEST(ImageOps, ResizeGradientsMatchTensorFlow) {
  for (const char* m : {"bilinear", "nearest", "bicubic", "lanczos3"}) {
    Tensor x = want("f");
    GradientTape tape;
    tape.watch(x);
    Tensor y =
        resize(x, {5, 4}, {.method = resize_method(m), .antialias = std::string(m) == "lanczos3"});
    Tensor loss = reduce_sum(y * want("g"));
    expect_close(std::string("grad_") + m, tape.gradient(loss, x));
  }
}

TEST(ImageOps, GeometryMatchesTensorFlow) {
  const Tensor& f = want("f");
  Tensor img = f(0);
  expect_close("crop", crop_to_bounding_box(f, 1, 2, 4, 5));
  expect_close("pad", pad_to_bounding_box(img, 2, 1, 10, 12));
  expect_close("crop_or_pad_a", resize_with_crop_or_pad(f, 4, 12));
  expect_close("crop_or_pad_b", resize_with_crop_or_pad(img, 10, 5));
  expect_close("central", central_crop(img, 0.6));
  expect_close("central_b", central_crop(f, 0.33));
  expect_close("flip_lr", flip_left_right(f));
  expect_close("flip_ud", flip_up_down(img));
  for (int k : {1, 2, 3}) expect_close(tfcc::internal::str_cat("rot90_", k), rot90(f, k));
  expect_close("transpose", image::transpose(img));
}

TEST(ImageOps, ColorMatchesTensorFlow) {
  const Tensor& f = want("f");
  const Tensor& u8 = want("u8");
  expect_close("brightness_f", adjust_brightness(f, 0.1));
  expect_close("brightness_u8", adjust_brightness(u8, 0.1));
  expect_close("contrast_f", adjust_contrast(f, 1.7));
  expect_close("contrast_u8", adjust_contrast(u8, 0.6));
  expect_close("gamma_f", adjust_gamma(f, 0.8, 1.2));
  expect_close("gamma_u8", adjust_gamma(u8, 1.5));
  expect_close("saturation_f", adjust_saturation(f, 0.6));
  expect_close("saturation_f2", adjust_saturation(f, 1.8));
  expect_close("saturation_u8", adjust_saturation(u8, 1.3));
  expect_close("hue_f", adjust_hue(f, 0.23));
  expect_close("hue_f2", adjust_hue(f, -0.4));
  expect_close("hue_u8", adjust_hue(u8, 0.1));
  expect_close("gray_f", rgb_to_grayscale(f));
  expect_close("gray_u8", rgb_to_grayscale(u8));
  expect_close("gray_to_rgb", grayscale_to_rgb(want("gray_f")));
  expect_close("hsv", rgb_to_hsv(f));
  expect_close("rgb", hsv_to_rgb(want("hsv")));
  expect_close("std_f", per_image_standardization(f));
  expect_close("std_u8", per_image_standardization(u8));
  expect_close("convert_u8_f32", convert_image_dtype(u8, float32));
  expect_close("convert_f32_u8", convert_image_dtype(f * 1.2f - 0.1f, uint8, true));
  expect_close("convert_f32_u8_nosat", convert_image_dtype(f, uint8));
  expect_close("convert_u8_i32", convert_image_dtype(u8, int32));
  expect_close("convert_i32_u8", convert_image_dtype(convert_image_dtype(u8, int32), uint8));
}

TEST(ImageOps, RandomVariants) {
  const Tensor& f = want("f");
  // Stateless: the same seed gives the same result; a flip is one of the two images.
  for (int64_t s = 0; s < 6; ++s) {
    Tensor a = stateless_random_flip_left_right(f, {s, 3});
    Tensor b = stateless_random_flip_left_right(f, {s, 3});
    EXPECT_EQ(a.to_vector<float>(), b.to_vector<float>());
    for (int64_t i = 0; i < 2; ++i) {
      auto row = a(i).to_vector<float>();
      EXPECT_TRUE(row == f(i).to_vector<float>() ||
                  row == flip_left_right(f(i)).to_vector<float>());
    }
  }
  Tensor bright = stateless_random_brightness(f, 0.2, {1, 2});
  const double delta = (bright - f).to_vector<float>()[0];
  EXPECT_LE(std::abs(delta), 0.2);
  EXPECT_EQ(bright.to_vector<float>(),
            stateless_random_brightness(f, 0.2, {1, 2}).to_vector<float>());
  EXPECT_EQ(stateless_random_crop(f, {2, 3, 4, 3}, {5, 6}).shape(), (Shape{2, 3, 4, 3}));
  EXPECT_EQ(stateless_random_contrast(f, 0.5, 1.5, {1, 1}).shape(), f.shape());
  EXPECT_EQ(stateless_random_saturation(f, 0.5, 1.5, {1, 1}).shape(), f.shape());
  EXPECT_EQ(stateless_random_hue(f, 0.2, {1, 1}).shape(), f.shape());
  EXPECT_EQ(stateless_random_flip_up_down(f(0), {4, 4}).shape(), f(0).shape());
  // Stateful: shapes and ranges.
  EXPECT_EQ(random_flip_left_right(f, 7).shape(), f.shape());
  EXPECT_EQ(random_flip_up_down(f(0)).shape(), f(0).shape());
  Tensor c = random_crop(f, {1, 4, 4, 3});
  EXPECT_EQ(c.shape(), (Shape{1, 4, 4, 3}));
  EXPECT_EQ(random_brightness(want("u8"), 0.1).dtype(), uint8);
  EXPECT_EQ(random_contrast(f, 0.2, 0.4).shape(), f.shape());
  EXPECT_EQ(random_saturation(f, 0.2, 0.4).shape(), f.shape());
  EXPECT_EQ(random_hue(f, 0.5).shape(), f.shape());
  EXPECT_THROW(random_hue(f, 0.6), InvalidArgumentError);
  EXPECT_THROW(random_crop(f, {3, 4, 4, 3}), InvalidArgumentError);
}

TEST(ImageOps, InvalidArguments) {
  const Tensor& f = want("f");
  EXPECT_THROW(resize(f, {0, 4}), InvalidArgumentError);
  EXPECT_THROW(resize(Tensor::from_vector<float>({1, 2}), {2, 2}), InvalidArgumentError);
  EXPECT_THROW(resize_method("cubic"), InvalidArgumentError);
  EXPECT_THROW(crop_to_bounding_box(f, 5, 0, 4, 4), InvalidArgumentError);
  EXPECT_THROW(pad_to_bounding_box(f, 0, 0, 3, 3), InvalidArgumentError);
  EXPECT_THROW(central_crop(f, 0), InvalidArgumentError);
  EXPECT_THROW(rgb_to_grayscale(want("gray_f")), InvalidArgumentError);
  EXPECT_THROW(adjust_gamma(f, -1), InvalidArgumentError);
}

TEST(ImageOps, ResizeAndAugmentTrace) {
  auto fn = tfcc::function([](Tensor x) {
    Tensor y = resize(x, {5, 4}, {.method = ResizeMethod::kBicubic});
    return stateless_random_flip_left_right(adjust_contrast(y, 1.7), {1, 2});
  });
  const Tensor& f = want("f");
  Tensor eager = stateless_random_flip_left_right(
      adjust_contrast(resize(f, {5, 4}, {.method = ResizeMethod::kBicubic}), 1.7), {1, 2});
  EXPECT_EQ(fn(f).to_vector<float>(), eager.to_vector<float>());
}

}  // namespace
}  // namespace tfcc::image
