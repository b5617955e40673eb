// The TensorFlow SavedModel importer on SavedModels built here with the generated protobuf
// classes: the TF2 layout (function library, `node:out_arg:index`, object-graph variables),
// stripped default attributes, control dependencies and dead code, control flow, compositions,
// and the errors (unknown ops listed together, corrupt files, limits).
#include "tfcc/io/saved_model/tf_import/tf_import.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/unit/io/saved_model/tf_import/tf_model_builder.h"
#include "tfcc/io/saved_model/saved_model.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/operators.h"
#include "tfcc/ops/registry.h"

namespace tfcc::saved_model {
namespace {

using namespace tf_testing;  // NOLINT
using tensorflow::DT_FLOAT;
using tensorflow::DT_INT32;
using tensorflow::DT_RESOURCE;

Tensor mat(std::vector<float> v, int64_t r, int64_t c) {
  return Tensor::from_vector<float>(v, Shape{r, c});
}

void expect_near(const Tensor& got, const std::vector<float>& want, float tol = 1e-5f) {
  ASSERT_EQ(got.shape().num_elements(), static_cast<int64_t>(want.size()));
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(got.data<float>()[i], want[i], tol) << "element " << i;
  }
}

// x [-1,2] -> MatMul(x, Const [2,3]) at top level: no functions, no variables.
TEST(TfImportTest, TopLevelGraphWithoutFunctions) {
  Builder b;
  add_node(b.graph()->mutable_node(), "w", "Const", {},
           {{"dtype", type_attr(DT_FLOAT)}, {"value", tensor_attr({1, 2, 3, 4, 5, 6}, {2, 3})}});
  add_node(b.graph()->mutable_node(), "y", "MatMul", {"x", "w"}, {{"T", type_attr(DT_FLOAT)}});
  b.signature("serving_default", {{"x", "x", {-1, 2}}}, {{"y", "y:0"}});
  const std::string dir = temp_dir("plain");
  b.write(dir);
  LoadedModel m = load(dir);
  EXPECT_EQ(m.producer, "TensorFlow 2.21.0");
  auto out = m.signatures.at("serving_default")({{"x", mat({1, 1, 0, 2}, 2, 2)}});
  expect_near(out.at("y"), {5, 7, 9, 8, 10, 12});
}

// The TF2 layout: StatefulPartitionedCall(f, x, kernel, bias) with f reading the variables,
// MatMul without its (stripped) transpose attrs, BiasAdd without data_format, `node:arg:idx`
// references, a control-dependent Identity, and dead code using an op tfcc lacks.
Builder dense_model() {
  Builder b;
  const int k = b.variable("kernel", mat({1, -1, 2, 0.5f}, 2, 2));
  const int bias = b.variable("bias", Tensor::from_vector<float>({0.25f, -3.f}));
  auto* f = b.function("__inference_forward_7");
  auto* sig = f->mutable_signature();
  add_arg(sig, "inputs", DT_FLOAT);
  add_arg(sig, "matmul_readvariableop_resource", DT_RESOURCE);
  add_arg(sig, "biasadd_readvariableop_resource", DT_RESOURCE);
  add_arg(sig, "identity", DT_FLOAT, true);
  auto* n = f->mutable_node_def();
  add_node(n, "MatMul/ReadVariableOp", "ReadVariableOp", {"matmul_readvariableop_resource"},
           {{"dtype", type_attr(DT_FLOAT)}});
  add_node(n, "MatMul", "MatMul", {"inputs", "MatMul/ReadVariableOp:value:0"},
           {{"T", type_attr(DT_FLOAT)}});
  add_node(n, "BiasAdd/ReadVariableOp", "ReadVariableOp", {"biasadd_readvariableop_resource"},
           {{"dtype", type_attr(DT_FLOAT)}});
  add_node(n, "BiasAdd", "BiasAdd", {"MatMul:product:0", "BiasAdd/ReadVariableOp:value:0"},
           {{"T", type_attr(DT_FLOAT)}});
  add_node(n, "Relu", "Relu", {"BiasAdd:output:0"}, {{"T", type_attr(DT_FLOAT)}});
  add_node(n, "NoOp", "NoOp", {"^MatMul/ReadVariableOp", "^BiasAdd/ReadVariableOp"});
  add_node(n, "Identity", "Identity", {"Relu:activations:0", "^NoOp"},
           {{"T", type_attr(DT_FLOAT)}});
  add_node(n, "dead", "NoSuchTensorFlowOp", {"inputs"});  // reachable from no output
  (*f->mutable_ret())["identity"] = "Identity:output:0";
  (*f->mutable_control_ret())["NoOp"] = "NoOp";
  add_node(b.graph()->mutable_node(), "StatefulPartitionedCall", "StatefulPartitionedCall",
           {"serving_default_inputs", "kernel", "bias"},
           {{"f", func_attr("__inference_forward_7")},
            {"Tin", types_attr({DT_FLOAT, DT_RESOURCE, DT_RESOURCE})},
            {"Tout", types_attr({DT_FLOAT})}});
  b.bind("__inference_forward_7", {k, bias});
  b.signature("serving_default", {{"inputs", "serving_default_inputs", {-1, 2}}},
              {{"output_0", "StatefulPartitionedCall:0"}});
  return b;
}

TEST(TfImportTest, FunctionLibraryVariablesAndStrippedDefaults) {
  const std::string dir = temp_dir("dense");
  dense_model().write(dir);
  LoadedModel m = load(dir);
  ASSERT_EQ(m.variables.size(), 2u);
  EXPECT_EQ(m.variable_keys[0], "kernel/.ATTRIBUTES/VARIABLE_VALUE");
  const Signature& s = m.signatures.at("serving_default");
  ASSERT_EQ(s.inputs().size(), 1u);
  EXPECT_EQ(s.inputs()[0].name, "inputs");
  EXPECT_EQ(s.outputs()[0].name, "output_0");
  // relu([x0 + 2 x1 + 0.25, -x0 + 0.5 x1 - 3])
  auto out = s({{"inputs", mat({1, 2, 3, 4, -1, 0}, 3, 2)}});
  expect_near(out.at("output_0"), {5.25f, 0, 11.25f, 0, 0, 0});
  // Another batch size traces again and still agrees.
  auto out1 = s({{"inputs", mat({1, 2}, 1, 2)}});
  expect_near(out1.at("output_0"), {5.25f, 0});
}

TEST(TfImportTest, ShowPrintsLikeSavedModelCli) {
  const std::string dir = temp_dir("show");
  dense_model().write(dir);
  std::string text = tf_import::describe(dir);
  EXPECT_NE(text.find("MetaGraphDef with tag-set: 'serve' contains the following SignatureDefs:"),
            std::string::npos);
  EXPECT_NE(text.find("    inputs['inputs'] tensor_info:\n        dtype: DT_FLOAT\n"
                      "        shape: (-1, 2)\n        name: serving_default_inputs:0\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  Method name is: tensorflow/serving/predict"), std::string::npos);
  EXPECT_NE(text.find("'StatefulPartitionedCall'"), std::string::npos);
}

TEST(TfImportTest, UnknownOpsAreListedTogetherBeforeAnythingRuns) {
  Builder b;
  add_node(b.graph()->mutable_node(), "a", "Foo", {"x"});
  add_node(b.graph()->mutable_node(), "b", "Bar", {"a"});
  add_node(b.graph()->mutable_node(), "c", "Foo", {"b"});
  b.signature("serving_default", {{"x", "x", {2}}}, {{"y", "c:0"}});
  const std::string dir = temp_dir("unknown");
  b.write(dir);
  try {
    load(dir);
    FAIL() << "expected UnimplementedError";
  } catch (const UnimplementedError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("saved_model.pb"), std::string::npos) << m;
    EXPECT_NE(m.find("2 TensorFlow op(s)"), std::string::npos) << m;
    EXPECT_NE(m.find("Bar (b)"), std::string::npos) << m;
    EXPECT_NE(m.find("Foo (a, c)"), std::string::npos) << m;
  }
}

