// image_dataset_from_directory against Keras 3.15 on TensorFlow 2.21 (testdata/image_folder and
// testdata/image_folder.npz, written by testdata/make_image_folder_fixture.py): the same files in
// the same order for a seed (shuffle and validation split), the same labels, and images within
// 1e-4 (JPEG files decode bit-exact, resizing rounds within float32).
#include "tfcc/keras/utils/image_dataset.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "tfcc/io/npy/npy.h"
#include "tfcc/keras/utils/smart_resize.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/platform/errors.h"

namespace tfcc::keras::utils {
namespace {

namespace fs = std::filesystem;

fs::path testdata() {
  fs::path file(__FILE__);
  if (!file.is_absolute()) file = fs::read_symlink("/proc/self/exe").parent_path() / file;
  return fs::weakly_canonical(file).parent_path() / "testdata";
}

const std::map<std::string, Tensor>& fixture() {
  static const std::map<std::string, Tensor> arrays = [] {
    std::ifstream f(testdata() / "image_folder.npz", std::ios::binary);
    std::string bytes{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
    std::map<std::string, Tensor> out;
    for (auto& [k, v] : io::decode_npz(bytes, "image_folder.npz")) out[k] = v;
    return out;
  }();
  return arrays;
}

std::vector<std::string> keras_paths(const std::string& key) {
  const Tensor& t = fixture().at(key);
  std::string all(static_cast<const char*>(t.raw_data()), t.nbytes());
  std::vector<std::string> out;
  std::stringstream s(all);
  for (std::string line; std::getline(s, line);) out.push_back(line);
  return out;
}

std::vector<std::string> relative(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const auto& p : paths) out.push_back(fs::relative(p, testdata() / "image_folder").string());
  return out;
}

std::string folder() { return (testdata() / "image_folder").string(); }

TEST(ImageDatasetFromDirectory, SameFilesAndSplitAsKeras) {
  for (std::string subset : {"training", "validation"}) {
    auto d = image_dataset_from_directory(folder(), {.image_size = {8, 10},
                                                     .seed = 123,
                                                     .validation_split = 0.34,
                                                     .subset = subset,
                                                     .verbose = false});
    EXPECT_EQ(relative(d.file_paths), keras_paths("split_" + subset + "_paths")) << subset;
    EXPECT_EQ(d.class_names, (std::vector<std::string>{"cats", "dogs", "zebra"}));
  }
  auto d =
      image_dataset_from_directory(folder(), {.image_size = {8, 10}, .seed = 7, .verbose = false});
  EXPECT_EQ(relative(d.file_paths), keras_paths("seed7_paths"));
  auto [train, val] = image_datasets_from_directory(
      folder(), {.image_size = {8, 10}, .seed = 123, .validation_split = 0.34, .verbose = false});
  EXPECT_EQ(relative(train.file_paths), keras_paths("split_training_paths"));
  EXPECT_EQ(relative(val.file_paths), keras_paths("split_validation_paths"));
  // Batches: every element once, shapes and dtypes as Keras'.
  int64_t seen = 0;
  for (const auto& e : train.dataset) {
    EXPECT_EQ(e[0].dtype(), float32);
    EXPECT_EQ(e[0].shape().dims(), (std::vector<int64_t>{e[0].shape().dim(0), 8, 10, 3}));
    EXPECT_EQ(e[1].dtype(), int32);
    seen += e[0].shape().dim(0);
  }
  EXPECT_EQ(seen, static_cast<int64_t>(train.file_paths.size()));
}

void expect_same_elements(const std::string& name, const ImageDataset& d) {
  EXPECT_EQ(relative(d.file_paths), keras_paths(name + "_paths")) << name;
  const Tensor& xs = fixture().at(name + "_x");
  const Tensor& ys = fixture().at(name + "_y");
  int64_t i = 0;
  for (const auto& e : d.dataset) {
    ASSERT_LT(i, xs.shape().dim(0)) << name;
    Tensor want = xs(i);
    ASSERT_EQ(want.shape(), e[0].shape()) << name;
    ASSERT_EQ(want.dtype(), e[0].dtype()) << name;
    auto a = want.to_vector<double>();
    auto b = e[0].to_vector<double>();
    for (size_t k = 0; k < a.size(); ++k) {
      ASSERT_NEAR(a[k], b[k], 1e-4 * std::max(1.0, std::abs(a[k]))) << name << " element " << i;
    }
    EXPECT_EQ(ys(i).to_vector<double>(), e[1].to_vector<double>()) << name << " label " << i;
    ++i;
  }
  EXPECT_EQ(i, xs.shape().dim(0)) << name;
}

TEST(ImageDatasetFromDirectory, SameImagesAndLabelsAsKeras) {
  ImageDatasetOptions base{.batch_size = 0, .shuffle = false, .verbose = false};
  auto plain = base;
  plain.image_size = {8, 10};
  expect_same_elements("plain", image_dataset_from_directory(folder(), plain));
  auto categorical = base;
  categorical.image_size = {6, 5};
  categorical.label_mode = "categorical";
  categorical.color_mode = "grayscale";
  categorical.interpolation = "bicubic";
  expect_same_elements("categorical", image_dataset_from_directory(folder(), categorical));
  auto crop = base;
  crop.image_size = {7, 7};
  crop.crop_to_aspect_ratio = true;
  crop.interpolation = "area";
  expect_same_elements("crop", image_dataset_from_directory(folder(), crop));
  auto nearest = base;
  nearest.image_size = {5, 9};
  nearest.interpolation = "nearest";
  nearest.class_names = {"zebra", "cats"};
  expect_same_elements("nearest", image_dataset_from_directory(folder(), nearest));
}

TEST(ImageDatasetFromDirectory, SequentialAndParallelDecodingAgree) {
  ImageDatasetOptions o{.batch_size = 3,
                        .image_size = {8, 10},
                        .shuffle = false,
                        .num_parallel_calls = 1,
                        .verbose = false};
  auto one = image_dataset_from_directory(folder(), o).dataset.as_vector();
  o.num_parallel_calls = 2;
  auto two = image_dataset_from_directory(folder(), o).dataset.as_vector();
  ASSERT_EQ(one.size(), two.size());
  for (size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i][0].to_vector<float>(), two[i][0].to_vector<float>());
  }
}

