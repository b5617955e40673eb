// keras::export_model: a trained-style Sequential CNN (conv, pool, flatten, dropout, dense, batch
// norm) exported and loaded back gives the model's inference outputs bit for bit.
#include "tfcc/keras/models/export.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <set>

#include "tfcc/io/proto/saved_model.pb.h"
#include "tfcc/io/saved_model/saved_model.h"
#include "tfcc/keras/keras.h"
#include "tfcc/ops/random/random.h"
#include "tfcc/platform/file.h"

namespace tfcc::keras {
namespace {

std::string export_dir(const std::string& name) {
  std::string dir =
      internal::str_cat(::testing::TempDir(), "tfcc_keras_export_test_", ::getpid(), "/", name);
  make_dirs(dir);
  return dir + "/export";
}

// A small seed-like CNN: conv/pool/dropout/batch norm, so the export drops Dropout and keeps BN.
std::vector<LayerPtr> small_cnn() {
  return {
      layers::Conv2D(4, 3, {.activation = "relu", .input_shape = {8, 8, 1}}),
      layers::MaxPooling2D(),
      layers::Flatten(),
      layers::Dropout(0.1),
      layers::Dense(8, {.activation = "relu"}),
      layers::BatchNormalization(),
      layers::Dense(3),
  };
}

TEST(ExportModelTest, SequentialCnnRoundTripBitwise) {
  tfcc::random::set_seed(3);
  Sequential model(small_cnn());
  // Moving statistics away from their initial values, as after training.
  Tensor batch = random::uniform({16, 8, 8, 1});
  model(batch, {.training = true});

  std::string dir = export_dir("cnn");
  export_model(model, dir);
  auto loaded = saved_model::load(dir);
  const auto& serve = loaded.signatures.at("serving_default");
  ASSERT_EQ(serve.inputs().size(), 1u);
  EXPECT_EQ(serve.inputs()[0].shape, PartialShape({-1, 8, 8, 1}));
  EXPECT_EQ(serve.inputs()[0].name, serving_input_spec(model).name);
  EXPECT_EQ(serve.outputs()[0].shape, PartialShape({-1, 3}));

  Tensor x = random::uniform({5, 8, 8, 1});
  Tensor want = model(x, {.training = false});
  Tensor got = serve({x})[0];
  ASSERT_EQ(got.shape(), want.shape());
  EXPECT_EQ(0, std::memcmp(got.raw_data(), want.raw_data(), want.nbytes()));
  EXPECT_EQ(loaded.variables.size(), model.variables().size());
}

TEST(ExportModelTest, FunctionalModelUsesInputName) {
  auto inputs = Input({6}, {.name = "features"});
  Model model(inputs, layers::Dense(2)(inputs));
  std::string dir = export_dir("functional");
  export_model(model, dir);
  auto loaded = saved_model::load(dir);
  const auto& serve = loaded.signatures.at("serving_default");
  EXPECT_EQ(serve.inputs()[0].name, "features");
  Tensor x = random::uniform({2, 6});
  Tensor want = model(x);
  EXPECT_EQ(serve({{"features", x}}).at("output_0").to_vector<float>(), want.to_vector<float>());
}

TEST(ExportModelTest, TensorFlowFormatHoldsTheInferenceGraph) {
  tfcc::random::set_seed(4);
  Sequential model(small_cnn());
  model(random::uniform({4, 8, 8, 1}), {.training = true});
  const std::string dir = export_dir("tensorflow") + "/1";
  export_model(model, dir, {.save = {.format = saved_model::Format::kTensorFlow}});
  tensorflow::SavedModel sm;
  ASSERT_TRUE(sm.ParseFromString(read_file(dir + "/saved_model.pb")));
  const auto& mg = sm.meta_graphs(0);
  const auto& sig = mg.signature_def().at("serving_default");
  EXPECT_TRUE(sig.inputs().contains(serving_input_spec(model).name));
  EXPECT_EQ(sig.outputs().at("output_0").tensor_shape().dim(1).size(), 3);
  // Inference only, as traced: no dropout, no tfcc-internal (fused) op.
  ASSERT_EQ(mg.graph_def().library().function_size(), 1);
  std::set<std::string> ops;
  for (const auto& n : mg.graph_def().library().function(0).node_def()) ops.insert(n.op());
  for (const std::string& op : ops) {
    EXPECT_NE(op[0], '_') << op;
    EXPECT_EQ(op.find("Dropout"), std::string::npos) << op;
  }
  EXPECT_TRUE(ops.count("Conv2D") && ops.count("MatMul") && ops.count("MaxPool")) << ops.size();
  EXPECT_EQ(mg.object_graph_def().concrete_functions().begin()->second.bound_inputs_size(),
            static_cast<int>(model.variables().size()));
}

TEST(ExportModelTest, UnknownInputShapeIsInvalidArgument) {
  Sequential model({layers::Dense(2)});
  EXPECT_THROW(export_model(model, export_dir("unbuilt")), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::keras