TEST(TfImportTest, CorruptAndMissingFiles) {
  const std::string dir = temp_dir("corrupt");
  write_file_atomic(dir + "/saved_model.pb", std::string("\x0a\xff\xff\xff\x0f garbage"));
  try {
    load(dir);
    FAIL() << "expected DataLossError";
  } catch (const DataLossError& e) {
    EXPECT_NE(std::string(e.what()).find(dir + "/saved_model.pb"), std::string::npos);
  }
  // Variables the graph needs but no checkpoint.
  const std::string d2 = temp_dir("novars");
  Builder b = dense_model();
  b.variables.clear();
  b.write(d2);
  EXPECT_THROW(load(d2), NotFoundError);
  // A truncated checkpoint index.
  const std::string d3 = temp_dir("truncated");
  dense_model().write(d3);
  std::string index = read_file(d3 + "/variables/variables.index");
  write_file_atomic(d3 + "/variables/variables.index", index.substr(0, index.size() / 2));
  EXPECT_THROW(load(d3), DataLossError);
}

TEST(TfImportTest, LimitsAreInvalidArgument) {
  const std::string dir = temp_dir("limits");
  dense_model().write(dir);
  EXPECT_THROW(load(dir, {.max_nodes = 3}), InvalidArgumentError);
  EXPECT_THROW(load(dir, {.max_tensor_bytes = 8}), InvalidArgumentError);
  EXPECT_THROW(load(dir, {.max_nesting_depth = 0}), InvalidArgumentError);
  // A function calling itself is stopped by the nesting limit, not the stack.
  Builder b;
  auto* f = b.function("loop");
  add_arg(f->mutable_signature(), "x", DT_FLOAT);
  add_arg(f->mutable_signature(), "y", DT_FLOAT, true);
  add_node(f->mutable_node_def(), "again", "PartitionedCall", {"x"}, {{"f", func_attr("loop")}});
  (*f->mutable_ret())["y"] = "again:output:0";
  add_node(b.graph()->mutable_node(), "call", "PartitionedCall", {"x"}, {{"f", func_attr("loop")}});
  b.signature("serving_default", {{"x", "x", {2}}}, {{"y", "call:0"}});
  const std::string d2 = temp_dir("recursion");
  b.write(d2);
  EXPECT_THROW(load(d2), InvalidArgumentError);
  // Two small constants whose broadcast would be 64 MB, computed at import time or not.
  Builder big;
  add_node(big.graph()->mutable_node(), "col", "Const", {},
           {{"dtype", type_attr(DT_FLOAT)}, {"value", tensor_attr({1}, {4096, 1})}});
  add_node(big.graph()->mutable_node(), "row", "Const", {},
           {{"dtype", type_attr(DT_FLOAT)}, {"value", tensor_attr({1}, {1, 4096})}});
  add_node(big.graph()->mutable_node(), "sum", "AddV2", {"col", "row"});
  add_node(big.graph()->mutable_node(), "y", "AddV2", {"sum", "x"});
  big.signature("serving_default", {{"x", "x", {1}}}, {{"y", "y:0"}});
  const std::string d3 = temp_dir("broadcast");
  big.write(d3);
  EXPECT_THROW(load(d3, {.max_tensor_bytes = 1 << 20}), InvalidArgumentError);
  EXPECT_NO_THROW(load(d3));
}

