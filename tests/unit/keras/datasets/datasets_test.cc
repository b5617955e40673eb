// keras::datasets::*::load_data: whole-tensor splits as keras.datasets returns them.
#include "tfcc/keras/datasets/datasets.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"

namespace tfcc::keras {
namespace {

// An IDX file of unsigned bytes: magic 0x0000 08 <rank>, big-endian dimensions, data.
std::string idx_u8(const std::vector<uint32_t>& dims, const std::vector<uint8_t>& data) {
  std::string out = {0, 0, 0x08, static_cast<char>(dims.size())};
  for (uint32_t d : dims) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>(d >> shift));
  }
  out.append(data.begin(), data.end());
  return out;
}

TEST(KerasDatasetsTest, MnistFromAFolder) {
  const std::string dir = testing::TempDir() + "keras_mnist_" + std::to_string(getpid());
  make_dirs(dir);
  std::vector<uint8_t> train_images(3 * 28 * 28), test_images(2 * 28 * 28);
  for (size_t i = 0; i < train_images.size(); ++i) train_images[i] = static_cast<uint8_t>(i % 251);
  write_file_atomic(dir + "/train-images-idx3-ubyte", idx_u8({3, 28, 28}, train_images));
  write_file_atomic(dir + "/train-labels-idx1-ubyte", idx_u8({3}, {7, 0, 9}));
  write_file_atomic(dir + "/t10k-images-idx3-ubyte", idx_u8({2, 28, 28}, test_images));
  write_file_atomic(dir + "/t10k-labels-idx1-ubyte", idx_u8({2}, {1, 2}));
  auto [train, test] = datasets::mnist::load_data(dir);
  auto [x_train, y_train] = train;
  EXPECT_EQ(x_train.dtype(), uint8);
  EXPECT_EQ(x_train.shape(), Shape({3, 28, 28}));
  EXPECT_EQ(x_train.to_vector<uint8_t>()[300], 300 % 251);
  EXPECT_EQ(y_train.dtype(), uint8);
  EXPECT_EQ(y_train.to_vector<uint8_t>(), (std::vector<uint8_t>{7, 0, 9}));
  EXPECT_EQ(test.first.shape(), Shape({2, 28, 28}));
  EXPECT_EQ(test.second.to_vector<uint8_t>(), (std::vector<uint8_t>{1, 2}));
  // A label of 10 or more is a damaged file.
  write_file_atomic(dir + "/t10k-labels-idx1-ubyte", idx_u8({2}, {1, 12}));
  EXPECT_THROW(datasets::mnist::load_data(dir), DataLossError);
  std::filesystem::remove_all(dir);
}

TEST(KerasDatasetsTest, MissingIsNotFound) {
  setenv("TFCC_DATASETS_DIR", "/nonexistent/tfcc_datasets", 1);
  try {
    datasets::mnist::load_data("/nonexistent/mnist");
    // Debian ships no MNIST digits; only a machine with them in /usr/share/datasets gets here.
    EXPECT_TRUE(file_exists("/usr/share/datasets/mnist"));
  } catch (const NotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/mnist"), std::string::npos) << e.what();
  }
  unsetenv("TFCC_DATASETS_DIR");
}

TEST(KerasDatasetsTest, FashionMnistFromDebian) {
  if (!file_exists("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz")) {
    GTEST_SKIP() << "dataset-fashion-mnist is not installed";
  }
  unsetenv("TFCC_DATASETS_DIR");
  auto [train, test] = datasets::fashion_mnist::load_data();
  auto [x_train, y_train] = train;
  auto [x_test, y_test] = test;
  EXPECT_EQ(x_train.shape(), Shape({60000, 28, 28}));
  EXPECT_EQ(y_train.shape(), Shape({60000}));
  EXPECT_EQ(x_test.shape(), Shape({10000, 28, 28}));
  EXPECT_EQ(y_test.shape(), Shape({10000}));
  // Keras' fashion_mnist.load_data()[0][1][:10] and [1][1][:8].
  const std::vector<uint8_t> train_labels = y_train.to_vector<uint8_t>();
  EXPECT_EQ(std::vector<uint8_t>(train_labels.begin(), train_labels.begin() + 10),
            (std::vector<uint8_t>{9, 0, 0, 3, 0, 2, 7, 2, 5, 5}));
  const std::vector<uint8_t> test_labels = y_test.to_vector<uint8_t>();
  EXPECT_EQ(std::vector<uint8_t>(test_labels.begin(), test_labels.begin() + 8),
            (std::vector<uint8_t>{9, 2, 1, 1, 6, 1, 4, 6}));
}

}  // namespace
}  // namespace tfcc::keras
