// Hostile image files: truncated and corrupt data, huge declared sizes. Each must raise a typed
// tfcc error naming the source, before allocating pixel memory for a size it cannot back.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tfcc/io/image/image.h"
#include "tfcc/platform/errors.h"

namespace tfcc::io {
namespace {

namespace fs = std::filesystem;

std::string fixture(const std::string& name) {
  fs::path file(__FILE__);
  if (!file.is_absolute()) file = fs::read_symlink("/proc/self/exe").parent_path() / file;
  std::ifstream f(fs::weakly_canonical(file).parent_path() / "testdata" / name, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// Runs decode_image on `bytes` and returns the error code; fails if nothing is thrown or the
// message does not name the source.
ErrorCode error_of(const std::string& bytes) {
  try {
    decode_image(bytes, {}, "hostile.img");
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("hostile.img"), std::string::npos) << e.what();
    return e.code();
  }
  ADD_FAILURE() << "no error for " << bytes.size() << " bytes";
  return ErrorCode::kUnknown;
}

void put32be(std::string& s, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) s[at + i] = static_cast<char>(v >> (24 - 8 * i));
}

TEST(ImageHostile, TruncatedFilesAreDataLoss) {
  for (std::string name : {"png_rgb8.png", "jpeg_rgb.jpg", "gif_anim.gif", "bmp_rgb24.bmp",
                           "png_rgb16.png", "jpeg_prog.jpg"}) {
    const std::string whole = fixture(name);
    ASSERT_GT(whole.size(), 60u) << name;
    // (A PNG cut inside its final IEND chunk still holds every pixel; TensorFlow and tfcc
    // decode it, so the last cut falls inside the image data.)
    for (size_t keep : {size_t{3}, size_t{10}, size_t{40}, whole.size() / 2, whole.size() - 20}) {
      ErrorCode code = error_of(whole.substr(0, keep));
      EXPECT_TRUE(code == ErrorCode::kDataLoss || code == ErrorCode::kInvalidArgument)
          << name << " cut at " << keep << ": " << error_code_name(code);
    }
  }
}

TEST(ImageHostile, TruncatedJpegRecoversWhenAsked) {
  const std::string whole = fixture("jpeg_rgb.jpg");
  const std::string cut = whole.substr(0, whole.size() * 3 / 4);
  EXPECT_THROW(decode_jpeg(cut, {}, "cut.jpg"), DataLossError);
  Tensor partial = decode_jpeg(cut, {.try_recover_truncated = true, .acceptable_fraction = 0.0f});
  EXPECT_EQ(partial.shape(), (Shape{24, 30, 3}));
  // This small file's rows all need the lost data, so no fraction above 0 is reached.
  EXPECT_THROW(decode_jpeg(cut, {.try_recover_truncated = true, .acceptable_fraction = 0.5f}),
               DataLossError);
}

TEST(ImageHostile, CorruptBytesNeverCrash) {
  for (std::string name : {"png_palette.png", "jpeg_gray.jpg", "gif_still.gif", "bmp_rgba32.bmp"}) {
    const std::string whole = fixture(name);
    for (size_t at = 0; at < whole.size(); at += 7) {
      std::string bad = whole;
      bad[at] = static_cast<char>(bad[at] ^ 0x5a);
      try {
        decode_image(bad, {}, name);
      } catch (const Error&) {
      }
    }
  }
}

TEST(ImageHostile, HugeDeclaredSizesAreRefusedBeforeAllocating) {
  // PNG: the IHDR says 60000 x 60000 RGBA (14 GB); the CRC is fixed up so libpng reads it.
  std::string png = fixture("png_rgba8.png");
  put32be(png, 16, 60000);
  put32be(png, 20, 60000);
  uint32_t crc = 0xffffffffu;  // CRC-32 of "IHDR" + 13 data bytes
  for (size_t i = 12; i < 12 + 17; ++i) {
    crc ^= static_cast<unsigned char>(png[i]);
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  put32be(png, 29, ~crc);
  EXPECT_EQ(error_of(png), ErrorCode::kResourceExhausted);
  // GIF: a 65535 x 65535 logical screen.
  std::string gif = fixture("gif_still.gif");
  gif[6] = gif[7] = gif[8] = gif[9] = '\xff';
  EXPECT_EQ(error_of(gif), ErrorCode::kResourceExhausted);
  // BMP: 2^30 x 2^30 pixels.
  std::string bmp = fixture("bmp_rgb24.bmp");
  bmp[21] = bmp[25] = 0x40;
  EXPECT_EQ(error_of(bmp), ErrorCode::kResourceExhausted);
  // JPEG: the SOF0 marker's height and width set to 65000.
  std::string jpg = fixture("jpeg_rgb.jpg");
  size_t sof = jpg.find("\xff\xc0");
  ASSERT_NE(sof, std::string::npos);
  for (size_t at : {sof + 5, sof + 7}) {
    jpg[at] = static_cast<char>(0xfd);
    jpg[at + 1] = static_cast<char>(0xe8);
  }
  EXPECT_EQ(error_of(jpg), ErrorCode::kResourceExhausted);
}

TEST(ImageHostile, UnknownAndEmptyInputs) {
  EXPECT_EQ(error_of(""), ErrorCode::kInvalidArgument);
  EXPECT_EQ(error_of("hello, not an image"), ErrorCode::kInvalidArgument);
  EXPECT_THROW(decode_png(std::string_view("\x89PNG\r\n\x1a\n")), DataLossError);
  EXPECT_THROW(decode_png(fixture("png_rgb8.png"), 2), InvalidArgumentError);
  EXPECT_THROW(decode_jpeg(fixture("jpeg_rgb.jpg"), {.ratio = 3}), InvalidArgumentError);
  EXPECT_THROW(decode_image(fixture("gif_still.gif"), {.channels = 1}), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::io