// StatelessIf on a data-dependent predicate, StatelessWhile, Case.
TEST(TfImportTest, ControlFlow) {
  Builder b;
  auto unary_fn = [&](const std::string& name, const std::string& op) {
    auto* f = b.function(name);
    add_arg(f->mutable_signature(), "x", DT_FLOAT);
    add_arg(f->mutable_signature(), "y", DT_FLOAT, true);
    add_node(f->mutable_node_def(), "op", op, {"x"}, {{"T", type_attr(DT_FLOAT)}});
    (*f->mutable_ret())["y"] = "op:y:0";
  };
  unary_fn("then_f", "Neg");
  unary_fn("else_f", "Square");
  unary_fn("third_f", "Exp");
  // while (i < 3) { i += 1; x = x * 2 }
  auto* cond = b.function("cond_f");
  add_arg(cond->mutable_signature(), "i", DT_INT32);
  add_arg(cond->mutable_signature(), "x", DT_FLOAT);
  add_arg(cond->mutable_signature(), "ok", tensorflow::DT_BOOL, true);
  add_node(cond->mutable_node_def(), "three", "Const", {},
           {{"dtype", type_attr(DT_INT32)}, {"value", int_tensor_attr({3}, {})}});
  add_node(cond->mutable_node_def(), "less", "Less", {"i", "three:output:0"});
  (*cond->mutable_ret())["ok"] = "less:z:0";
  auto* body = b.function("body_f");
  add_arg(body->mutable_signature(), "i", DT_INT32);
  add_arg(body->mutable_signature(), "x", DT_FLOAT);
  add_arg(body->mutable_signature(), "i2", DT_INT32, true);
  add_arg(body->mutable_signature(), "x2", DT_FLOAT, true);
  add_node(body->mutable_node_def(), "one", "Const", {},
           {{"dtype", type_attr(DT_INT32)}, {"value", int_tensor_attr({1}, {})}});
  add_node(body->mutable_node_def(), "two", "Const", {},
           {{"dtype", type_attr(DT_FLOAT)}, {"value", tensor_attr({2}, {})}});
  add_node(body->mutable_node_def(), "inc", "AddV2", {"i", "one:output:0"});
  add_node(body->mutable_node_def(), "dbl", "Mul", {"x", "two:output:0"});
  (*body->mutable_ret())["i2"] = "inc:z:0";
  (*body->mutable_ret())["x2"] = "dbl:z:0";

  auto* g = b.graph()->mutable_node();
  add_node(g, "zero", "Const", {},
           {{"dtype", type_attr(DT_FLOAT)}, {"value", tensor_attr({0}, {})}});
  add_node(g, "sum", "Sum", {"x", "axes"});
  add_node(g, "axes", "Const", {},
           {{"dtype", type_attr(DT_INT32)}, {"value", int_tensor_attr({0}, {1})}});
  add_node(g, "pred", "Greater", {"sum", "zero"});
  add_node(g, "if", "StatelessIf", {"pred", "x"},
           {{"then_branch", func_attr("then_f")}, {"else_branch", func_attr("else_f")}});
  add_node(g, "i0", "Const", {},
           {{"dtype", type_attr(DT_INT32)}, {"value", int_tensor_attr({0}, {})}});
  add_node(g, "while", "StatelessWhile", {"i0", "x"},
           {{"cond", func_attr("cond_f")}, {"body", func_attr("body_f")}});
  add_node(g, "idx", "Cast", {"sum"}, {{"DstT", type_attr(DT_INT32)}});
  tensorflow::AttrValue branches;
  for (const char* f : {"then_f", "else_f", "third_f"})
    branches.mutable_list()->add_func()->set_name(f);
  add_node(g, "case", "Case", {"idx", "x"}, {{"branches", branches}});
  b.signature("serving_default", {{"x", "x", {2}}},
              {{"a_if", "if:0"}, {"b_while", "while:1"}, {"c_case", "case:0"}});
  const std::string dir = temp_dir("control");
  b.write(dir);
  const Signature s = load(dir).signatures.at("serving_default");
  auto pos = s({{"x", Tensor::from_vector<float>({1.f, 0.5f})}});  // sum 1.5 -> Neg, case 1
  expect_near(pos.at("a_if"), {-1.f, -0.5f});
  expect_near(pos.at("b_while"), {8.f, 4.f});
  expect_near(pos.at("c_case"), {1.f, 0.25f});
  auto neg = s({{"x", Tensor::from_vector<float>({-1.f, -2.f})}});  // sum -3 -> Square, case last
  expect_near(neg.at("a_if"), {1.f, 4.f});
  expect_near(neg.at("c_case"), {std::exp(-1.f), std::exp(-2.f)});
}

