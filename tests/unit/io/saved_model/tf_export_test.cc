// The TensorFlow SavedModel writer (tfcc/io/saved_model/tf_export): the protos it builds follow
// TensorFlow's conventions (signature_def, FunctionDef argument and reference conventions, only
// TensorFlow ops, object graph <-> checkpoint keys, saver), and the files it writes hold them.
// tests/integration/tf_saved_model_export.sh checks the same exports with TensorFlow itself.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>

#include "tests/unit/io/saved_model/test_models.h"
#include "tfcc/graph/trace/print.h"
#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/io/proto/trackable_object_graph.pb.h"
#include "tfcc/io/saved_model/saved_model.h"
#include "tfcc/io/saved_model/tf_export/op_table.h"
#include "tfcc/io/saved_model/tf_export/tf_saved_model.h"

namespace tfcc::saved_model {
namespace {

using namespace testing_models;
using tf_export::build_tf_export;

const tensorflow::FunctionDef& function(const tensorflow::MetaGraphDef& mg,
                                        const std::string& name) {
  for (const auto& f : mg.graph_def().library().function()) {
    if (f.signature().name() == name) return f;
  }
  throw NotFoundError("no function " + name);
}

std::set<std::string> ops_of(const tensorflow::FunctionDef& f) {
  std::set<std::string> ops;
  for (const auto& n : f.node_def()) ops.insert(n.op());
  return ops;
}

const tensorflow::NodeDef* find_node(const tensorflow::FunctionDef& f, const std::string& op) {
  for (const auto& n : f.node_def()) {
    if (n.op() == op) return &n;
  }
  return nullptr;
}

TEST(TfExportTest, MlpSignatureFunctionAndObjects) {
  Mlp mlp;
  tf_export::TfExport e = build_tf_export(mlp, {{"serving_default", mlp.serving()}});
  ASSERT_EQ(e.saved_model.meta_graphs_size(), 1);
  const tensorflow::MetaGraphDef& mg = e.saved_model.meta_graphs(0);
  ASSERT_EQ(mg.meta_info_def().tags_size(), 1);
  EXPECT_EQ(mg.meta_info_def().tags(0), "serve");

  // signature_def: inputs by name with TF dtype and shape, outputs from the top-level call.
  const tensorflow::SignatureDef& sig = mg.signature_def().at("serving_default");
  EXPECT_EQ(sig.method_name(), "tensorflow/serving/predict");
  const tensorflow::TensorInfo& x = sig.inputs().at("x");
  EXPECT_EQ(x.name(), "serving_default_x:0");
  EXPECT_EQ(x.dtype(), tensorflow::DT_FLOAT);
  ASSERT_EQ(x.tensor_shape().dim_size(), 2);
  EXPECT_EQ(x.tensor_shape().dim(0).size(), -1);
  EXPECT_EQ(x.tensor_shape().dim(1).size(), 4);
  const tensorflow::TensorInfo& y = sig.outputs().at("output_0");
  EXPECT_EQ(y.name(), "StatefulPartitionedCall:0");
  EXPECT_EQ(y.tensor_shape().dim(1).size(), 3);

  // The function: user input, then one resource per variable; references node:arg:index.
  const tensorflow::SavedObjectGraph& og = mg.object_graph_def();
  ASSERT_EQ(og.concrete_functions_size(), 1);
  const std::string fname = og.concrete_functions().begin()->first;
  const tensorflow::FunctionDef& f = function(mg, fname);
  ASSERT_EQ(f.signature().input_arg_size(), 5);
  EXPECT_EQ(f.signature().input_arg(0).name(), "x");
  EXPECT_EQ(f.signature().input_arg(0).type(), tensorflow::DT_FLOAT);
  for (int i = 1; i < 5; ++i) EXPECT_EQ(f.signature().input_arg(i).type(), tensorflow::DT_RESOURCE);
  EXPECT_TRUE(f.signature().is_stateful());
  ASSERT_EQ(f.signature().output_arg_size(), 1);
  EXPECT_EQ(f.signature().output_arg(0).name(), "output_0");
  EXPECT_TRUE(std::regex_match(f.ret().at("output_0"), std::regex(R"([\w./-]+:\w+:\d+)")));
  std::set<std::string> args;
  for (const auto& a : f.signature().input_arg()) args.insert(a.name());
  const std::regex ref(R"(\^?[\w./-]+(:\w+:\d+)?)");
  for (const auto& n : f.node_def()) {
    for (const auto& in : n.input()) {
      EXPECT_TRUE(std::regex_match(in, ref)) << in;
      if (in.find(':') == std::string::npos && in[0] != '^') {
        EXPECT_TRUE(args.count(in)) << in;
      }
    }
  }
  EXPECT_EQ(ops_of(f), (std::set<std::string>{"ReadVariableOp", "MatMul", "AddV2", "Relu"}));
  const tensorflow::NodeDef* mm = find_node(f, "MatMul");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->attr().at("T").type(), tensorflow::DT_FLOAT);
  EXPECT_FALSE(mm->attr().at("transpose_a").b());
  EXPECT_EQ(find_node(f, "ReadVariableOp")->attr().at("dtype").type(), tensorflow::DT_FLOAT);

