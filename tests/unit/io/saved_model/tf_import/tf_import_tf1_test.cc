// TensorFlow 1 SavedModels (tf.compat.v1 SavedModelBuilder, Estimator exports): no object graph;
// the variables are VariableV2 (reference) or VarHandleOp nodes of the top-level graph and the
// Saver's RestoreV2 -> [Identity] -> Assign / AssignVariableOp subgraph names their checkpoint
// keys. Built here with the generated protobuf classes the way TensorFlow 1 lays them out.
#include <gtest/gtest.h>

#include "tests/unit/io/saved_model/tf_import/tf_model_builder.h"
#include "tfcc/io/saved_model/saved_model.h"
#include "tfcc/io/saved_model/tf_import/tf_import.h"

namespace tfcc::saved_model {
namespace {

using namespace tf_testing;  // NOLINT
using tensorflow::DT_FLOAT;
using tensorflow::DT_STRING;

AttrValue strings_attr(const std::vector<std::string>& v) {
  AttrValue a;
  auto* t = a.mutable_tensor();
  t->set_dtype(DT_STRING);
  t->mutable_tensor_shape()->add_dim()->set_size(static_cast<int64_t>(v.size()));
  for (const std::string& s : v) t->add_string_val(s);
  return a;
}

AttrValue shape_attr(const std::vector<int64_t>& dims) {
  AttrValue a;
  for (int64_t d : dims) a.mutable_shape()->add_dim()->set_size(d);
  return a;
}

// y = relu(x @ kernel + bias), x [-1, 2]; kernel [2,2] and bias [2] are `op` nodes (VariableV2
// or VarHandleOp) restored from checkpoint keys `keys` (kernel's, bias'), stored under `stored`.
// `slices` are the Saver's shape_and_slices.
struct Tf1Model {
  std::string op = "VariableV2";
  std::vector<std::string> keys = {"ckpt/kernel", "ckpt/bias"};
  std::vector<std::string> stored = {"ckpt/kernel", "ckpt/bias"};
  std::vector<std::string> slices = {"", ""};
  bool saver = true;

  std::string write(const std::string& name) const {
    Builder b;
    b.mg->mutable_meta_info_def()->set_tensorflow_version("1.15.5");
    auto* g = b.graph()->mutable_node();
    const bool resource = op == "VarHandleOp";
    add_node(g, "kernel", op, {}, {{"dtype", type_attr(DT_FLOAT)}, {"shape", shape_attr({2, 2})}});
    add_node(g, "bias", op, {}, {{"dtype", type_attr(DT_FLOAT)}, {"shape", shape_attr({2})}});
    std::string k = "kernel", bias = "bias";
    if (resource) {
      add_node(g, "kernel/Read", "ReadVariableOp", {"kernel"}, {{"dtype", type_attr(DT_FLOAT)}});
      add_node(g, "bias/Read", "ReadVariableOp", {"bias"}, {{"dtype", type_attr(DT_FLOAT)}});
      k = "kernel/Read";
      bias = "bias/Read";
    } else {
      add_node(g, "kernel/read", "Identity", {"kernel"}, {{"T", type_attr(DT_FLOAT)}});
      k = "kernel/read";
    }
    add_node(g, "MatMul", "MatMul", {"x", k}, {{"T", type_attr(DT_FLOAT)}});
    add_node(g, "add", "AddV2", {"MatMul", bias}, {{"T", type_attr(DT_FLOAT)}});
    add_node(g, "y", "Relu", {"add"}, {{"T", type_attr(DT_FLOAT)}});
    b.signature("serving_default", {{"x", "x", {-1, 2}}}, {{"y", "y:0"}});
    if (saver) add_saver(g, resource);
    const std::string dir = temp_dir(name);
    b.write(dir);  // no variables in the builder: written below without an object graph
    make_dirs(dir + "/variables");
    checkpoint::BundleWriter w(dir + "/variables/variables");
    w.add(stored[0], Tensor::from_vector<float>({1, -1, 2, 0.5f}, Shape{2, 2}));
    w.add(stored[1], Tensor::from_vector<float>({0.25f, -3.f}));
    w.finish();
    return dir;
  }

