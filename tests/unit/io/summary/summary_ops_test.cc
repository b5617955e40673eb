#include <gtest/gtest.h>
#include <png.h>

#include <cmath>
#include <cstring>

#include "tests/unit/io/summary/summary_test_util.h"
#include "tfcc/io/summary/event_file_reader.h"
#include "tfcc/io/summary/summary.h"
#include "tfcc/platform/errors.h"

namespace tfcc::summary {
namespace {

class SummaryOpsTest : public testing::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    writer_ = create_file_writer(path("run"));
    writer_.set_as_default(0);
  }
  void TearDown() override {
    create_noop_writer().set_as_default();
    experimental::set_step(Step());
    TempDirTest::TearDown();
  }
  // The values written so far (skipping the file_version record).
  std::vector<std::pair<int64_t, SummaryValue>> values() {
    writer_.flush();
    std::vector<std::pair<int64_t, SummaryValue>> out;
    for (const Event& e : read_events(writer_.path())) {
      for (const auto& v : e.summary) out.emplace_back(e.step, v);
    }
    return out;
  }
  SummaryValue only_value() {
    auto v = values();
    EXPECT_EQ(v.size(), 1u);
    return v.empty() ? SummaryValue{} : v[0].second;
  }

  SummaryWriter writer_;
};

TEST_F(SummaryOpsTest, ScalarIsARankZeroFloatWithScalarsMetadata) {
  EXPECT_TRUE(scalar("loss", 0.1, 42, "mean loss"));
  SummaryValue v = only_value();
  EXPECT_EQ(v.tag, "loss");
  ASSERT_TRUE(v.tensor && v.metadata);
  EXPECT_EQ(v.tensor->dtype, kDtFloat);
  EXPECT_TRUE(v.tensor->shape.empty());
  ASSERT_EQ(v.tensor->tensor_content.size(), 4u);
  float f;
  std::memcpy(&f, v.tensor->tensor_content.data(), 4);
  EXPECT_EQ(f, 0.1f);
  EXPECT_EQ(v.metadata->plugin_name, "scalars");
  EXPECT_EQ(v.metadata->plugin_content, "");
  EXPECT_EQ(v.metadata->summary_description, "mean loss");
  EXPECT_FALSE(v.simple_value);
}

TEST_F(SummaryOpsTest, ScalarFromTensorsOfAnyNumericType) {
  scalar("a", Tensor::scalar<int32_t>(3), 1);
  scalar("b", Tensor::scalar<double>(2.5), 2);
  auto v = values();
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].second.tensor->to_doubles(), (std::vector<double>{3}));
  EXPECT_EQ(v[1].first, 2);
  EXPECT_EQ(v[1].second.tensor->to_doubles(), (std::vector<double>{2.5}));
  EXPECT_THROW(scalar("c", Tensor::from_vector<float>({1, 2}), 3), InvalidArgumentError);
  EXPECT_THROW(scalar("c", Tensor::from_vector<float>({1}), 3), InvalidArgumentError);  // rank 1
  EXPECT_THROW(scalar("c", Tensor(), 3), InvalidArgumentError);
}

TEST(HistogramBuckets, TensorBoardsBucketing) {
  std::vector<double> data = {0, 1, 2, 3, 4, 4, 10};
  auto rows = histogram_buckets(data, 5);  // width 2: [0,2) [2,4) [4,6) [6,8) [8,10]
  std::vector<double> expected = {0, 2, 2, 2, 4, 2, 4, 6, 2, 6, 8, 0, 8, 10, 1};
  EXPECT_EQ(rows, expected);
  // Constant data: every edge is the value, the last bucket has every count.
  EXPECT_EQ(histogram_buckets(std::vector<double>{3, 3, 3}, 2),
            (std::vector<double>{3, 3, 0, 3, 3, 3}));
  // Empty data: all-zero rows; zero or negative buckets: no rows.
  EXPECT_EQ(histogram_buckets({}, 2), (std::vector<double>(6, 0.0)));
  EXPECT_TRUE(histogram_buckets(data, 0).empty());
  EXPECT_TRUE(histogram_buckets(data, -4).empty());
}