  // Objects: root -> l1/l2 -> kernel/bias variables, signatures -> serving_default; the
  // checkpoint's object graph has the same children, and keys follow the module paths.
  EXPECT_EQ(e.keys,
            (std::vector<std::string>{
                "l1/kernel/.ATTRIBUTES/VARIABLE_VALUE", "l1/bias/.ATTRIBUTES/VARIABLE_VALUE",
                "l2/kernel/.ATTRIBUTES/VARIABLE_VALUE", "l2/bias/.ATTRIBUTES/VARIABLE_VALUE"}));
  tensorflow::TrackableObjectGraph tog;
  ASSERT_TRUE(tog.ParseFromString(e.object_graph));
  ASSERT_EQ(tog.nodes_size(), og.nodes_size());
  for (int i = 0; i < og.nodes_size(); ++i) {
    ASSERT_EQ(tog.nodes(i).children_size(), og.nodes(i).children_size()) << i;
    for (int c = 0; c < og.nodes(i).children_size(); ++c) {
      EXPECT_EQ(tog.nodes(i).children(c).node_id(), og.nodes(i).children(c).node_id());
      EXPECT_EQ(tog.nodes(i).children(c).local_name(), og.nodes(i).children(c).local_name());
    }
  }
  const tensorflow::SavedConcreteFunction& cf = og.concrete_functions().at(fname);
  ASSERT_EQ(cf.bound_inputs_size(), 4);
  for (int i = 0; i < 4; ++i) {
    const int node = cf.bound_inputs(i);
    ASSERT_TRUE(og.nodes(node).has_variable());
    ASSERT_EQ(tog.nodes(node).attributes_size(), 1);
    EXPECT_EQ(tog.nodes(node).attributes(0).checkpoint_key(), e.keys[static_cast<size_t>(i)]);
  }
  const auto& kwargs = cf.canonicalized_input_signature().tuple_value().values(1).dict_value();
  EXPECT_EQ(kwargs.fields().at("x").tensor_spec_value().dtype(), tensorflow::DT_FLOAT);
  EXPECT_TRUE(cf.output_signature().dict_value().fields().contains("output_0"));

  // The saver restores every key into the handles the call reads.
  const tensorflow::SaverDef& saver = mg.saver_def();
  EXPECT_EQ(saver.filename_tensor_name(), "saver_filename:0");
  std::set<std::string> top;
  for (const auto& n : mg.graph_def().node()) top.insert(n.name());
  EXPECT_TRUE(top.count(saver.restore_op_name()));
  EXPECT_TRUE(top.count(saver.save_tensor_name().substr(0, saver.save_tensor_name().find(':'))));
  EXPECT_TRUE(top.count("l1/kernel"));
}

TEST(TfExportTest, CnnUsesOnlyTensorFlowOpsWithTheirAttributes) {
  Cnn cnn;
  tf_export::TfExport e = build_tf_export(cnn, {{"serving_default", cnn.serving()}});
  const tensorflow::MetaGraphDef& mg = e.saved_model.meta_graphs(0);
  const tensorflow::FunctionDef& f = mg.graph_def().library().function(0);
  for (const std::string& op : ops_of(f)) {
    EXPECT_NE(op[0], '_') << op;
    EXPECT_TRUE(op == "Const" || tf_export::find_op_rule(op) != nullptr) << op;
  }
  const tensorflow::NodeDef* bn = find_node(f, "FusedBatchNormV3");
  ASSERT_NE(bn, nullptr);
  EXPECT_EQ(bn->attr().at("U").type(), tensorflow::DT_FLOAT);
  EXPECT_FALSE(bn->attr().at("is_training").b());
  const tensorflow::NodeDef* conv = find_node(f, "Conv2D");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->attr().at("padding").s(), "VALID");
  EXPECT_EQ(conv->attr().at("strides").list().i_size(), 4);
  // Reshape's shape is an input tensor in TensorFlow: a Const, typed by Tshape.
  const tensorflow::NodeDef* reshape = find_node(f, "Reshape");
  ASSERT_NE(reshape, nullptr);
  ASSERT_EQ(reshape->input_size(), 2);
  EXPECT_EQ(reshape->attr().at("Tshape").type(), tensorflow::DT_INT32);
  EXPECT_EQ(find_node(f, "Relu")->input_size(), 1);
}