// Compositions: Mean, Softmax, Relu6, Rsqrt-based batch norm, Einsum (both MHA equations), Pack /
// Shape / StridedSlice / Reshape shape arithmetic (Flatten).
TEST(TfImportTest, CompositionsMatchEagerOps) {
  Builder b;
  auto* g = b.graph()->mutable_node();
  auto int_const = [&](const std::string& name, std::vector<int32_t> v, std::vector<int64_t> d) {
    add_node(g, name, "Const", {},
             {{"dtype", type_attr(DT_INT32)}, {"value", int_tensor_attr(v, d)}});
  };
  int_const("ax", {1}, {1});
  add_node(g, "mean", "Mean", {"x", "ax"}, {{"keep_dims", [] {
                                               AttrValue a;
                                               a.set_b(true);
                                               return a;
                                             }()}});
  add_node(g, "sm", "Softmax", {"x"});
  add_node(g, "r6", "Relu6", {"x"});
  // Flatten: Reshape(x, Pack([Shape(x)[0], -1]))
  add_node(g, "shape", "Shape", {"x"});
  int_const("b0", {0}, {1});
  int_const("b1", {1}, {1});
  int_const("m1", {-1}, {});
  AttrValue shrink;
  shrink.set_i(1);
  add_node(g, "batch", "StridedSlice", {"shape", "b0", "b1", "b1"}, {{"shrink_axis_mask", shrink}});
  AttrValue n2;
  n2.set_i(2);
  add_node(g, "packed", "Pack", {"batch", "m1"}, {{"N", n2}});
  add_node(g, "flat", "Reshape", {"x4", "packed"});
  // Einsum BTNH,BSNH->BNTS then BNTS,BSNH->BTNH on q = k = v = x4.
  AttrValue e1, e2;
  e1.set_s("BTNH,BSNH->BNTS");
  e2.set_s("BNTS,BSNH->BTNH");
  add_node(g, "scores", "Einsum", {"x4", "x4"}, {{"equation", e1}});
  add_node(g, "ctx", "Einsum", {"scores", "x4"}, {{"equation", e2}});
  b.signature("serving_default", {{"x", "x", {-1, 3}}, {"x4", "x4", {-1, 2, 2, 3}}},
              {{"mean", "mean:0"},
               {"softmax", "sm:0"},
               {"relu6", "r6:0"},
               {"flat", "flat:0"},
               {"scores", "scores:0"},
               {"ctx", "ctx:0"}});
  const std::string dir = temp_dir("compose");
  b.write(dir);
  const Signature s = load(dir).signatures.at("serving_default");
  Tensor x = mat({1, 2, 9, -3, 0, 3}, 2, 3);
  std::vector<float> x4v;
  for (int i = 0; i < 24; ++i) x4v.push_back(0.1f * static_cast<float>(i % 7) - 0.2f);
  Tensor x4 = Tensor::from_vector<float>(x4v, Shape{2, 2, 2, 3});
  auto out = s({{"x", x}, {"x4", x4}});
  expect_near(out.at("mean"), {4, 0});
  expect_near(out.at("relu6"), {1, 2, 6, 0, 0, 3});
  const float e0 = std::exp(1.f - 9), e1v = std::exp(2.f - 9), z = e0 + e1v + 1;
  expect_near(out.at("softmax"),
              {e0 / z, e1v / z, 1 / z, std::exp(-6.f) / (std::exp(-6.f) + std::exp(-3.f) + 1),
               std::exp(-3.f) / (std::exp(-6.f) + std::exp(-3.f) + 1),
               1 / (std::exp(-6.f) + std::exp(-3.f) + 1)});
  EXPECT_EQ(out.at("flat").shape(), (Shape{2, 12}));
  // scores[b,n,t,s] = sum_h x4[b,t,n,h] x4[b,s,n,h]
  auto at = [&](int bb, int t, int n, int h) { return x4v[((bb * 2 + t) * 2 + n) * 3 + h]; };
  const Tensor& sc = out.at("scores");
  ASSERT_EQ(sc.shape(), (Shape{2, 2, 2, 2}));
  for (int bb = 0; bb < 2; ++bb)
    for (int n = 0; n < 2; ++n)
      for (int t = 0; t < 2; ++t)
        for (int s2 = 0; s2 < 2; ++s2) {
          float want = 0;
          for (int h = 0; h < 3; ++h) want += at(bb, t, n, h) * at(bb, s2, n, h);
          EXPECT_NEAR(sc.data<float>()[((bb * 2 + n) * 2 + t) * 2 + s2], want, 1e-5f);
        }
  ASSERT_EQ(out.at("ctx").shape(), (Shape{2, 2, 2, 3}));
}

}  // namespace
}  // namespace tfcc::saved_model