// Edges are min + (width * i) rounded twice, like numpy.linspace and TF's LinSpace: a fused
// multiply-add would give -2.4999999999999996 for this edge.
TEST(HistogramBuckets, EdgesRoundLikeLinspace) {
  auto rows = histogram_buckets(std::vector<double>{-10, 15}, 30);
  EXPECT_EQ(rows[9 * 3], -2.5);
  EXPECT_EQ(rows[8 * 3 + 1], -2.5);
  EXPECT_EQ(rows[29 * 3 + 1], 15);
}

TEST(HistogramBuckets, CountsAddUpAndEdgesTile) {
  std::vector<double> data;
  for (int i = 0; i < 1000; ++i) data.push_back(std::sin(i * 0.37) * 3 + 0.1 * i);
  auto rows = histogram_buckets(data, 30);
  ASSERT_EQ(rows.size(), 90u);
  double total = 0;
  for (size_t i = 0; i < 30; ++i) {
    total += rows[i * 3 + 2];
    if (i > 0) {
      EXPECT_EQ(rows[i * 3], rows[(i - 1) * 3 + 1]);
    }
  }
  EXPECT_EQ(total, 1000);
  EXPECT_EQ(rows[0], *std::min_element(data.begin(), data.end()));
  EXPECT_EQ(rows[89 - 1], *std::max_element(data.begin(), data.end()));
}

TEST_F(SummaryOpsTest, HistogramIsAFloat64KBy3Tensor) {
  EXPECT_TRUE(histogram("w", Tensor::from_vector<float>({0, 1, 2, 3, 4, 4, 10}), 3, 5));
  SummaryValue v = only_value();
  EXPECT_EQ(v.tensor->dtype, kDtDouble);
  EXPECT_EQ(v.tensor->shape, (std::vector<int64_t>{5, 3}));
  EXPECT_EQ(v.tensor->to_doubles(),
            (std::vector<double>{0, 2, 2, 2, 4, 2, 4, 6, 2, 6, 8, 0, 8, 10, 1}));
  EXPECT_EQ(v.metadata->plugin_name, "histograms");
}

TEST_F(SummaryOpsTest, HistogramDefaultsToThirtyBucketsAndRejectsNaN) {
  histogram("w", Tensor::from_vector<double>({1, 2, 3}), 1);
  EXPECT_EQ(only_value().tensor->shape, (std::vector<int64_t>{30, 3}));
  EXPECT_THROW(histogram("w", Tensor::from_vector<float>({1, NAN}), 1), InvalidArgumentError);
}

std::vector<uint8_t> decode_png(const std::string& png, int* width, int* height, int channels) {
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  EXPECT_TRUE(png_image_begin_read_from_memory(&image, png.data(), png.size())) << image.message;
  static const png_uint_32 kFormats[] = {PNG_FORMAT_GRAY, PNG_FORMAT_GA, PNG_FORMAT_RGB,
                                         PNG_FORMAT_RGBA};
  image.format = kFormats[channels - 1];
  *width = static_cast<int>(image.width);
  *height = static_cast<int>(image.height);
  std::vector<uint8_t> pixels(PNG_IMAGE_SIZE(image));
  EXPECT_TRUE(png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr)) << image.message;
  return pixels;
}