  // The Saver's restore subgraph (never run by a signature; read for the key mapping).
  void add_saver(google::protobuf::RepeatedPtrField<NodeDef>* g, bool resource) const {
    add_node(g, "save/Const", "Const", {},
             {{"dtype", type_attr(DT_STRING)}, {"value", strings_attr({"model"})}});
    add_node(g, "save/RestoreV2/tensor_names", "Const", {},
             {{"dtype", type_attr(DT_STRING)}, {"value", strings_attr(keys)}});
    add_node(g, "save/RestoreV2/shape_and_slices", "Const", {},
             {{"dtype", type_attr(DT_STRING)}, {"value", strings_attr(slices)}});
    add_node(g, "save/RestoreV2", "RestoreV2",
             {"save/Const", "save/RestoreV2/tensor_names", "save/RestoreV2/shape_and_slices"},
             {{"dtypes", types_attr({DT_FLOAT, DT_FLOAT})}});
    const char* assign = resource ? "AssignVariableOp" : "Assign";
    add_node(g, "save/Identity_1", "Identity", {"save/RestoreV2:1"}, {{"T", type_attr(DT_FLOAT)}});
    add_node(g, "save/Assign", assign, {"kernel", "save/RestoreV2"}, {});
    add_node(g, "save/Assign_1", assign, {"bias", "save/Identity_1"}, {});
  }
};

void expect_dense_output(const LoadedModel& m) {
  // relu([x0 + 2 x1 + 0.25, -x0 + 0.5 x1 - 3])
  auto out = m.signatures.at("serving_default")(
      {{"x", Tensor::from_vector<float>({1, 2, 3, 4}, Shape{2, 2})}});
  const Tensor& y = out.at("y");
  const std::vector<float> want = {5.25f, 0, 11.25f, 0};
  ASSERT_EQ(y.shape().num_elements(), 4);
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(y.data<float>()[i], want[i], 1e-6f) << i;
}

TEST(TfImportTf1Test, ReferenceVariablesRestoredByTheSaversKeys) {
  LoadedModel m = load(Tf1Model{}.write("tf1_ref"));
  expect_dense_output(m);
  ASSERT_EQ(m.variables.size(), 2u);
  EXPECT_EQ(m.variable_keys[0], "ckpt/kernel");
  EXPECT_EQ(m.variable_keys[1], "ckpt/bias");
}

TEST(TfImportTf1Test, ResourceVariablesRestoredByTheSaversKeys) {
  Tf1Model t;
  t.op = "VarHandleOp";
  expect_dense_output(load(t.write("tf1_resource")));
}

TEST(TfImportTf1Test, WithoutRestoreOpsTheNodeNameIsTheKey) {
  Tf1Model t;
  t.saver = false;
  t.stored = {"kernel", "bias"};
  expect_dense_output(load(t.write("tf1_no_saver")));
}

TEST(TfImportTf1Test, TheSaversKeysWinOverNodeNames) {
  Tf1Model t;
  t.keys = {"unrelated/a", "unrelated/b"};
  t.stored = {"kernel", "bias"};
  // kernel and bias are assigned from RestoreV2 outputs naming other keys: those are used, are
  // missing, and the error names the key.
  try {
    load(t.write("tf1_other_keys"));
    FAIL() << "expected NotFoundError";
  } catch (const NotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("key 'unrelated/a'"), std::string::npos) << e.what();
  }
}

TEST(TfImportTf1Test, MissingValueNamesTheVariableAndKey) {
  Tf1Model t;
  t.stored = {"ckpt/kernel", "something/else"};
  try {
    load(t.write("tf1_missing"));
    FAIL() << "expected NotFoundError";
  } catch (const NotFoundError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("variable 'bias'"), std::string::npos) << what;
    EXPECT_NE(what.find("key 'ckpt/bias'"), std::string::npos) << what;
  }
}

TEST(TfImportTf1Test, ShapeDisagreementIsInvalidArgument) {
  Tf1Model t;
  t.keys = {"ckpt/bias", "ckpt/kernel"};  // swapped: kernel would read the [2] bias
  EXPECT_THROW(load(t.write("tf1_swapped")), InvalidArgumentError);
}

TEST(TfImportTf1Test, PartitionedVariablesAreUnimplemented) {
  Tf1Model t;
  t.slices = {"2 2 0,1:0,2", ""};
  try {
    load(t.write("tf1_sliced"));
    FAIL() << "expected UnimplementedError";
  } catch (const UnimplementedError& e) {
    EXPECT_NE(std::string(e.what()).find("partitioned"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tfcc::saved_model