namespace tfcc::saved_model {
namespace {

// Every truncation and every single-byte change of a small SavedModel loads or raises a
// tfcc::Error (the fuzz target fuzz/tf_saved_model_fuzz.cc explores further).
TEST(TfImportTest, DamagedBytesRaiseTfccErrors) {
  const std::string dir = tf_testing::temp_dir("damaged");
  dense_model().write(dir);
  const std::string good = read_file(dir + "/saved_model.pb");
  const LoadOptions options{
      .max_tensor_bytes = 1 << 20, .max_nodes = 4096, .max_nesting_depth = 16};
  int loaded = 0, errors = 0;
  auto attempt = [&](const std::string& bytes) {
    try {
      tf_import::load_from_bytes(bytes, dir, "damaged/saved_model.pb", options);
      ++loaded;
    } catch (const Error&) {
      ++errors;
    }
  };
  for (size_t n = 0; n < good.size(); ++n) attempt(good.substr(0, n));
  for (size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] = static_cast<char>(~bad[i]);
    attempt(bad);
  }
  EXPECT_GT(errors, 0);
  EXPECT_EQ(loaded + errors, static_cast<int>(2 * good.size()));
}

}  // namespace
}  // namespace tfcc::saved_model

namespace tfcc::saved_model {
namespace {

// Elementwise rows: each TensorFlow op, imported, computes what the tfcc op it names computes.
TEST(TfImportTest, ElementwiseRowsMatchTheirTfccOps) {
  using namespace tf_testing;  // NOLINT
  const std::vector<std::string> unary = {
      "Abs", "Neg", "Exp",   "Log1p", "Expm1", "Sqrt", "Rsqrt",      "Square", "Sigmoid", "Tanh",
      "Sin", "Cos", "Floor", "Ceil",  "Round", "Sign", "Reciprocal", "Erf",    "Relu"};
  const std::vector<std::string> binary = {"AddV2",    "Sub",     "Mul", "RealDiv",
                                           "Maximum",  "Minimum", "Pow", "SquaredDifference",
                                           "FloorMod", "FloorDiv"};
  Builder b;
  std::vector<std::pair<std::string, std::string>> outs;
  for (const std::string& op : unary) {
    add_node(b.graph()->mutable_node(), "u_" + op, op, {"x"});
    outs.push_back({"u_" + op, "u_" + op + ":0"});
  }
  for (const std::string& op : binary) {
    add_node(b.graph()->mutable_node(), "b_" + op, op, {"x", "y"});
    outs.push_back({"b_" + op, "b_" + op + ":0"});
  }
  b.signature("serving_default", {{"x", "x", {-1}}, {"y", "y", {-1}}}, outs);
  const std::string dir = temp_dir("elementwise");
  b.write(dir);
  const Signature s = load(dir).signatures.at("serving_default");
  Tensor x = Tensor::from_vector<float>({0.25f, 1.5f, 2.f, 3.75f});
  Tensor y = Tensor::from_vector<float>({1.f, 0.5f, 3.f, 2.f});
  auto got = s({{"x", x}, {"y", y}});
  auto check = [&](const std::string& key, const std::string& op, std::vector<Tensor> in) {
    Tensor want = dispatch1(op_def(op), in, {});
    const Tensor& g = got.at(key);
    ASSERT_EQ(g.shape(), want.shape()) << op;
    for (int64_t i = 0; i < want.shape().num_elements(); ++i) {
      EXPECT_NEAR(g.data<float>()[i], want.data<float>()[i], 1e-6f) << op << " element " << i;
    }
  };
  for (const std::string& op : unary) check("u_" + op, op, {x});
  for (const std::string& op : binary) check("b_" + op, op, {x, y});
}

// FusedBatchNormV3 in inference (is_training=false), with its other attributes stripped.
TEST(TfImportTest, FusedBatchNormInference) {
  using namespace tf_testing;  // NOLINT
  Builder b;
  auto* g = b.graph()->mutable_node();
  auto vec = [&](const std::string& name, std::vector<float> v) {
    add_node(g, name, "Const", {},
             {{"dtype", type_attr(DT_FLOAT)},
              {"value", tensor_attr(v, {static_cast<int64_t>(v.size())})}});
  };
  vec("scale", {2.f, 0.5f});
  vec("offset", {1.f, -1.f});
  vec("mean", {0.5f, 2.f});
  vec("var", {4.f, 1.f});
  AttrValue no;
  no.set_b(false);
  add_node(g, "bn", "FusedBatchNormV3", {"x", "scale", "offset", "mean", "var"},
           {{"is_training", no}});
  b.signature("serving_default", {{"x", "x", {-1, 1, 1, 2}}}, {{"y", "bn:0"}});
  const std::string dir = temp_dir("bn");
  b.write(dir);
  auto out = load(dir).signatures.at("serving_default")(
      {{"x", Tensor::from_vector<float>({2.5f, 3.f}, Shape{1, 1, 1, 2})}});
  // (x - mean) / sqrt(var + 1e-4) * scale + offset
  expect_near(out.at("y"),
              {2.f / std::sqrt(4.0001f) * 2.f + 1.f, 1.f / std::sqrt(1.0001f) * 0.5f - 1.f}, 1e-5f);
}

}  // namespace
}  // namespace tfcc::saved_model
