// tfcc::train::Checkpoint: object-path keys, save/restore/read, deferred restoration, load status.
#include "tfcc/io/checkpoint/checkpoint.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/io/checkpoint/checkpoint_reader.h"
#include "tfcc/io/checkpoint/checkpoint_state.h"
#include "tfcc/io/checkpoint/object_graph.h"
#include "tfcc/platform/file.h"

namespace tfcc::train {
namespace {

std::string temp_dir(const std::string& name) {
  std::string dir = internal::str_cat(testing::TempDir(), "tfcc_ckpt_test_", ::getpid(), "/", name);
  make_dirs(dir);
  return dir;
}

Variable var(std::vector<float> values, const std::string& name) {
  return Variable(Tensor::from_vector<float>(values), {.name = name});
}

std::vector<float> value(const Variable& v) { return v.read_value().to_vector<float>(); }

struct Model {
  Variable w = var({1, 2, 3}, "dense/kernel");
  Variable b = var({0.5}, "dense/bias");
  Trackable dense;
  Trackable model;
  Model() {
    dense.track("kernel", w).track("bias", b);
    model.track("dense", dense);
  }
};

TEST(CheckpointTest, KeysAreObjectPaths) {
  Model m;
  Variable step(Tensor::scalar<int64_t>(7), {.name = "step", .trainable = false});
  Checkpoint ckpt({{"model", m.model}, {"step", step}});
  std::string prefix = ckpt.save(temp_dir("keys") + "/ckpt");
  EXPECT_EQ(prefix, temp_dir("keys") + "/ckpt-1");
  auto vars = list_variables(prefix);
  std::vector<std::string> keys;
  for (auto& [k, shape] : vars) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{
                      "_CHECKPOINTABLE_OBJECT_GRAPH",
                      "model/dense/bias/.ATTRIBUTES/VARIABLE_VALUE",
                      "model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE",
                      "save_counter/.ATTRIBUTES/VARIABLE_VALUE",
                      "step/.ATTRIBUTES/VARIABLE_VALUE",
                  }));
  auto reader = load_checkpoint(prefix);
  EXPECT_EQ(reader->get_tensor("save_counter/.ATTRIBUTES/VARIABLE_VALUE").item<int64_t>(), 1);
  EXPECT_EQ(reader->get_variable_to_dtype_map()["step/.ATTRIBUTES/VARIABLE_VALUE"], "int64");
  EXPECT_EQ(reader->get_variable_to_shape_map()["model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE"],
            (std::vector<int64_t>{3}));
  // The object graph: root -> model, step, save_counter; names of variables as full_name.
  auto graph = checkpoint::decode_object_graph(
      reader->get_string_tensor(checkpoint::kObjectGraphKey).at(0), "test");
  ASSERT_EQ(graph.nodes.size(), 7u);
  EXPECT_EQ(graph.nodes[0].children.size(), 3u);
  EXPECT_EQ(graph.nodes[0].children[0].local_name, "model");
  EXPECT_TRUE(graph.nodes[0].has_checkpoint_values);
  // The directory's state file names the checkpoint.
  EXPECT_EQ(latest_checkpoint(temp_dir("keys")), prefix);
}

TEST(CheckpointTest, EscapesNamesLikeTensorFlow) {
  EXPECT_EQ(checkpoint::escape_local_name("a/b.c"), "a.Sb..c");
  Trackable t;
  t.track("layer/1", var({1}, "x")).track("v.2", var({2}, "y"));
  Checkpoint ckpt({{"t", t}});
  auto keys = checkpoint_keys(*ckpt.root());
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].first, "t/layer.S1/.ATTRIBUTES/VARIABLE_VALUE");
  EXPECT_EQ(keys[1].first, "t/v..2/.ATTRIBUTES/VARIABLE_VALUE");
}

