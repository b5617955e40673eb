// Training from a folder of image files, as keras.utils.image_dataset_from_directory users do.
// Python it mirrors:
//
//   # Fashion-MNIST written as PNG files, one folder per class:
//   for i, (image, label) in enumerate(zip(x_train, y_train)):
//       tf.io.write_file(f"{root}/train/{label}_{names[label]}/{i}.png",
//       tf.io.encode_png(image[..., None]))
//   train = keras.utils.image_dataset_from_directory(f"{root}/train", color_mode="grayscale",
//                                                    image_size=(28, 28), batch_size=64, seed=1)
//   model = keras.Sequential([keras.Input((28, 28, 1)), layers.RandomFlip("horizontal"),
//                             layers.Rescaling(1 / 255), layers.Conv2D(32, 3, activation="relu"),
//                             layers.MaxPooling2D(), layers.Flatten(),
//                             layers.Dense(64, activation="relu"), layers.Dense(10)])
//   model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True),
//   ["accuracy"]) model.fit(train, epochs=3); model.evaluate(test)
//
// The same model is then trained on the same images straight from the IDX tensors; the two
// accuracies agree (the pixels and labels are the same, only the shuffles differ). By default a
// subset (3,000 training, 1,000 test images) keeps it short; `--full` uses all 70,000.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "tfcc/platform/run_main.h"
#include "tfcc/tfcc.h"

namespace tf = tfcc;
using namespace tfcc::keras;
namespace fs = std::filesystem;

namespace {

const char* kNames[] = {"t-shirt", "trouser", "pullover", "dress", "coat",
                        "sandal",  "shirt",   "sneaker",  "bag",   "ankle_boot"};

// Writes images[i] as <dir>/<label>_<name>/<i>.png.
void write_folder(const fs::path& dir, const tf::Tensor& images, const tf::Tensor& labels,
                  int64_t n) {
  for (int c = 0; c < 10; ++c) fs::create_directories(dir / (std::to_string(c) + "_" + kNames[c]));
  for (int64_t i = 0; i < n; ++i) {
    const int label = static_cast<int>(labels(i).item<int64_t>());
    tf::Tensor png = tf::io::encode_png(tf::reshape(images(i), {28, 28, 1}));
    tf::io::write_file(
        (dir / (std::to_string(label) + "_" + kNames[label]) / (std::to_string(i) + ".png"))
            .string(),
        png);
  }
}

Sequential make_model() {
  return Sequential({
      layers::RandomFlip({.seed = 3, .mode = "horizontal", .input_shape = {28, 28, 1}}),
      layers::Rescaling(1.0 / 255),
      layers::Conv2D(32, 3, {.activation = "relu"}),
      layers::MaxPooling2D(),
      layers::Flatten(),
      layers::Dense(64, {.activation = "relu"}),
      layers::Dense(10),
  });
}

double train_and_evaluate(const tf::data::Dataset& train, const tf::data::Dataset& test,
                          int epochs) {
  tf::random::set_seed(42);
  Sequential model = make_model();
  model.compile({.optimizer = "adam",
                 .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
                 .metrics = {"accuracy"}});
  model.fit(train, {.epochs = epochs, .verbose = 2});
  return model.evaluate(test, {.verbose = 0})[1];
}

}  // namespace

static int example_main(int argc, char** argv) {
  bool full = false;
  for (int i = 1; i < argc; ++i) full = full || std::strcmp(argv[i], "--full") == 0;
  auto [train_xy, test_xy] = datasets::fashion_mnist::load_data();
  const int64_t n_train = full ? 60000 : 3000, n_test = full ? 10000 : 1000;
  const int epochs = full ? 5 : 3;

  const fs::path root =
      fs::temp_directory_path() / ("tfcc_image_folder_" + std::to_string(::getpid()));
  write_folder(root / "train", train_xy.first, train_xy.second, n_train);
  write_folder(root / "test", test_xy.first, test_xy.second, n_test);
  std::printf("Wrote %lld + %lld PNG files under %s\n", static_cast<long long>(n_train),
              static_cast<long long>(n_test), root.string().c_str());

  auto train = utils::image_dataset_from_directory(
      (root / "train").string(),
      {.color_mode = "grayscale", .batch_size = 64, .image_size = {28, 28}, .seed = 1});
  auto test = utils::image_dataset_from_directory(
      (root / "test").string(),
      {.color_mode = "grayscale", .batch_size = 64, .image_size = {28, 28}, .shuffle = false});
  std::printf("class_names[0] = %s, element_spec = %s\n", train.class_names[0].c_str(),
              tf::data::spec_string(train.dataset.element_spec()).c_str());
  const double folder_acc = train_and_evaluate(train.dataset, test.dataset, epochs);

  // The IDX pipeline: the same images and labels as tensors.
  auto as_dataset = [](const tf::Tensor& x, const tf::Tensor& y, int64_t n, bool shuffle) {
    tf::Tensor images = tf::cast(tf::reshape(x(tf::Slice(0, n)), {n, 28, 28, 1}), tf::float32);
    tf::Tensor labels = tf::cast(y(tf::Slice(0, n)), tf::int32);
    auto ds = tf::data::Dataset::from_tensor_slices({images, labels});
    if (shuffle) ds = ds.shuffle(512, {.seed = 1});
    return ds.batch(64);
  };
  const double idx_acc =
      train_and_evaluate(as_dataset(train_xy.first, train_xy.second, n_train, true),
                         as_dataset(test_xy.first, test_xy.second, n_test, false), epochs);
  fs::remove_all(root);
  std::printf("Accuracy from the PNG folder: %.4f, from the IDX tensors: %.4f\n", folder_acc,
              idx_acc);
  // Same data, same model: the accuracies agree within the noise of different shuffles.
  return folder_acc > (full ? 0.85 : 0.6) && std::abs(folder_acc - idx_acc) < 0.08 ? 0 : 1;
}

int main(int argc, char** argv) { return tfcc::run_main(argc, argv, example_main); }
