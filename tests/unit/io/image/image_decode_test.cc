// Image decoders against TensorFlow 2.21: every file in testdata/ was decoded by tf.io.decode_*
// with several options (make_image_fixture.py); tfcc must give the same pixels, bit for bit.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "tfcc/io/image/image.h"
#include "tfcc/io/npy/npy.h"
#include "tfcc/platform/errors.h"

namespace tfcc::io {
namespace {

namespace fs = std::filesystem;

fs::path testdata() {
  fs::path file(__FILE__);
  if (!file.is_absolute()) file = fs::read_symlink("/proc/self/exe").parent_path() / file;
  return fs::weakly_canonical(file).parent_path() / "testdata";
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  EXPECT_TRUE(f.good()) << p;
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

std::map<std::string, Tensor> expected(const std::string& name) {
  std::map<std::string, Tensor> out;
  for (auto& [k, v] : decode_npz(slurp(testdata() / (name + ".npz")), name)) out[k] = v;
  return out;
}

void expect_same(const Tensor& want, const Tensor& got, const std::string& what) {
  ASSERT_EQ(want.dtype(), got.dtype()) << what;
  ASSERT_EQ(want.shape(), got.shape()) << what;
  if (want.dtype() == float32) {
    const float* a = want.data<float>();
    const float* b = got.data<float>();
    for (int64_t i = 0; i < want.num_elements(); ++i) ASSERT_EQ(a[i], b[i]) << what << " at " << i;
    return;
  }
  EXPECT_EQ(0, std::memcmp(want.raw_data(), got.raw_data(), want.nbytes()))
      << what << ": pixels differ from TensorFlow's";
}

TEST(ImageDecode, PngMatchesTensorFlow) {
  for (std::string name : {"png_gray8", "png_ga8", "png_rgb8", "png_rgba8", "png_rgb16",
                           "png_gray16", "png_palette", "png_gray1"}) {
    const std::string bytes = slurp(testdata() / (name + ".png"));
    auto want = expected(name);
    for (int c : {0, 1, 3, 4}) {
      const std::string key = tfcc::internal::str_cat("c", c);
      expect_same(want.at(key), decode_png(bytes, c, uint8, name), name + " " + key);
      expect_same(want.at(key + "_u16"), decode_png(bytes, c, int32, name),
                  name + " " + key + "_u16");
    }
    expect_same(want.at("image_c0"), decode_image(bytes, {}, name), name + " decode_image");
    expect_same(want.at("image_f32"), decode_image(bytes, {.dtype = float32}, name),
                name + " decode_image float32");
  }
}

TEST(ImageDecode, JpegMatchesTensorFlow) {
  for (std::string name : {"jpeg_rgb", "jpeg_gray", "jpeg_prog", "jpeg_444"}) {
    const std::string bytes = slurp(testdata() / (name + ".jpg"));
    auto want = expected(name);
    for (int c : {0, 1, 3}) {
      const std::string key = tfcc::internal::str_cat("c", c);
      expect_same(want.at(key), decode_jpeg(bytes, {.channels = c}, name), name + " " + key);
      expect_same(want.at(key + "_ia"),
                  decode_jpeg(bytes, {.channels = c, .dct_method = "INTEGER_ACCURATE"}, name),
                  name + " " + key + "_ia");
      expect_same(want.at(key + "_nofancy"),
                  decode_jpeg(bytes, {.channels = c, .fancy_upscaling = false}, name),
                  name + " " + key + "_nofancy");
      for (int r : {2, 4, 8}) {
        expect_same(want.at(tfcc::internal::str_cat(key, "_r", r)),
                    decode_jpeg(bytes, {.channels = c, .ratio = r}, name),
                    tfcc::internal::str_cat(name, " ", key, " ratio ", r));
      }
    }
    expect_same(want.at("image_c0"), decode_image(bytes, {}, name), name + " decode_image");
    expect_same(want.at("image_f32"), decode_image(bytes, {.dtype = float32}, name),
                name + " decode_image float32");
  }
}

TEST(ImageDecode, GifMatchesTensorFlow) {
  for (std::string name : {"gif_still", "gif_anim"}) {
    const std::string bytes = slurp(testdata() / (name + ".gif"));
    auto want = expected(name);
    expect_same(want.at("frames"), decode_gif(bytes, name), name);
    expect_same(want.at("image_c0"), decode_image(bytes, {}, name), name + " decode_image");
    expect_same(want.at("image_noexpand"), decode_image(bytes, {.expand_animations = false}, name),
                name + " expand_animations=false");
  }
}

TEST(ImageDecode, BmpMatchesTensorFlow) {
  for (std::string name : {"bmp_rgb24", "bmp_rgba32", "bmp_topdown24"}) {
    const std::string bytes = slurp(testdata() / (name + ".bmp"));
    auto want = expected(name);
    for (int c : {0, 3, 4}) {
      const std::string key = tfcc::internal::str_cat("c", c);
      if (!want.count(key)) continue;
      expect_same(want.at(key), decode_bmp(bytes, c, name), name + " " + key);
    }
    expect_same(want.at("image_c0"), decode_image(bytes, {}, name), name + " decode_image");
  }
}

TEST(ImageDecode, TensorOverloadsAndFiles) {
  const fs::path dir = fs::temp_directory_path() / "tfcc_image_decode_test";
  fs::create_directories(dir);
  Tensor bytes = read_file((testdata() / "png_rgb8.png").string());
  EXPECT_EQ(bytes.dtype(), uint8);
  Tensor img = decode_png(bytes);
  write_file((dir / "copy.png").string(), bytes);
  expect_same(img, decode_image(read_file((dir / "copy.png").string())), "written copy");
  EXPECT_THROW(read_file((dir / "missing.png").string()), NotFoundError);
  fs::remove_all(dir);
}

TEST(ImageEncode, PngRoundTrips) {
  for (std::string name : {"png_gray8", "png_ga8", "png_rgb8", "png_rgba8"}) {
    Tensor img = decode_png(slurp(testdata() / (name + ".png")));
    for (int level : {-1, 0, 9}) expect_same(img, decode_png(encode_png(img, level)), name);
  }
  Tensor wide = decode_png(slurp(testdata() / "png_rgb16.png"), 0, int32);
  expect_same(wide, decode_png(encode_png(wide), 0, int32), "16-bit");
  EXPECT_THROW(encode_png(wide, 10), InvalidArgumentError);
  EXPECT_THROW(encode_png(Tensor::from_vector<float>({1, 2}, Shape{1, 1, 2})),
               InvalidArgumentError);
}

TEST(ImageEncode, JpegRoundTripsClosely) {
  Tensor img = decode_png(slurp(testdata() / "png_rgb8.png"));
  for (bool progressive : {false, true}) {
    for (bool chroma : {false, true}) {
      Tensor jpg = encode_jpeg(
          img, {.quality = 100, .progressive = progressive, .chroma_downsampling = chroma});
      Tensor back = decode_jpeg(jpg, {.dct_method = "INTEGER_ACCURATE"});
      ASSERT_EQ(back.shape(), img.shape());
      const uint8_t* a = img.data<uint8_t>();
      const uint8_t* b = back.data<uint8_t>();
      int worst = 0;
      for (int64_t i = 0; i < img.num_elements(); ++i)
        worst = std::max(worst, std::abs(a[i] - b[i]));
      EXPECT_LE(worst, chroma ? 40 : 8) << "progressive " << progressive;
    }
  }
  Tensor gray = decode_png(slurp(testdata() / "png_gray8.png"));
  EXPECT_EQ(decode_jpeg(encode_jpeg(gray, {.quality = 50})).shape(), gray.shape());
  EXPECT_THROW(encode_jpeg(img, {.quality = 101}), InvalidArgumentError);
  EXPECT_THROW(encode_jpeg(decode_png(slurp(testdata() / "png_rgba8.png"))), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::io
