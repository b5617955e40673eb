// saved_model::save / load: outputs of the loaded signatures equal the original's bit for bit
// (MLP, CNN with conv/pool/batch norm, cond + while_loop); metadata; variables as a checkpoint.
#include "tfcc/io/saved_model/saved_model.h"

#include <gtest/gtest.h>

#include "tests/unit/io/saved_model/test_models.h"
#include "tfcc/graph/trace/print.h"
#include "tfcc/io/checkpoint/checkpoint_reader.h"
#include "tfcc/io/proto/saved_model.pb.h"
#include "tfcc/platform/file.h"

namespace tfcc::saved_model {
namespace {

using namespace testing_models;

template <typename T>
void expect_bitwise_equal(const Tensor& a, const Tensor& b) {
  ASSERT_EQ(a.dtype(), b.dtype());
  ASSERT_EQ(a.shape(), b.shape());
  EXPECT_EQ(0, std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()));
}

TEST(SavedModelTest, MlpRoundTripBitwise) {
  Mlp mlp;
  ConcreteFunction serve = mlp.serving();
  std::string dir = temp_dir("mlp") + "/export";
  save(mlp, dir, serve);
  LoadedModel loaded = load(dir);

  ASSERT_EQ(loaded.signatures.count("serving_default"), 1u);
  const Signature& sig = loaded.signatures.at("serving_default");
  ASSERT_EQ(sig.inputs().size(), 1u);
  EXPECT_EQ(sig.inputs()[0].name, "x");
  EXPECT_EQ(sig.inputs()[0].shape, PartialShape({-1, 4}));
  ASSERT_EQ(sig.outputs().size(), 1u);
  EXPECT_EQ(sig.outputs()[0].name, "output_0");
  EXPECT_EQ(sig.outputs()[0].shape, PartialShape({-1, 3}));
  EXPECT_EQ(loaded.format_version, 1u);  // a TensorFlow SavedModel: saved_model_schema_version

  Tensor x = random::stateless_normal({5, 4}, {3, 3});
  Tensor want = serve({x})[0];
  expect_bitwise_equal<float>(sig({x})[0], want);
  std::map<std::string, Tensor> named = sig({{"x", x}});
  expect_bitwise_equal<float>(named.at("output_0"), want);
  // Another batch size fits the (-1, 4) signature.
  Tensor x2 = random::stateless_normal({2, 4}, {4, 4});
  expect_bitwise_equal<float>(sig({x2})[0], serve({x2})[0]);
  // Variables keyed by module path, readable as a TF checkpoint.
  // ... and the object graph TensorFlow's loader links them by, sorted first.
  auto vars = train::list_variables(dir + "/variables/variables");
  ASSERT_EQ(vars.size(), 5u);
  EXPECT_EQ(vars[0].first, "_CHECKPOINTABLE_OBJECT_GRAPH");
  EXPECT_EQ(vars[1].first, "l1/bias/.ATTRIBUTES/VARIABLE_VALUE");
  EXPECT_EQ(loaded.variables.size(), 4u);
}

TEST(SavedModelTest, CnnRoundTripBitwise) {
  Cnn cnn;
  ConcreteFunction serve = cnn.serving();
  std::string dir = temp_dir("cnn") + "/export";
  save(cnn, dir, serve);
  LoadedModel loaded = load(dir);
  Tensor x = random::stateless_uniform({3, 8, 8, 1}, {5, 5});
  expect_bitwise_equal<float>(loaded.signatures.at("serving_default")({x})[0], serve({x})[0]);
  EXPECT_EQ(loaded.signatures.at("serving_default").inputs()[0].name, "images");
}

TEST(SavedModelTest, CondWhileRoundTripBitwise) {
  Looper looper;
  ConcreteFunction serve = looper.serving();
  std::string dir = temp_dir("looper") + "/export";
  save(looper, dir, serve);
  LoadedModel loaded = load(dir);
  // In the file: cond branches, loop cond and body, the root, each a FunctionDef.
  tensorflow::SavedModel pb;
  ASSERT_TRUE(pb.ParseFromString(read_file(dir + "/saved_model.pb")));
  EXPECT_GE(pb.meta_graphs(0).graph_def().library().function_size(), 5);
  const Signature& sig = loaded.signatures.at("serving_default");
  for (const Tensor& x : {Tensor::from_vector<float>({1, 2, 3}),
                          Tensor::from_vector<float>({-4, 1}), Tensor::from_vector<float>({50})}) {
    std::vector<Tensor> want = serve({x});
    std::vector<Tensor> got = sig({x});
    ASSERT_EQ(got.size(), 2u);
    expect_bitwise_equal<float>(got[0], want[0]);
    expect_bitwise_equal<int32_t>(got[1], want[1]);
  }
}

TEST(SavedModelTest, SeveralSignaturesAndOverwrite) {
  Mlp mlp;
  std::string dir = temp_dir("multi") + "/export";
  save(mlp, dir, mlp.serving());  // replaced below
  auto f = tfcc::function([&](Tensor a, Tensor b) { return mlp(a) + mlp(b); });
  save(mlp, dir,
       {{"serving_default", mlp.serving()},
        {"pair", f.get_concrete_function(TensorSpec{{1, 4}, float32, "a"},
                                         TensorSpec{{1, 4}, float32, "a"})}});
  LoadedModel loaded = load(dir);
  ASSERT_EQ(loaded.signatures.size(), 2u);
  const Signature& pair = loaded.signatures.at("pair");
  ASSERT_EQ(pair.inputs().size(), 2u);
  EXPECT_EQ(pair.inputs()[0].name, "a");
  EXPECT_EQ(pair.inputs()[1].name, "a_1");  // names made unique
  Tensor a = random::stateless_normal({1, 4}, {1, 9}), b = random::stateless_normal({1, 4}, {2, 9});
  expect_bitwise_equal<float>(pair({a, b})[0], f(a, b));
  EXPECT_FALSE(file_exists(dir + ".tmp-" + std::to_string(::getpid())));
  save(mlp, dir + "/", mlp.serving());  // a trailing slash names the same directory
  EXPECT_EQ(load(dir).signatures.size(), 1u);
}

TEST(SavedModelTest, BadCallsAreInvalidArgument) {
  Mlp mlp;
  std::string dir = temp_dir("badcall") + "/export";
  save(mlp, dir, mlp.serving());
  const Signature sig = load(dir).signatures.at("serving_default");
  EXPECT_THROW(sig({Tensor::from_vector<float>({1, 2, 3})}), InvalidArgumentError);
  EXPECT_THROW(sig({random::normal({2, 4}, 0, 1, float64)}), InvalidArgumentError);
  EXPECT_THROW(sig(std::map<std::string, Tensor>{{"y", random::normal({2, 4})}}),
               InvalidArgumentError);
}

TEST(SavedModelTest, HostCallsCannotBeExported) {
  Mlp mlp;
  auto f = tfcc::function([&](Tensor x) {
    tfcc::print("x =", x);
    return mlp(x);
  });
  ConcreteFunction cf = f.get_concrete_function(TensorSpec{{-1, 4}});
  EXPECT_THROW(save(mlp, temp_dir("host") + "/export", cf), InvalidArgumentError);
}

TEST(SavedModelTest, MissingDirectoryIsNotFound) {
  EXPECT_THROW(load(temp_dir("missing") + "/nothing"), NotFoundError);
}

}  // namespace
}  // namespace tfcc::saved_model