TEST(CheckpointTest, SaveRestoreRoundTrip) {
  std::string dir = temp_dir("roundtrip");
  Model a;
  Checkpoint saver({{"model", a.model}});
  saver.save(dir + "/ckpt");
  std::string second = saver.save(dir + "/ckpt");
  EXPECT_EQ(second, dir + "/ckpt-2");

  Model b;
  b.w.assign(Tensor::from_vector<float>({0, 0, 0}));
  b.b.assign(Tensor::from_vector<float>({0}));
  Checkpoint restorer({{"model", b.model}});
  auto status = restorer.restore(second);
  status.assert_consumed().assert_existing_objects_matched().assert_nontrivial_match();
  EXPECT_EQ(value(b.w), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(value(b.b), (std::vector<float>{0.5}));
  EXPECT_EQ(restorer.save_counter().read_value().item<int64_t>(), 2);
  EXPECT_EQ(restorer.save(dir + "/ckpt"), dir + "/ckpt-3");
}

TEST(CheckpointTest, SharedVariableIsSavedOnceAndRestoredEverywhere) {
  Variable shared = var({4, 5}, "shared");
  Trackable a, b;
  a.track("v", shared);
  b.track("v", shared);
  Checkpoint ckpt({{"a", a}, {"b", b}});
  EXPECT_EQ(checkpoint_keys(*ckpt.root()).size(), 1u);
  std::string path = ckpt.write(temp_dir("shared") + "/w");
  shared.assign(Tensor::from_vector<float>({0, 0}));
  ckpt.read(path).assert_consumed();
  EXPECT_EQ(value(shared), (std::vector<float>{4, 5}));
}

TEST(CheckpointTest, DeferredRestoreOfObjectsCreatedLater) {
  std::string path;
  {
    Model m;
    path = Checkpoint({{"model", m.model}}).write(temp_dir("deferred") + "/w");
  }
  Trackable model;
  Checkpoint ckpt({{"model", model}});
  auto status = ckpt.read(path);
  EXPECT_THROW(status.assert_consumed(), FailedPreconditionError);
  status.assert_existing_objects_matched();  // nothing exists yet: fine

  Trackable dense;
  Variable w = var({0, 0, 0}, "w");
  dense.track("kernel", w);  // not attached yet: nothing to restore
  EXPECT_EQ(value(w), (std::vector<float>{0, 0, 0}));
  model.track("dense", dense);  // attached: restored at once
  EXPECT_EQ(value(w), (std::vector<float>{1, 2, 3}));
  Variable bias = var({0}, "b");
  dense.track("bias", bias);  // created after the parent was matched: restored when tracked
  EXPECT_EQ(value(bias), (std::vector<float>{0.5}));
  status.assert_consumed();
  // A value is restored once: training after the restore is not undone by later matching.
  w.assign(Tensor::from_vector<float>({9, 9, 9}));
  status.run_restore_ops();
  EXPECT_EQ(value(w), (std::vector<float>{9, 9, 9}));
}

TEST(CheckpointTest, StatusReportsMismatches) {
  std::string path;
  {
    Model m;
    path = Checkpoint({{"model", m.model}}).write(temp_dir("status") + "/w");
  }
  Model m;
  Variable extra = var({1}, "extra");
  m.model.track("extra", extra);
  auto status = Checkpoint({{"model", m.model}}).read(path);
  try {
    status.assert_existing_objects_matched();
    FAIL() << "extra variable not reported";
  } catch (const FailedPreconditionError& e) {
    EXPECT_NE(std::string(e.what()).find("model/extra"), std::string::npos) << e.what();
  }
  Trackable unrelated;
  unrelated.track("x", var({1}, "x"));
  auto none = Checkpoint({{"other", unrelated}}).read(path);
  none.expect_partial();
  EXPECT_THROW(none.assert_nontrivial_match(), FailedPreconditionError);
}

TEST(CheckpointTest, IncompatibleShapeIsAnError) {
  std::string path;
  {
    Model m;
    path = Checkpoint({{"model", m.model}}).write(temp_dir("shape") + "/w");
  }
  Trackable dense, model;
  dense.track("kernel", var({1, 2}, "k"));
  model.track("dense", dense);
  EXPECT_THROW(Checkpoint({{"model", model}}).read(path), InvalidArgumentError);
  EXPECT_THROW(Checkpoint().restore(temp_dir("shape") + "/missing"), NotFoundError);
}

TEST(CheckpointTest, NameBasedCheckpointWithoutObjectGraph) {
  std::string prefix = temp_dir("namebased") + "/tf1";
  checkpoint::BundleWriter w(prefix);
  w.add("model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE", Tensor::from_vector<float>({7, 8, 9}));
  w.add("model/dense/bias/.ATTRIBUTES/VARIABLE_VALUE", Tensor::from_vector<float>({6}));
  w.add("global_step", Tensor::scalar<int64_t>(3));
  w.finish();
  Model m;
  auto status = Checkpoint({{"model", m.model}}).read(prefix);
  status.assert_existing_objects_matched();
  EXPECT_EQ(value(m.w), (std::vector<float>{7, 8, 9}));
  EXPECT_EQ(value(m.b), (std::vector<float>{6}));
}

// An object whose state is not a variable, like a dataset iterator or a random generator.
struct Counter {
  std::string position = "batch=0";
  int64_t seed = 0;
  Trackable node;
  Counter() {
    node.add_attribute({"ITERATOR_STATE", [this] { return AttributeValue(position); },
                        [this](const AttributeValue& v) { position = std::get<std::string>(v); }});
  }
  void add_seed() {
    node.add_attribute(
        {"RNG_STATE", [this] { return AttributeValue(Tensor::scalar<int64_t>(seed)); },
         [this](const AttributeValue& v) { seed = std::get<Tensor>(v).item<int64_t>(); }});
  }
};

TEST(CheckpointTest, SaveableAttributesRoundTrip) {
  Counter saved;
  saved.position = std::string("batch=17\0tail", 13);
  saved.seed = 99;
  saved.add_seed();
  std::string path = Checkpoint({{"data", saved.node}}).write(temp_dir("attrs") + "/w");
  auto keys = load_checkpoint(path)->get_variable_to_dtype_map();
  EXPECT_EQ(keys["data/.ATTRIBUTES/ITERATOR_STATE"], "string");
  EXPECT_EQ(keys["data/.ATTRIBUTES/RNG_STATE"], "int64");

  Counter fresh;
  auto status = Checkpoint({{"data", fresh.node}}).read(path);
  EXPECT_EQ(fresh.position, saved.position);
  EXPECT_EQ(fresh.seed, 0);
  EXPECT_THROW(status.assert_consumed(), FailedPreconditionError);  // RNG_STATE not claimed
  fresh.add_seed();  // added after restore(): restored at once
  EXPECT_EQ(fresh.seed, 99);
  status.assert_consumed();
}

TEST(CheckpointTest, StateFileTextFormat) {
  CheckpointState s;
  s.model_checkpoint_path = "ckpt-2";
  s.all_model_checkpoint_paths = {"ckpt-1", "ckpt-2"};
  s.all_model_checkpoint_timestamps = {1700000000.5, 1700000100.25};
  s.last_preserved_timestamp = 1699999990;
  std::string text = format_checkpoint_state(s);
  EXPECT_EQ(text,
            "model_checkpoint_path: \"ckpt-2\"\n"
            "all_model_checkpoint_paths: \"ckpt-1\"\n"
            "all_model_checkpoint_paths: \"ckpt-2\"\n"
            "all_model_checkpoint_timestamps: 1700000000.5\n"
            "all_model_checkpoint_timestamps: 1700000100.25\n"
            "last_preserved_timestamp: 1699999990\n");
  CheckpointState back = parse_checkpoint_state(text, "f");
  EXPECT_EQ(back.all_model_checkpoint_paths, s.all_model_checkpoint_paths);
  EXPECT_EQ(back.all_model_checkpoint_timestamps, s.all_model_checkpoint_timestamps);
  EXPECT_EQ(
      parse_checkpoint_state("model_checkpoint_path: 'a\\\"b\\101'\n", "f").model_checkpoint_path,
      "a\"bA");
  EXPECT_THROW(parse_checkpoint_state("model_checkpoint_path: \"x\n", "f"), DataLossError);
  EXPECT_THROW(parse_checkpoint_state("bogus: 1\n", "f"), DataLossError);
  EXPECT_THROW(parse_checkpoint_state("all_model_checkpoint_timestamps: abc\n", "f"),
               DataLossError);
}

}  // namespace
}  // namespace tfcc::train
