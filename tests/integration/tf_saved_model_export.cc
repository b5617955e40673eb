// Writes TensorFlow SavedModels with tfcc for tests/integration/tf_saved_model_export.py to load
// in TensorFlow: for each model, OUT/<model>/1/ (TF Serving's layout: MODEL/<version>/) holds the
// export, OUT/<model>/x.npy an input batch and OUT/<model>/y.npy tfcc's own inference output.
//
// Models: the seed CNN (Sequential, after a few training steps so batch-norm statistics moved),
// an Embedding + LSTM classifier, a small functional ResNet, and MobileNetV2- and ResNet50-shaped
// models built from tfcc's layers (ZeroPadding2D, DepthwiseConv2D, ReLU(6), BatchNormalization,
// Add, GlobalAveragePooling2D) at reduced width and depth; keras::applications' MobileNetV2
// (96x96) and ResNet50 (64x64) at full size (applications_models.h); and a tfcc::function with
// cond and while_loop (If / While with function branches) reading a variable.
//
// usage: tf_saved_model_export OUT_DIR
#include <cstdio>
#include <string>

#include "examples/seed_cnn.h"
#include "tests/integration/applications_models.h"
#include "tfcc/keras/layers/attention.h"
#include "tfcc/platform/file.h"
#include "tfcc/tfcc.h"

namespace tf = tfcc;
using namespace tfcc::keras;

