// The graph IR serialisation: decode(encode(g)) prints identically (every node, attribute,
// dtype, shape, location, subgraph), unknown ops reported together, limits enforced.
#include "tfcc/io/saved_model/graph_codec.h"

#include <gtest/gtest.h>

#include "tests/unit/io/saved_model/test_models.h"
#include "tfcc/autodiff/gradient_tape.h"
#include "tfcc/io/saved_model/model_file.h"
#include "tfcc/io/saved_model/saved_model.h"

namespace tfcc::saved_model {
namespace {

using namespace testing_models;

std::vector<std::shared_ptr<const graph::Graph>> round_trip(const ConcreteFunction& cf,
                                                            const DecodeLimits& limits = {}) {
  std::vector<std::shared_ptr<const graph::Graph>> roots = {cf.shared_graph()};
  EncodedFunctions enc = encode_functions(roots);
  return decode_functions(enc.functions, enc.variables, limits, "test");
}

TEST(GraphCodecTest, MlpPrintsIdentically) {
  Mlp mlp;
  ConcreteFunction cf = mlp.serving();
  auto lib = round_trip(cf);
  ASSERT_EQ(lib.size(), 1u);
  EXPECT_EQ(lib[0]->to_string(), cf.graph().to_string());
  EXPECT_NE(cf.graph().to_string().find("test_models.h:"), std::string::npos);
}

TEST(GraphCodecTest, CnnPrintsIdentically) {
  Cnn cnn;
  ConcreteFunction cf = cnn.serving();
  auto lib = round_trip(cf);
  EXPECT_EQ(lib.back()->to_string(), cf.graph().to_string());
  EXPECT_NE(cf.graph().to_string().find("FusedBatchNormV3"), std::string::npos);
}

TEST(GraphCodecTest, CondAndWhilePrintIdentically) {
  Looper looper;
  ConcreteFunction cf = looper.serving();
  auto lib = round_trip(cf);
  std::string text = cf.graph().to_string();
  EXPECT_EQ(lib.back()->to_string(), text);
  EXPECT_NE(text.find("If("), std::string::npos);
  EXPECT_NE(text.find("While("), std::string::npos);
  EXPECT_NE(text.find("maximum_iterations=8"), std::string::npos);
}

TEST(GraphCodecTest, GradientGraphWithHistoryPrintsIdentically) {
  // A While that keeps its history (the forward loop of a gradient) and the backward While.
  Variable w(Tensor::scalar<float>(1.25f));
  auto f = tfcc::function([&](Tensor x) {
    GradientTape tape;
    tape.watch(x);
    auto [y] =
        while_loop([](const Tensor& v) { return less(reduce_sum(v), 50.0f); },
                   [&](const Tensor& v) { return std::tuple{v * w.read_value()}; }, std::tuple{x});
    return tape.gradient(reduce_sum(y), x);
  });
  ConcreteFunction cf = f.get_concrete_function(TensorSpec{{3}});
  auto lib = round_trip(cf);
  EXPECT_EQ(lib.back()->to_string(), cf.graph().to_string());
  Tensor x = Tensor::from_vector<float>({1, 2, 3});
  ConcreteFunction loaded(lib.back(), cf.input_specs());
  EXPECT_EQ(loaded({x})[0].to_vector<float>(), cf({x})[0].to_vector<float>());
}

TEST(GraphCodecTest, UnknownOpsAreListedTogether) {
  Mlp mlp;
  std::vector<std::shared_ptr<const graph::Graph>> roots = {mlp.serving().shared_graph()};
  EncodedFunctions enc = encode_functions(roots);
  // Same-length renames keep the wire format valid.
  for (std::string& f : enc.functions) {
    for (auto [from, to] : {std::pair{"MatMul", "MatMuX"}, std::pair{"Relu", "Relz"}}) {
      for (size_t p = f.find(from); p != std::string::npos; p = f.find(from, p + 1)) {
        f.replace(p, std::string(from).size(), to);
      }
    }
  }
  try {
    decode_functions(enc.functions, enc.variables, {}, "test");
    FAIL() << "unknown ops accepted";
  } catch (const NotFoundError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("2 op(s)"), std::string::npos) << msg;
    EXPECT_NE(msg.find("MatMuX"), std::string::npos) << msg;
    EXPECT_NE(msg.find("Relz"), std::string::npos) << msg;
    EXPECT_NE(msg.find("3 node(s)"), std::string::npos) << msg;
  }
}

TEST(GraphCodecTest, UnknownOpsReportedByLoadBeforeRunning) {
  Mlp mlp;
  std::string dir = temp_dir("unknown_op") + "/export";
  save(mlp, dir, mlp.serving(), {.format = Format::kTfccLegacy});
  std::string path = dir + "/" + kModelFilename;
  ModelFile m = decode_model_file(read_file(path), path);
  for (std::string& f : m.functions) {
    for (size_t p = f.find("Relu"); p != std::string::npos; p = f.find("Relu", p + 1)) {
      f.replace(p, 4, "Gelx");
    }
  }
  write_file_atomic(path, encode_model_file(m));
  try {
    load(dir);
    FAIL() << "unknown op accepted";
  } catch (const NotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("Gelx"), std::string::npos) << e.what();
  }
}

TEST(GraphCodecTest, LimitsAreInvalidArgument) {
  Looper looper;
  ConcreteFunction cf = looper.serving();
  EXPECT_THROW(round_trip(cf, {.max_nodes = 5}), InvalidArgumentError);
  EXPECT_THROW(round_trip(cf, {.max_nesting_depth = 1}), InvalidArgumentError);
  EXPECT_NO_THROW(round_trip(cf, {.max_nesting_depth = 2}));
  EXPECT_THROW(round_trip(cf, {.max_tensor_bytes = 4}), InvalidArgumentError);  // constants
  Cnn cnn;
  std::string dir = temp_dir("limits") + "/export";
  save(cnn, dir, cnn.serving(), {.format = Format::kTfccLegacy});
  EXPECT_THROW(load(dir, {.max_tensor_bytes = 64}), InvalidArgumentError);
  EXPECT_THROW(load(dir, {.max_nodes = 3}), InvalidArgumentError);
}

TEST(GraphCodecTest, ForwardReferencesAreRejected) {
  Looper looper;
  std::vector<std::shared_ptr<const graph::Graph>> roots = {looper.serving().shared_graph()};
  EncodedFunctions enc = encode_functions(roots);
  std::reverse(enc.functions.begin(), enc.functions.end());  // bodies after their users
  EXPECT_THROW(decode_functions(enc.functions, enc.variables, {}, "test"), InvalidArgumentError);
}

TEST(GraphCodecTest, MismatchedDeclaredTypesAreRejected) {
  Mlp mlp;
  std::vector<std::shared_ptr<const graph::Graph>> roots = {mlp.serving().shared_graph()};
  EncodedFunctions enc = encode_functions(roots);
  // The argument's output declared float64 (dtype number 1) instead of float32 (0): the first
  // output field (tag 0x32, a length, then dtype field 08 00) of the first node.
  std::string& f = enc.functions[0];
  size_t p = 0;
  while ((p = f.find(std::string("\x08\x00\x12", 3), p + 1)) != std::string::npos) {
    if (p >= 2 && static_cast<unsigned char>(f[p - 2]) == 0x32) break;
  }
  ASSERT_NE(p, std::string::npos);
  f[p + 1] = 1;
  EXPECT_THROW(decode_functions(enc.functions, enc.variables, {}, "test"), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::saved_model