TEST(TfExportTest, FilesHoldTheModelAndTheCheckpoint) {
  Mlp mlp;
  const std::string dir = temp_dir("tf_export_files") + "/1";
  save(mlp, dir, mlp.serving(), {.format = Format::kTensorFlow});
  EXPECT_TRUE(file_exists(dir + "/saved_model.pb"));
  EXPECT_FALSE(file_exists(dir + "/saved_model.tfcc"));
  tensorflow::SavedModel sm;
  ASSERT_TRUE(sm.ParseFromString(read_file(dir + "/saved_model.pb")));
  EXPECT_EQ(sm.meta_graphs(0).signature_def().count("serving_default"), 1u);
  checkpoint::BundleReader r(dir + "/variables/variables");
  EXPECT_TRUE(r.contains("_CHECKPOINTABLE_OBJECT_GRAPH"));
  Tensor k = r.read_tensor("l1/kernel/.ATTRIBUTES/VARIABLE_VALUE");
  EXPECT_EQ(k.to_vector<float>(), mlp.l1_->w_.read_value().to_vector<float>());
  // Saving again replaces the export.
  save(mlp, dir, mlp.serving(), {.format = Format::kTensorFlow});
  EXPECT_TRUE(file_exists(dir + "/saved_model.pb"));
}

TEST(TfExportTest, CondAndWhileBecomeIfAndWhileWithFunctions) {
  Looper looper;
  tf_export::TfExport e = build_tf_export(looper, {{"serving_default", looper.serving()}});
  const tensorflow::MetaGraphDef& mg = e.saved_model.meta_graphs(0);
  const std::string top = mg.object_graph_def().concrete_functions().begin()->first;
  const tensorflow::FunctionDef& f = function(mg, top);
  const tensorflow::NodeDef* if_node = find_node(f, "If");
  const tensorflow::NodeDef* while_node = find_node(f, "While");
  ASSERT_NE(if_node, nullptr);
  ASSERT_NE(while_node, nullptr);
  // Both branches take every input and the variable the then branch reads.
  const auto& then_fn = function(mg, if_node->attr().at("then_branch").func().name());
  const auto& else_fn = function(mg, if_node->attr().at("else_branch").func().name());
  EXPECT_EQ(then_fn.signature().input_arg_size(), if_node->attr().at("Tin").list().type_size());
  EXPECT_EQ(else_fn.signature().input_arg_size(), then_fn.signature().input_arg_size());
  EXPECT_TRUE(ops_of(then_fn).count("ReadVariableOp"));
  // maximum_iterations = 8: an int32 counter is the last loop variable, checked by cond.
  const auto& types = while_node->attr().at("T").list();
  EXPECT_EQ(types.type(types.type_size() - 1), tensorflow::DT_INT32);
  const auto& cond_fn = function(mg, while_node->attr().at("cond").func().name());
  const auto& body_fn = function(mg, while_node->attr().at("body").func().name());
  EXPECT_EQ(cond_fn.signature().input_arg_size(), types.type_size());
  EXPECT_EQ(body_fn.signature().output_arg_size(), types.type_size());
  EXPECT_TRUE(ops_of(cond_fn).count("LogicalAnd"));
  EXPECT_EQ(cond_fn.signature().output_arg(0).type(), tensorflow::DT_BOOL);
}

TEST(TfExportTest, WhatTensorFlowCannotReceiveIsReported) {
  Mlp mlp;
  auto random_fn = tfcc::function([&](Tensor x) { return mlp(x) + random::uniform({1, 3}); });
  try {
    build_tf_export(mlp,
                    {{"serving_default", random_fn.get_concrete_function(TensorSpec{{-1, 4}})}});
    FAIL() << "a random op exported";
  } catch (const UnimplementedError& e) {
    EXPECT_NE(std::string(e.what()).find("RandomUniform"), std::string::npos) << e.what();
  }
  auto f = tfcc::function([&](Tensor x) {
    tfcc::print("x =", x);
    return mlp(x);
  });
  EXPECT_THROW(save(mlp, temp_dir("tf_host") + "/export",
                    f.get_concrete_function(TensorSpec{{-1, 4}}), {.format = Format::kTensorFlow}),
               InvalidArgumentError);
  EXPECT_THROW(build_tf_export(mlp, {}), InvalidArgumentError);
}

TEST(TfExportTest, ServingDirectoryCountsVersions) {
  const std::string base = temp_dir("serving_dirs");
  EXPECT_EQ(serving_directory(base + "/model"), base + "/model/1");
  make_dirs(base + "/model/1");
  make_dirs(base + "/model/7");
  make_dirs(base + "/model/v0.1");
  EXPECT_EQ(serving_directory(base + "/model"), base + "/model/8");
  EXPECT_EQ(serving_directory(base + "/model", 3), base + "/model/3");
  EXPECT_THROW(serving_directory(base + "/model", -2), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::saved_model