namespace {

using KT = KerasTensor;

// Moves batch-norm statistics and weights away from their initial values.
void train_briefly(Model& model, const tf::Tensor& x, const tf::Tensor& y,
                   const std::string& loss) {
  model.compile({.optimizer = "adam", .loss = loss});
  model.fit(x, y, {.batch_size = 8, .epochs = 2, .verbose = 0});
}

void export_and_record(Model& model, const tf::Tensor& x, const std::string& out,
                       const std::string& name) {
  const std::string dir = out + "/" + name;
  tf::make_dirs(dir);
  export_model(model, tf::saved_model::serving_directory(dir),
               {.save = {.format = tf::saved_model::Format::kTensorFlow}});
  tf::io::save_npy(dir + "/x.npy", x);
  tf::io::save_npy(dir + "/y.npy", model(x, {.training = false}));
  std::printf("exported %s\n", name.c_str());
}

KT conv_bn(KT x, int64_t filters, int64_t kernel, int64_t strides, bool relu,
           const std::string& padding = "same") {
  x = layers::Conv2D(filters, kernel,
                     {.strides = strides, .padding = padding, .use_bias = false})(x);
  x = layers::BatchNormalization({.epsilon = 1.001e-5})(x);
  return relu ? layers::ReLU()(x) : x;
}

Model small_resnet() {
  auto inputs = Input({16, 16, 3}, {.name = "image"});
  KT x = conv_bn(inputs, 8, 3, 1, true);
  KT y = conv_bn(conv_bn(x, 8, 3, 1, true), 8, 3, 1, false);
  x = layers::ReLU()(layers::Add()({x, y}));
  KT shortcut = conv_bn(x, 16, 1, 2, false);
  y = conv_bn(conv_bn(x, 16, 3, 2, true), 16, 3, 1, false);
  x = layers::ReLU()(layers::Add()({shortcut, y}));
  x = layers::GlobalAveragePooling2D()(x);
  return Model(inputs, layers::Dense(10, {.activation = "softmax"})(x), {.name = "small_resnet"});
}

// ResNet50's stem and bottleneck blocks (conv_block with a projection shortcut, identity_block),
// with fewer blocks and filters.
KT bottleneck(KT x, int64_t filters, int64_t strides, bool project) {
  KT shortcut = project ? conv_bn(x, 4 * filters, 1, strides, false, "valid") : x;
  KT y = conv_bn(x, filters, 1, strides, true, "valid");
  y = conv_bn(y, filters, 3, 1, true);
  y = conv_bn(y, 4 * filters, 1, 1, false, "valid");
  return layers::ReLU()(layers::Add()({shortcut, y}));
}

Model resnet50_shaped() {
  auto inputs = Input({64, 64, 3});
  KT x = layers::ZeroPadding2D(3)(inputs);
  x = layers::Conv2D(16, 7, {.strides = 2, .padding = "valid"})(x);
  x = layers::ReLU()(layers::BatchNormalization({.epsilon = 1.001e-5})(x));
  x = layers::ZeroPadding2D(1)(x);
  x = layers::MaxPooling2D(3, {.strides = 2})(x);
  x = bottleneck(x, 8, 1, true);
  x = bottleneck(x, 8, 1, false);
  x = bottleneck(x, 16, 2, true);
  x = bottleneck(x, 16, 1, false);
  x = layers::GlobalAveragePooling2D()(x);
  return Model(inputs, layers::Dense(10, {.activation = "softmax"})(x),
               {.name = "resnet50_shaped"});
}

// MobileNetV2's stem and inverted residual blocks (expand 1x1, depthwise 3x3, project 1x1, with
// ZeroPadding2D before stride-2 depthwise convolutions and ReLU(6)), fewer and narrower.
KT inverted_residual(KT x, int64_t in, int64_t out, int64_t stride, int64_t expansion) {
  KT y = layers::Conv2D(in * expansion, 1, {.padding = "same", .use_bias = false})(x);
  y = layers::ReLU({.max_value = 6.0})(layers::BatchNormalization({.epsilon = 1e-3})(y));
  if (stride == 2) y = layers::ZeroPadding2D({{0, 1}, {0, 1}})(y);
  y = layers::DepthwiseConv2D(
      3, {.strides = stride, .padding = stride == 2 ? "valid" : "same", .use_bias = false})(y);
  y = layers::ReLU({.max_value = 6.0})(layers::BatchNormalization({.epsilon = 1e-3})(y));
  y = layers::Conv2D(out, 1, {.padding = "same", .use_bias = false})(y);
  y = layers::BatchNormalization({.epsilon = 1e-3})(y);
  return (in == out && stride == 1) ? layers::Add()({x, y}) : y;
}

Model mobilenetv2_shaped() {
  auto inputs = Input({32, 32, 3});
  KT x = layers::Conv2D(8, 3, {.strides = 2, .padding = "same", .use_bias = false})(inputs);
  x = layers::ReLU({.max_value = 6.0})(layers::BatchNormalization({.epsilon = 1e-3})(x));
  x = inverted_residual(x, 8, 8, 1, 1);
  x = inverted_residual(x, 8, 12, 2, 6);
  x = inverted_residual(x, 12, 12, 1, 6);
  x = layers::Conv2D(32, 1, {.use_bias = false})(x);
  x = layers::ReLU({.max_value = 6.0})(layers::BatchNormalization({.epsilon = 1e-3})(x));
  x = layers::GlobalAveragePooling2D()(x);
  return Model(inputs, layers::Dense(10, {.activation = "softmax"})(x),
               {.name = "mobilenetv2_shaped"});
}

// y = x * scale if sum(x) > 0 else -x, then doubled while sum(y) < 100 (at most 6 times).
class CondWhile : public tf::Module {
 public:
  CondWhile() : Module("cond_while") { scale_ = add_variable("scale", tf::Tensor::scalar(1.5f)); }
  tf::ConcreteFunction serving() const {
    auto f = tf::function(
        [this](tf::Tensor x) {
          tf::Tensor y = tf::cond(
              tf::greater(tf::reduce_sum(x), 0.0f), [&] { return x * scale_.read_value(); },
              [&] { return -x; });
          auto [out] = tf::while_loop(
              [](const tf::Tensor& v) { return tf::less(tf::reduce_sum(v), 100.0f); },
              [](const tf::Tensor& v) { return std::tuple{v * 2.0f}; }, std::tuple{y},
              {.maximum_iterations = 6});
          return out;
        },
        {.name = "cond_while_serve"});
    return f.get_concrete_function(tf::TensorSpec{{-1}, tf::float32, "x"});
  }

 private:
  tf::Variable scale_;
};

}  // namespace