TEST_F(SummaryOpsTest, ImageIsAStringTensorOfWidthHeightAndPngs) {
  // Two 2x3 RGB images, uint8; max_outputs 1 keeps the first.
  std::vector<uint8_t> pixels(2 * 2 * 3 * 3);
  for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<uint8_t>(i * 7);
  Tensor data = Tensor::from_vector<uint8_t>(pixels, Shape{2, 2, 3, 3});
  EXPECT_TRUE(image("inputs", data, 4, 1, "two images"));
  SummaryValue v = only_value();
  EXPECT_EQ(v.tensor->dtype, kDtString);
  EXPECT_EQ(v.tensor->shape, (std::vector<int64_t>{3}));
  ASSERT_EQ(v.tensor->string_val.size(), 3u);
  EXPECT_EQ(v.tensor->string_val[0], "3");  // width first
  EXPECT_EQ(v.tensor->string_val[1], "2");
  EXPECT_EQ(v.tensor->string_val[2].substr(0, 8), "\x89PNG\r\n\x1a\n");
  int w = 0, h = 0;
  auto decoded = decode_png(v.tensor->string_val[2], &w, &h, 3);
  EXPECT_EQ(w, 3);
  EXPECT_EQ(h, 2);
  EXPECT_EQ(decoded, std::vector<uint8_t>(pixels.begin(), pixels.begin() + 18));
  EXPECT_EQ(v.metadata->plugin_name, "images");
}

TEST_F(SummaryOpsTest, FloatImagesAreScaledAndSaturatedLikeConvertImageDtype) {
  Tensor data =
      Tensor::from_vector<float>({0.0f, 1.0f, 0.5f, -3.0f, 7.0f, 0.999f}, Shape{1, 2, 3, 1});
  image("gray", data, 0);
  SummaryValue v = only_value();
  int w = 0, h = 0;
  auto decoded = decode_png(v.tensor->string_val.at(2), &w, &h, 1);
  // x * 255.5 truncated, clamped to [0, 255].
  EXPECT_EQ(decoded, (std::vector<uint8_t>{0, 255, 127, 0, 255, 255}));
}

TEST_F(SummaryOpsTest, ImageRejectsBadShapesAndTypes) {
  EXPECT_THROW(image("x", Tensor::from_vector<float>({1, 2, 3}), 0), InvalidArgumentError);
  EXPECT_THROW(image("x", Tensor::from_vector<float>(std::vector<float>(5), Shape{1, 1, 1, 5}), 0),
               InvalidArgumentError);
  EXPECT_THROW(image("x", Tensor::from_vector<int32_t>({1}, Shape{1, 1, 1, 1}), 0),
               InvalidArgumentError);
  EXPECT_THROW(image("x", Tensor::from_vector<float>({1}, Shape{1, 1, 1, 1}), 0, -1),
               InvalidArgumentError);
  // max_outputs 0: only the dimensions.
  EXPECT_TRUE(image("x", Tensor::from_vector<float>({1}, Shape{1, 1, 1, 1}), 0, 0));
  EXPECT_EQ(only_value().tensor->string_val, (std::vector<std::string>{"1", "1"}));
}

TEST_F(SummaryOpsTest, TextIsAStringTensor) {
  EXPECT_TRUE(text("notes", "**bold**", 1));
  EXPECT_TRUE(text("table", std::vector<std::string>{"a", "b"}, 2));
  auto v = values();
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].second.tensor->dtype, kDtString);
  EXPECT_TRUE(v[0].second.tensor->shape.empty());
  EXPECT_EQ(v[0].second.tensor->string_val, (std::vector<std::string>{"**bold**"}));
  EXPECT_EQ(v[0].second.metadata->plugin_name, "text");
  EXPECT_EQ(v[1].second.tensor->shape, (std::vector<int64_t>{2}));
}

TEST_F(SummaryOpsTest, WriteTakesAnyTensorAndMetadata) {
  TensorProto t;
  t.dtype = kDtInt64;
  t.int64_val = {9};
  SummaryMetadata m;
  m.plugin_name = "custom";
  m.plugin_content = "\x08\x02";
  EXPECT_TRUE(write("x", t, 5, m));
  SummaryValue v = only_value();
  EXPECT_EQ(v.tensor->to_doubles(), (std::vector<double>{9}));
  EXPECT_EQ(v.metadata->plugin_content, "\x08\x02");
}

}  // namespace
}  // namespace tfcc::summary
