// The index/data pair of a bundle changes as a whole: the states a killed writer can leave
// behind, rebuilt by hand, each read back as one whole bundle.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/platform/file.h"

namespace tfcc::checkpoint {
namespace {

namespace fs = std::filesystem;

class BundleCommitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = internal::str_cat(::testing::TempDir(), "tfcc_bundle_commit_test_", ::getpid());
    fs::remove_all(dir_);
    make_dirs(dir_);
    prefix_ = dir_ + "/w";
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Generation g: "x" holds 64 floats of value g (same size every time, as in ModelCheckpoint).
  void write(float g) {
    BundleWriter w(prefix_);
    w.add("x", Tensor::from_vector(std::vector<float>(64, g), Shape{64}));
    w.finish();
  }
  float read() const {
    BundleReader r(prefix_);
    auto v = r.read_tensor("x").to_vector<float>();
    for (float f : v) EXPECT_EQ(f, v[0]);
    return v[0];
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }

  std::string dir_, prefix_;
};

TEST_F(BundleCommitTest, FinishWritesThePairAndItsManifest) {
  write(1);
  write(2);
  EXPECT_EQ(read(), 2);
  EXPECT_EQ(names(), (std::vector<std::string>{"w.data-00000-of-00001", "w.index", "w.manifest"}));
  EXPECT_TRUE(bundle_exists(prefix_));
  EXPECT_FALSE(bundle_exists(dir_ + "/other"));
}

// The failure of issue 23: new data beside the old index. With the manifest, the staged index
// (renamed last) is still found, and the new pair loads.
TEST_F(BundleCommitTest, KillBetweenTheRenamesLoadsTheNewPair) {
  write(1);
  const std::string old_index = read_file(index_filename(prefix_));
  write(2);
  const std::string new_index = read_file(index_filename(prefix_));
  std::string manifest = read_file(manifest_filename(prefix_));
  size_t at = manifest.find("w.index ");
  ASSERT_NE(at, std::string::npos);
  std::string staged = manifest.substr(at + 8, manifest.find(' ', at + 8) - at - 8);
  write_file_atomic(dir_ + "/" + staged, new_index);
  write_file_atomic(index_filename(prefix_), old_index);
  EXPECT_EQ(read(), 2);
  write(3);  // the next writer repairs the names (orphans of dead writers: file_set_test)
  EXPECT_EQ(read(), 3);
  fs::remove(dir_ + "/" + staged);
  EXPECT_EQ(names(), (std::vector<std::string>{"w.data-00000-of-00001", "w.index", "w.manifest"}));
}

// Bundles of older tfcc versions and of TensorFlow have no manifest, or one that names bytes
// another program has since replaced: the files are read by name.
TEST_F(BundleCommitTest, WithoutAUsableManifestFilesAreReadByName) {
  write(1);
  const std::string index1 = read_file(index_filename(prefix_));
  const std::string data1 = read_file(data_filename(prefix_, 0, 1));
  write(2);
  write_file_atomic(index_filename(prefix_), index1);
  write_file_atomic(data_filename(prefix_, 0, 1), data1);
  EXPECT_EQ(read(), 1);  // as another program left them
  fs::remove(manifest_filename(prefix_));
  EXPECT_EQ(read(), 1);
}

}  // namespace
}  // namespace tfcc::checkpoint
