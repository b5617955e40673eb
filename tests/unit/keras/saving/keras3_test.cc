// Keras 3 files: `.keras` archives and `.weights.h5` (layout, round trips, damaged files). The
// same files against TensorFlow's Keras: tests/integration/keras_file_interop.sh.
#include "tfcc/keras/saving/keras3.h"

#include <gtest/gtest.h>

#include "tests/unit/io/hdf5/hdf5_compare.h"
#include "tests/unit/keras/saving/saving_test_util.h"
#include "tfcc/io/npy/zip.h"
#include "tfcc/keras/saving/model_saving.h"
#include "tfcc/platform/file.h"

namespace tfcc::keras {
namespace {

using io::hdf5::File;
using saving::Json;

TEST(Keras3, SnakeCaseOfClassNamesAsKeras) {
  EXPECT_EQ(saving::keras_snake_case("Dense"), "dense");
  EXPECT_EQ(saving::keras_snake_case("MaxPooling2D"), "max_pooling2d");
  EXPECT_EQ(saving::keras_snake_case("BatchNormalization"), "batch_normalization");
  EXPECT_EQ(saving::keras_snake_case("ReLU"), "re_lu");
  EXPECT_EQ(saving::keras_snake_case("LSTM"), "lstm");
  EXPECT_EQ(saving::keras_snake_case("GlobalAveragePooling2D"), "global_average_pooling2d");
  EXPECT_EQ(saving::keras_snake_case("InputLayer"), "input_layer");
  EXPECT_EQ(saving::keras_snake_case("DepthwiseConv2D"), "depthwise_conv2d");
}

// The functional model of Keras' own example: its model.layers order (Keras 3.15) is
// a, dense_3, b, add, concatenate, dense_4 (by depth, then order of discovery).
TEST(Keras3, FunctionalLayerOrderIsKeras) {
  auto a = Input({6}, {.name = "a"});
  auto b = Input({6}, {.name = "b"});
  auto d = layers::Dense(6, {.name = "d1"})(a);
  auto s = layers::Add({.name = "add"})({d, b});
  auto c = layers::Concatenate({.name = "cat"})({s, a});
  auto model = std::make_shared<Model>(KerasTensors{a, b},
                                       KerasTensors{layers::Dense(2, {.name = "d2"})(c)});
  std::vector<std::string> names;
  for (const auto& l : saving::keras_layers(*model)) names.push_back(l->name());
  EXPECT_EQ(names, (std::vector<std::string>{"a", "d1", "b", "add", "cat", "d2"}));
}

TEST(Keras3, WeightsH5LayoutIsKeras3s) {
  auto model = test::mlp();
  auto [x, y] = test::mlp_data();
  model->fit(x, y, {.batch_size = 32, .epochs = 1, .verbose = 0});
  const std::string path = test::temp_dir("keras3_layout") + "/w.weights.h5";
  model->save_weights(path);
  File f = File::open(path);
  auto root = f.root();
  EXPECT_EQ(root.group("vars").string_attribute("name"), model->name());
  // Paths from class names; the real names in the `name` attribute.
  EXPECT_EQ(root.group("layers/dense/vars").string_attribute("name"), model->layers()[0]->name());
  EXPECT_EQ(root.group("layers/dense_1/vars").string_attribute("name"), model->layers()[2]->name());
  EXPECT_TRUE(root.has_group("layers/dropout/vars"));
  EXPECT_EQ(root.group("layers/dense/vars").read("0").shape(), (Shape{6, 16}));
  EXPECT_EQ(root.group("layers/dense_1/vars").read("1").shape(), (Shape{3}));
  // Optimizer: iterations, learning rate, then Adam's m and v per weight.
  auto opt = root.group("optimizer/vars");
  EXPECT_EQ(opt.read("0").item<int64_t>(), 3);
  EXPECT_FLOAT_EQ(opt.read("1").item<float>(), 0.001f);
  EXPECT_EQ(opt.children().size(), 2u + 2u * 4u);
  EXPECT_EQ(opt.read("2").shape(), (Shape{6, 16}));  // m of the first kernel
  EXPECT_EQ(opt.read("3").shape(), (Shape{6, 16}));  // v of the first kernel
}

TEST(Keras3, WeightsH5RoundTrip) {
  auto model = test::mlp();
  auto [x, y] = test::mlp_data();
  model->fit(x, y, {.batch_size = 32, .epochs = 1, .verbose = 0});
  const std::string path = test::temp_dir("keras3_weights") + "/w.weights.h5";
  model->save_weights(path);
  auto other = test::mlp();
  other->fit(x, y, {.batch_size = 96, .epochs = 1, .verbose = 0});
  EXPECT_NE(test::state_bytes(*other), test::state_bytes(*model));
  other->load_weights(path);
  EXPECT_EQ(test::state_bytes(*other), test::state_bytes(*model));
}

// Files tfcc writes for Conv2D + BatchNormalization and Embedding + LSTM models (with Adam's
// state): tfcc's HDF5 reader, which loading uses, reads every dataset as libhdf5 does, and
// load_weights restores the state bitwise.
TEST(Keras3, WeightsH5OfConvBnLstmEmbeddingReadAsLibhdf5Does) {
  auto cnn = std::make_shared<Sequential>(
      std::vector<LayerPtr>{layers::Conv2D(4, 3, {.input_shape = {8, 8, 1}}),
                            layers::BatchNormalization(), layers::Flatten(), layers::Dense(2)});
  auto ids = Input({5}, {.dtype = int32});
  auto lstm = std::make_shared<Model>(
      ids, layers::Dense(1)(layers::LSTM(3)(layers::Embedding(10, 4)(ids))));
  const Tensor cnn_x = random::normal({8, 8, 8, 1}, 0, 1, float32, 3);
  const Tensor lstm_x = cast(random::uniform({8, 5}, 0, 10, float32, 4), int32);
  const std::string dir = test::temp_dir("keras3_reader");
  int n = 0;
  for (auto [model, x] :
       {std::pair{std::static_pointer_cast<Model>(cnn), cnn_x}, std::pair{lstm, lstm_x}}) {
    model->compile({.optimizer = "adam", .loss = "mse"});
    Tensor y = model->predict(x);
    model->fit(x, y, {.batch_size = 4, .epochs = 1, .verbose = 0});
    const std::string path = dir + "/m" + std::to_string(n++) + ".weights.h5";
    model->save_weights(path);
    const std::string bytes = read_file(path);
    EXPECT_GT(io::hdf5::test::expect_same_hdf5(File::open_image(bytes, path).root(),
                                               io::hdf5::Reader::open_image(bytes, path).root()),
              8);
    const std::string before = test::state_bytes(*model);
    model->fit(x, y, {.batch_size = 4, .epochs = 1, .verbose = 0});
    EXPECT_NE(test::state_bytes(*model), before);
    model->load_weights(path);
    EXPECT_EQ(test::state_bytes(*model), before);
  }
}

TEST(Keras3, KerasArchiveRoundTrip) {
  auto model = test::mlp();
  auto [x, y] = test::mlp_data();
  model->fit(x, y, {.batch_size = 32, .epochs = 1, .verbose = 0});
  const std::string path = test::temp_dir("keras3_archive") + "/m.keras";
  model->save(path);
  auto members = io::zip::read(read_file(path), path);
  ASSERT_EQ(members.size(), 3u);
  EXPECT_EQ(members[0].first, "metadata.json");
  EXPECT_EQ(members[1].first, "config.json");
  EXPECT_EQ(members[2].first, "model.weights.h5");
  Json config = Json::parse(members[1].second, "config.json");
  EXPECT_EQ(config.at("class_name").as_string(), "Sequential");
  EXPECT_EQ(config.at("module").as_string(), "keras");
  const Json& dense = config.at("config").at("layers").items()[1];
  EXPECT_EQ(dense.at("module").as_string(), "keras.layers");
  EXPECT_EQ(dense.at("config").at("dtype").at("class_name").as_string(), "DTypePolicy");
  EXPECT_EQ(dense.at("config").at("kernel_regularizer").at("module").as_string(),
            "keras.regularizers");
  EXPECT_EQ(config.at("compile_config").at("optimizer").at("class_name").as_string(), "Adam");

  auto loaded = models::load_model(path);
  ASSERT_TRUE(loaded->compiled());
  EXPECT_EQ(loaded->summary_string(), model->summary_string());
  EXPECT_EQ(test::state_bytes(*loaded), test::state_bytes(*model));
  EXPECT_EQ(loaded->predict(x).to_vector<float>(), model->predict(x).to_vector<float>());
}

TEST(Keras3, FunctionalArchiveRoundTrip) {
  auto a = Input({6});
  auto b = Input({6});
  auto s = layers::Add()({layers::Dense(6, {.activation = "tanh"})(a), b});
  auto out = layers::Dense(2)(layers::Concatenate()({s, a}));
  auto model = std::make_shared<Model>(KerasTensors{a, b}, KerasTensors{out});
  const std::string path = test::temp_dir("keras3_functional") + "/f.keras";
  model->save(path);
  auto loaded = models::load_model(path);
  Tensor xa = random::normal({4, 6}, 0, 1, float32, 1),
         xb = random::normal({4, 6}, 0, 1, float32, 2);
  EXPECT_EQ((*loaded)(Tensors{xa, xb})[0].to_vector<float>(),
            (*model)(Tensors{xa, xb})[0].to_vector<float>());
}

TEST(Keras3, DamagedArchivesAreTypedErrors) {
  auto model = test::mlp(false);
  const std::string dir = test::temp_dir("keras3_damaged");
  model->save(dir + "/m.keras");
  const std::string bytes = read_file(dir + "/m.keras");
  write_file_atomic(dir + "/cut.keras", bytes.substr(0, bytes.size() / 2));
  EXPECT_THROW(models::load_model(dir + "/cut.keras"), DataLossError);
  write_file_atomic(dir + "/noconfig.keras", io::zip::write({{"metadata.json", "{}"}}));
  EXPECT_THROW(models::load_model(dir + "/noconfig.keras"), DataLossError);
  EXPECT_THROW(models::load_model(dir + "/missing.keras"), NotFoundError);
  // Another architecture's weights: an error naming the layer, never a partial load.
  auto wide = std::make_shared<Sequential>(std::vector<LayerPtr>{
      layers::Dense(17, {.input_shape = {6}}), layers::Dropout(0.25), layers::Dense(3)});
  try {
    wide->load_weights(dir + "/m.keras");
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("m.keras/model.weights.h5"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace tfcc::keras
