// keras::applications against Keras 3: each model's name, summary() totals, output shape, and
// every layer's name, class and parameter count in model.layers order equal the references that
// keras_reference.py wrote from TensorFlow 2.21's keras.applications (reference/<case>.txt).
#include "tfcc/keras/applications/applications.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "tfcc/keras/engine/backend.h"
#include "tfcc/platform/errors.h"
#include "tfcc/tfcc.h"

namespace tfcc::keras {
namespace {

namespace fs = std::filesystem;
namespace apps = applications;

struct Reference {
  std::string model, output;
  int64_t total = 0, trainable = 0;
  std::vector<std::string> layers;  // "name Class params"
};

// reference/ beside this file. __FILE__ may be relative to the folder the binary is built in
// (ccache's base_dir rewriting).
Reference read_reference(const std::string& which) {
  fs::path file(__FILE__);
  if (!file.is_absolute()) file = fs::read_symlink("/proc/self/exe").parent_path() / file;
  std::ifstream in(fs::weakly_canonical(file).parent_path() / "reference" / (which + ".txt"));
  EXPECT_TRUE(in.good()) << "no reference for " << which;
  Reference r;
  std::string line, key;
  for (int i = 0; i < 4 && std::getline(in, line); ++i) {
    std::istringstream fields(line);
    fields >> key;
    if (key == "model") fields >> r.model;
    if (key == "total") fields >> r.total;
    if (key == "trainable") fields >> r.trainable;
    if (key == "output") r.output = line.substr(7);
  }
  while (std::getline(in, line)) r.layers.push_back(line);
  return r;
}

std::string with_commas(int64_t n) {
  const std::string digits = std::to_string(n);
  std::string s;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s.push_back(',');
    s.push_back(digits[i]);
  }
  return s;
}

void expect_like_keras(const std::string& which, const std::function<Model()>& build) {
  SCOPED_TRACE(which);
  const Reference want = read_reference(which);
  backend::clear_session();  // default names as in a fresh Keras session
  Model model = build();
  EXPECT_EQ(model.name(), want.model);
  const std::string summary = model.summary_string();
  EXPECT_NE(summary.find("Total params: " + with_commas(want.total) + "\n"), std::string::npos)
      << summary.substr(summary.size() - 300);
  EXPECT_NE(summary.find("Trainable params: " + with_commas(want.trainable) + "\n"),
            std::string::npos);
  EXPECT_EQ(model.count_params(), want.total);
  ASSERT_EQ(model.outputs().size(), 1u);
  EXPECT_EQ(model.outputs()[0].shape().to_string(), want.output);
  std::vector<std::string> got;
  for (const auto& layer : model.layers()) {
    got.push_back(layer->name() + " " + layer->class_name() + " " +
                  std::to_string(layer->count_params()));
  }
  ASSERT_EQ(got.size(), want.layers.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], want.layers[i]) << "layer " << i;
}

TEST(ApplicationsTest, MobileNetV2) {
  expect_like_keras("mobilenet_v2", [] { return apps::MobileNetV2(); });
  expect_like_keras("mobilenet_v2_035_96_avg", [] {
    return apps::MobileNetV2(
        {.include_top = false, .input_shape = {96, 96, 3}, .pooling = "avg", .alpha = 0.35});
  });
  expect_like_keras("mobilenet_v2_130_classes10", [] {
    return apps::MobileNetV2({.input_shape = {64, 80, 3}, .classes = 10, .alpha = 1.3});
  });
}

TEST(ApplicationsTest, ResNet50) {
  expect_like_keras("resnet50", [] { return apps::ResNet50(); });
  expect_like_keras("resnet50_64_max", [] {
    return apps::ResNet50({.include_top = false, .input_shape = {64, 64, 3}, .pooling = "max"});
  });
}

TEST(ApplicationsTest, ResNet50V2) {
  expect_like_keras("resnet50_v2", [] { return apps::ResNet50V2(); });
}

TEST(ApplicationsTest, VGG16) {
  expect_like_keras("vgg16", [] { return apps::VGG16(); });
  expect_like_keras("vgg16_notop_avg", [] {
    return apps::VGG16({.include_top = false, .input_shape = {64, 64, 3}, .pooling = "avg"});
  });
}

TEST(ApplicationsTest, DenseNet121) {
  expect_like_keras("densenet121", [] { return apps::DenseNet121(); });
}

TEST(ApplicationsTest, EfficientNetB0) {
  expect_like_keras("efficientnet_b0", [] { return apps::EfficientNetB0(); });
}

TEST(ApplicationsTest, RunsOnABatch) {
  Model model = apps::MobileNetV2({.input_shape = {32, 32, 3},
                                   .classes = 5,
                                   .classifier_activation = "softmax",
                                   .alpha = 0.35});
  Tensor y = model(ones({2, 32, 32, 3}), {.training = false});
  EXPECT_EQ(y.shape(), Shape({2, 5}));
  // Softmax rows sum to one.
  for (float s : reduce_sum(y, {1}).to_vector<float>()) EXPECT_NEAR(s, 1.0f, 1e-5f);
}

TEST(ApplicationsTest, InvalidArguments) {
  EXPECT_THROW(apps::ResNet50({.input_shape = {16, 16, 3}}), InvalidArgumentError);
  EXPECT_THROW(apps::ResNet50({.input_shape = {64, 64}}), InvalidArgumentError);
  EXPECT_THROW(apps::ResNet50({.input_shape = {-1, -1, 3}}), InvalidArgumentError);
  EXPECT_THROW(apps::VGG16({.include_top = false, .pooling = "mean"}), InvalidArgumentError);
  EXPECT_THROW(apps::MobileNetV2({.weights = "imagenet"}), UnimplementedError);
  EXPECT_THROW(apps::MobileNetV2({.weights = "/nonexistent/w.weights.h5"}), NotFoundError);
  EXPECT_THROW(apps::MobileNetV2({.alpha = 0}), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::keras
