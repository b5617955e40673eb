// A damaged checkpoint is never loaded: 64 truncations and 1,000 random bit flips of a real
// checkpoint (index and data file) must each raise DataLossError (InvalidArgumentError for
// malformed structure), and none may crash or load silently. Run under ASan/UBSan too.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <random>

#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/io/checkpoint/checkpoint.h"
#include "tfcc/io/checkpoint/checkpoint_reader.h"
#include "tfcc/platform/file.h"

namespace tfcc::train {
namespace {

struct Objects {
  Variable kernel{Tensor::from_vector<float>({1, -2, 3, 4, 5, 6}, Shape{2, 3}), {.name = "k"}};
  Variable bias{Tensor::from_vector<double>({0.25, -0.5}), {.name = "b"}};
  Variable mask{Tensor::from_vector<bool>({true, false, true}), {.name = "m"}};
  Variable step{Tensor::scalar<int64_t>(42), {.name = "step"}};
  Variable ids{Tensor::from_vector<int32_t>({7, 8}), {.name = "ids"}};
  Trackable dense;
  Checkpoint ckpt;
  Objects() {
    dense.track("kernel", kernel).track("bias", bias).track("mask", mask);
    ckpt.track("model", dense).track("step", step).track("ids", ids);
  }
};

void put(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Loads `prefix` every way a user can: object-based restore, then every tensor by name.
void load_everything(const std::string& prefix) {
  Objects fresh;
  fresh.ckpt.read(prefix).assert_consumed();  // written by write(): no save_counter
  auto reader = load_checkpoint(prefix);
  for (const std::string& key : reader->bundle().keys()) {
    if (reader->bundle().entry(key).dtype == checkpoint::kDtString) {
      reader->get_string_tensor(key);
    } else {
      reader->get_tensor(key);
    }
  }
}

class CorruptionTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = internal::str_cat(testing::TempDir(), "tfcc_corruption_", ::getpid());
    make_dirs(dir_);
    Objects o;
    original_ = o.ckpt.write(dir_ + "/good");
    index_ = read_file(checkpoint::index_filename(original_));
    data_ = read_file(checkpoint::data_filename(original_, 0, 1));
    load_everything(original_);  // the undamaged checkpoint loads
  }

  // Writes a damaged copy and checks that loading it fails the right way.
  void expect_rejected(const std::string& index, const std::string& data, const std::string& what) {
    std::string prefix = dir_ + "/bad";
    put(checkpoint::index_filename(prefix), index);
    put(checkpoint::data_filename(prefix, 0, 1), data);
    try {
      load_everything(prefix);
      ADD_FAILURE() << what << ": damaged checkpoint loaded silently";
    } catch (const DataLossError&) {
      ++data_loss_;
    } catch (const InvalidArgumentError&) {
      ++invalid_;
    } catch (const std::exception& e) {
      ADD_FAILURE() << what << ": unexpected error type: " << e.what();
    }
  }

  std::string dir_, original_, index_, data_;
  int data_loss_ = 0, invalid_ = 0;
};

TEST_F(CorruptionTest, Truncations) {
  // 32 lengths of each file, from empty to one byte short, spread evenly.
  for (int i = 0; i < 32; ++i) {
    size_t n = index_.size() * static_cast<size_t>(i) / 32;
    expect_rejected(index_.substr(0, n), data_, internal::str_cat("index truncated to ", n));
  }
  for (int i = 0; i < 32; ++i) {
    size_t n = data_.size() * static_cast<size_t>(i) / 32;
    expect_rejected(index_, data_.substr(0, n), internal::str_cat("data truncated to ", n));
  }
  EXPECT_EQ(data_loss_ + invalid_, 64);
}

TEST_F(CorruptionTest, RandomBitFlips) {
  std::mt19937_64 rng(20261129);
  size_t total = index_.size() + data_.size();
  for (int i = 0; i < 1000; ++i) {
    size_t at = std::uniform_int_distribution<size_t>(0, total - 1)(rng);
    int bit = std::uniform_int_distribution<int>(0, 7)(rng);
    std::string index = index_, data = data_;
    std::string& target = at < index.size() ? index : data;
    size_t pos = at < index.size() ? at : at - index.size();
    target[pos] = static_cast<char>(target[pos] ^ (1 << bit));
    expect_rejected(
        index, data,
        internal::str_cat(at < index_.size() ? "index" : "data", " byte ", pos, " bit ", bit));
  }
  EXPECT_EQ(data_loss_ + invalid_, 1000);
}

TEST_F(CorruptionTest, MissingDataFileIsDataLoss) {
  std::string prefix = dir_ + "/nodata";
  put(checkpoint::index_filename(prefix), index_);
  EXPECT_THROW(load_everything(prefix), DataLossError);
}

}  // namespace
}  // namespace tfcc::train
