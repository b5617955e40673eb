// CheckpointManager: numbering, max_to_keep, keep_checkpoint_every_n_hours, the state file, and
// picking up an existing directory.
#include "tfcc/io/checkpoint/checkpoint_manager.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/io/checkpoint/checkpoint_state.h"
#include "tfcc/platform/file.h"

namespace tfcc::train {
namespace {

std::string fresh_dir(const std::string& name) {
  std::string dir =
      internal::str_cat(testing::TempDir(), "tfcc_manager_test_", ::getpid(), "/", name);
  std::filesystem::remove_all(dir);
  make_dirs(dir);
  return dir;
}

bool exists(const std::string& prefix) {
  return file_exists(checkpoint::index_filename(prefix)) &&
         file_exists(checkpoint::data_filename(prefix, 0, 1));
}

size_t files_in(const std::string& dir) {
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) n += e.is_regular_file();
  return n;
}

TEST(CheckpointManagerTest, KeepsTheNewestMaxToKeep) {
  std::string dir = fresh_dir("keep");
  Variable v(Tensor::scalar<float>(0), {.name = "v"});
  Checkpoint ckpt({{"v", v}});
  CheckpointManager manager(ckpt, dir, {.max_to_keep = 2});
  EXPECT_FALSE(manager.latest_checkpoint().has_value());
  for (int i = 1; i <= 4; ++i) {
    v.assign(Tensor::scalar<float>(static_cast<float>(i)));
    EXPECT_EQ(manager.save(), internal::str_cat(dir, "/ckpt-", i));
  }
  EXPECT_EQ(manager.checkpoints(), (std::vector<std::string>{dir + "/ckpt-3", dir + "/ckpt-4"}));
  EXPECT_FALSE(exists(dir + "/ckpt-1"));
  EXPECT_FALSE(exists(dir + "/ckpt-2"));
  EXPECT_TRUE(exists(dir + "/ckpt-4"));
  EXPECT_EQ(files_in(dir), 7u);  // two bundles (index, data, manifest) + the state file
  EXPECT_EQ(latest_checkpoint(dir), dir + "/ckpt-4");

  auto state = get_checkpoint_state(dir);
  ASSERT_TRUE(state.has_value());
  EXPECT_EQ(state->all_model_checkpoint_paths,
            (std::vector<std::string>{dir + "/ckpt-3", dir + "/ckpt-4"}));
  EXPECT_EQ(state->all_model_checkpoint_timestamps.size(), 2u);
  // Stored relative to the directory, like TensorFlow's save_relative_paths.
  EXPECT_NE(read_file(dir + "/checkpoint").find("model_checkpoint_path: \"ckpt-4\""),
            std::string::npos);

  // A new manager on the same directory continues where the old one stopped.
  Variable w(Tensor::scalar<float>(0), {.name = "v"});
  Checkpoint ckpt2({{"v", w}});
  CheckpointManager again(ckpt2, dir, {.max_to_keep = 2});
  EXPECT_EQ(again.latest_checkpoint(), dir + "/ckpt-4");
  EXPECT_EQ(again.restore_or_initialize(), dir + "/ckpt-4");
  EXPECT_EQ(w.read_value().item<float>(), 4.0f);
  EXPECT_EQ(again.save(), dir + "/ckpt-5");  // save_counter was restored
  EXPECT_FALSE(exists(dir + "/ckpt-3"));
  EXPECT_EQ(again.save(int64_t{100}), dir + "/ckpt-100");
}

TEST(CheckpointManagerTest, KeepCheckpointEveryNHoursSparesOldOnes) {
  std::string dir = fresh_dir("hours");
  Variable v(Tensor::scalar<float>(0));
  // A tiny interval: every checkpoint is older than the last preserved one by more than it.
  CheckpointManager manager(Checkpoint({{"v", v}}), dir,
                            {.max_to_keep = 1, .keep_checkpoint_every_n_hours = 1e-12});
  for (int i = 0; i < 3; ++i) manager.save();
  EXPECT_EQ(manager.checkpoints(), (std::vector<std::string>{dir + "/ckpt-3"}));
  EXPECT_TRUE(exists(dir + "/ckpt-1"));  // preserved on disk, no longer listed
  EXPECT_TRUE(exists(dir + "/ckpt-2"));
}

TEST(CheckpointManagerTest, KeepsEverythingWithoutMaxToKeepAndRejectsBadOptions) {
  std::string dir = fresh_dir("all");
  Variable v(Tensor::scalar<float>(0));
  CheckpointManager manager(Checkpoint({{"v", v}}), dir);
  for (int i = 0; i < 3; ++i) manager.save();
  EXPECT_EQ(manager.checkpoints().size(), 3u);
  EXPECT_TRUE(exists(dir + "/ckpt-1"));
  EXPECT_THROW(CheckpointManager(Checkpoint(), dir, {.max_to_keep = 0}), InvalidArgumentError);
  CheckpointManager empty(Checkpoint(), fresh_dir("empty"));
  EXPECT_FALSE(empty.restore_or_initialize().has_value());
}

}  // namespace
}  // namespace tfcc::train