int main(int argc, char** argv) {
  const std::string out = argc > 1 ? argv[1] : "tf_saved_model_export_out";
  tf::random::set_seed(11);

  {
    Sequential cnn = tfcc::examples::seed_cnn();
    tf::Tensor x = tf::random::uniform({16, 28, 28, 1});
    tf::Tensor y = tf::cast(tf::random::uniform({16}, 0, 10), tf::int32);
    train_briefly(cnn, x, y, "sparse_categorical_crossentropy");
    export_and_record(cnn, tf::random::uniform({8, 28, 28, 1}), out, "seed_cnn");
  }
  {
    auto ids = Input({12}, {.name = "ids", .dtype = tf::int32});
    KT h = layers::LSTM(16)(layers::Embedding(50, 8)(ids));
    Model lstm(ids, layers::Dense(3, {.activation = "softmax"})(h), {.name = "embedding_lstm"});
    tf::Tensor x = tf::cast(tf::random::uniform({16, 12}, 0, 50), tf::int32);
    tf::Tensor y = tf::cast(tf::random::uniform({16}, 0, 3), tf::int32);
    train_briefly(lstm, x, y, "sparse_categorical_crossentropy");
    export_and_record(lstm, tf::cast(tf::random::uniform({8, 12}, 0, 50), tf::int32), out,
                      "embedding_lstm");
  }
  {
    // A Transformer encoder block: MultiHeadAttention (exported from the fused attention op as
    // TensorFlow's unfused ops), residuals, LayerNormalization, a feed-forward pair of Dense.
    auto tokens = Input({16, 32}, {.name = "tokens"});
    KT att = layers::MultiHeadAttention(4, 8)({tokens, tokens});
    KT h = layers::LayerNormalization({.epsilon = 1e-6})(layers::Add()({tokens, att}));
    KT ff = layers::Dense(32)(layers::Dense(64, {.activation = "relu"})(h));
    h = layers::LayerNormalization({.epsilon = 1e-6})(layers::Add()({h, ff}));
    Model encoder(tokens, layers::Dense(10, {.activation = "softmax"})(layers::Flatten()(h)),
                  {.name = "transformer_encoder"});
    tf::Tensor x = tf::random::uniform({8, 16, 32});
    tf::Tensor y = tf::cast(tf::random::uniform({8}, 0, 10), tf::int32);
    train_briefly(encoder, x, y, "sparse_categorical_crossentropy");
    export_and_record(encoder, tf::random::uniform({4, 16, 32}), out, "transformer_encoder");
  }
  struct Image {
    std::string name;
    Model (*build)();
    int64_t size;
  };
  for (const Image& m : {Image{"small_resnet", small_resnet, 16},
                         Image{"mobilenetv2_shaped", mobilenetv2_shaped, 32},
                         Image{"resnet50_shaped", resnet50_shaped, 64}}) {
    Model model = m.build();
    tf::Tensor x = tf::random::uniform({8, m.size, m.size, 3});
    tf::Tensor y = tf::cast(tf::random::uniform({8}, 0, 10), tf::int32);
    train_briefly(model, x, y, "sparse_categorical_crossentropy");
    export_and_record(model, tf::random::uniform({4, m.size, m.size, 3}), out, m.name);
  }
  // Full-size keras::applications models: batch-norm statistics drawn at random instead of
  // trained (a training step of ResNet50 costs more than the whole check).
  for (const char* name : {"mobilenet_v2", "resnet50"}) {
    int64_t size = 0;
    Model model = tf::interop_tests::application(name, &size);
    export_and_record(model, tf::random::uniform({2, size, size, 3}), out,
                      std::string("application_") + name);
  }
  {
    CondWhile module;
    tf::ConcreteFunction serve = module.serving();
    const std::string dir = out + "/cond_while";
    tf::make_dirs(dir);
    tf::saved_model::save(module, tf::saved_model::serving_directory(dir), serve,
                          {.format = tf::saved_model::Format::kTensorFlow});
    tf::Tensor x = tf::Tensor::from_vector<float>({0.5f, 1.0f, -0.25f, 2.0f});
    tf::io::save_npy(dir + "/x.npy", x);
    tf::io::save_npy(dir + "/y.npy", serve({x})[0]);
    std::printf("exported cond_while\n");
  }
  return 0;
}