TEST(ImageDatasetFromDirectory, InvalidOptionsAndFolders) {
  EXPECT_THROW(image_dataset_from_directory(folder() + "/missing"), NotFoundError);
  EXPECT_THROW(image_dataset_from_directory(folder(), {.label_mode = "binary", .verbose = false}),
               InvalidArgumentError);
  EXPECT_THROW(image_dataset_from_directory(folder(), {.color_mode = "cmyk"}),
               InvalidArgumentError);
  // rgba: the JPEG files cannot give 4 channels (Keras fails the same way while iterating).
  auto rgba = image_dataset_from_directory(folder(), {.color_mode = "rgba", .verbose = false});
  EXPECT_THROW(rgba.dataset.as_vector(), InvalidArgumentError);
  EXPECT_THROW(
      image_dataset_from_directory(folder(), {.validation_split = 0.2, .subset = "training"}),
      InvalidArgumentError);  // shuffling needs a seed
  EXPECT_THROW(image_dataset_from_directory(folder(), {.class_names = {"cats", "horses"}}),
               InvalidArgumentError);
  EXPECT_THROW(image_dataset_from_directory(folder(), {.interpolation = "cubic"}),
               InvalidArgumentError);
  EXPECT_THROW(
      image_dataset_from_directory(folder() + "/zebra",
                                   {.labels = "none", .label_mode = "none", .subset = "training"}),
      InvalidArgumentError);
  auto images_only = image_dataset_from_directory(
      folder() + "/zebra", {.labels = "none", .label_mode = "none", .verbose = false});
  EXPECT_EQ(images_only.dataset.element_spec().size(), 1u);
  EXPECT_EQ(images_only.file_paths.size(), 2u);
}

TEST(SmartResize, CropsToTheTargetRatio) {
  Tensor img = Tensor::from_vector<float>(std::vector<float>(6 * 12 * 1, 1.0f), Shape{6, 12, 1});
  Tensor r = smart_resize(img, {3, 3});
  EXPECT_EQ(r.shape(), (Shape{3, 3, 1}));
  EXPECT_EQ(r.to_vector<float>(), std::vector<float>(9, 1.0f));
}

}  // namespace
}  // namespace tfcc::keras::utils
