// Modules in checkpoints: keys from registration names, restore into a fresh module, modules
// that create variables after restore().
#include <gtest/gtest.h>
#include <unistd.h>

#include "tfcc/io/checkpoint/checkpoint.h"
#include "tfcc/io/checkpoint/checkpoint_reader.h"
#include "tfcc/module/module.h"
#include "tfcc/platform/file.h"

namespace tfcc::train {
namespace {

std::string temp_dir(const std::string& name) {
  std::string dir =
      internal::str_cat(testing::TempDir(), "tfcc_module_ckpt_test_", ::getpid(), "/", name);
  make_dirs(dir);
  return dir;
}

class Affine : public Module {
 public:
  Affine(float w, float b) : Module("affine") {
    auto scope = name_scope();
    w_ = add_variable("w", Tensor::from_vector<float>({w, w}));
    b_ = add_variable("b", Tensor::scalar<float>(b));
  }
  Variable w_, b_;
};

class Mlp : public Module {
 public:
  explicit Mlp(float seed) : Module("mlp") {
    l1_ = track_module(std::make_shared<Affine>(seed, seed + 1), "l1");
    l2_ = track_module(Affine(seed + 2, seed + 3), "l2");
  }
  std::shared_ptr<Affine> l1_, l2_;
};

// A layer that creates its variable on first use, as Keras layers build on first call.
class Lazy : public Module {
 public:
  Lazy() : Module("lazy") {}
  void build() { v_ = add_variable("kernel", Tensor::from_vector<float>({0, 0, 0})); }
  Variable v_;
};

TEST(ModuleCheckpointTest, KeysAndRoundTrip) {
  auto saved = std::make_shared<Mlp>(1.0f);
  std::string path = Checkpoint({{"model", saved}}).save(temp_dir("roundtrip") + "/ckpt");
  auto shapes = load_checkpoint(path)->get_variable_to_shape_map();
  EXPECT_EQ(shapes.count("model/l1/w/.ATTRIBUTES/VARIABLE_VALUE"), 1u);
  EXPECT_EQ(shapes.count("model/l2/b/.ATTRIBUTES/VARIABLE_VALUE"), 1u);

  Mlp fresh(10.0f);  // held by value: referenced by the checkpoint
  Checkpoint({{"model", fresh}}).restore(path).assert_consumed();
  EXPECT_EQ(fresh.l1_->w_.read_value().to_vector<float>(), (std::vector<float>{1, 1}));
  EXPECT_EQ(fresh.l2_->b_.read_value().item<float>(), 4.0f);
}

TEST(ModuleCheckpointTest, VariablesCreatedAfterRestore) {
  std::string path;
  {
    auto built = std::make_shared<Lazy>();
    built->build();
    built->v_.assign(Tensor::from_vector<float>({1, 2, 3}));
    path = Checkpoint({{"layer", built}}).write(temp_dir("lazy") + "/w");
  }
  auto layer = std::make_shared<Lazy>();
  auto status = Checkpoint({{"layer", layer}}).read(path);
  layer->build();
  status.assert_consumed();  // matches again: the new variable takes its value
  EXPECT_EQ(layer->v_.read_value().to_vector<float>(), (std::vector<float>{1, 2, 3}));
}

}  // namespace
}  // namespace tfcc::train
