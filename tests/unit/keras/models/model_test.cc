// Sequential, functional and subclassed models: building, calling, parameter counts, summary.
#include "tfcc/keras/models/model.h"

#include <gtest/gtest.h>

#include "tfcc/tfcc.h"

namespace tfcc::keras {
namespace {

TEST(Sequential, BuildsFromInputShapeAndPrintsKerasSummary) {
  backend::clear_session();
  Sequential model({
      layers::Dense(64, {.activation = "relu", .input_shape = {784}}),
      layers::Dense(10),
  });
  EXPECT_TRUE(model.built());
  const std::string expected =
      "Model: \"sequential\"\n"
      "_________________________________________________________________\n"
      " Layer (type)                Output Shape              Param #   \n"
      "=================================================================\n"
      " dense (Dense)               (None, 64)                50240     \n"
      "                                                                 \n"
      " dense_1 (Dense)             (None, 10)                650       \n"
      "                                                                 \n"
      "=================================================================\n"
      "Total params: 50,890\n"
      "Trainable params: 50,890\n"
      "Non-trainable params: 0\n"
      "_________________________________________________________________\n";
  EXPECT_EQ(model.summary_string(), expected);
  EXPECT_EQ(model(ones({3, 784})).shape(), (Shape{3, 10}));
  EXPECT_EQ(model.trainable_variables()[0].name(), "dense/kernel");
}

TEST(Sequential, LongNamesWrapLikeKeras) {
  backend::clear_session();
  Sequential model({layers::BatchNormalization({.input_shape = {64}})});
  auto s = model.summary_string();
  // "batch_normalization (BatchNormalization)" is cut at 27 characters and continued, and the
  // overflowing first column pushes the next one right by one, as in Keras' own output.
  EXPECT_NE(s.find(" batch_normalization (BatchN  (None, 64)               256       \n"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find(" ormalization)                                                   \n"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("Total params: 256\nTrainable params: 128\nNon-trainable params: 128\n"),
            std::string::npos);
}

TEST(Sequential, DeferredBuildOnFirstCall) {
  backend::clear_session();
  Sequential model({layers::Dense(4), layers::Dropout(0.5), layers::Dense(2)});
  EXPECT_FALSE(model.built());
  EXPECT_THROW(model.summary_string(), InvalidArgumentError);
  auto y = model(ones({5, 3}), {.training = true});
  EXPECT_EQ(y.shape(), (Shape{5, 2}));
  EXPECT_EQ(model.count_params(), 3 * 4 + 4 + 4 * 2 + 2);
  EXPECT_NE(model.summary_string().find("(None, 2)"), std::string::npos);
}

TEST(Sequential, InputLayerFirstAndPop) {
  Sequential model({InputLayer({8}), layers::Dense(4), layers::Dense(3)});
  EXPECT_EQ(model.layers().size(), 2u);
  model.pop();
  EXPECT_EQ(model.layers().size(), 1u);
  EXPECT_EQ(model(ones({2, 8})).shape(), (Shape{2, 4}));
  EXPECT_EQ(model.trainable_variables().size(), 2u);
}

TEST(Sequential, ModelLossesCollectRegularizers) {
  Sequential model({
      layers::Dense(2, {.kernel_initializer = "ones",
                        .kernel_regularizer = regularizers::l2(0.5),
                        .input_shape = {3}}),
      layers::Dense(1, {.kernel_initializer = "ones", .kernel_regularizer = regularizers::l1(0.1)}),
  });
  auto losses = model.losses();
  ASSERT_EQ(losses.size(), 2u);
  EXPECT_NEAR(losses[0].item<float>(), 0.5 * 6, 1e-6);
  EXPECT_NEAR(losses[1].item<float>(), 0.1 * 2, 1e-6);
  // Regularization gradients flow to the kernels.
  GradientTape tape;
  auto total = add_n(model.losses());
  auto g = tape.gradient(total, model.trainable_variables());
  EXPECT_NEAR(g[0].to_vector<float>()[0], 2 * 0.5, 1e-6);
}

TEST(Functional, MultipleInputsAndOutputs) {
  backend::clear_session();
  auto a = Input({4}, {.name = "a"});
  auto b = Input({6}, {.name = "b"});
  auto merged = layers::Concatenate()({a, b});
  auto h = layers::Dense(8, {.activation = "relu"})(merged);
  auto out1 = layers::Dense(1, {.name = "score"})(h);
  auto out2 = layers::Dense(3, {.name = "klass"})(h);
  EXPECT_EQ(merged.shape(), (PartialShape{-1, 10}));
  Model model({a, b}, {out1, out2});
  EXPECT_EQ(model.name(), "model");
  auto outs = model(Tensors{ones({2, 4}), ones({2, 6})});
  ASSERT_EQ(outs.size(), 2u);
  EXPECT_EQ(outs[0].shape(), (Shape{2, 1}));
  EXPECT_EQ(outs[1].shape(), (Shape{2, 3}));
  EXPECT_EQ(model.count_params(), 10 * 8 + 8 + 8 + 1 + 8 * 3 + 3);
  EXPECT_EQ(model.layers().size(), 6u);  // two InputLayers, concatenate, three Dense
  auto s = model.summary_string();
  EXPECT_NE(s.find(" a (InputLayer)                 [(None, 4)]          0           []"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("['a[0][0]',"), std::string::npos) << s;
  EXPECT_THROW(model(Tensors{ones({2, 4})}), InvalidArgumentError);
  EXPECT_EQ(model.get_layer("score")->count_params(), 9);
  EXPECT_THROW(model.get_layer("nope"), InvalidArgumentError);
}

TEST(Functional, SharedLayerAndSequentialLikeSummary) {
  backend::clear_session();
  auto in = Input({3});
  auto shared = std::make_shared<layers::Dense>(3);
  auto y = (*shared)((*shared)(in));
  Model model(in, y);
  EXPECT_EQ(model.count_params(), 12);
  auto x = constant({{1.f, 2.f, 3.f}});
  auto direct = (*shared)((*shared)(x));
  EXPECT_EQ(model(x).to_vector<float>(), direct.to_vector<float>());

  auto in2 = Input({784});
  Model chain(in2, layers::Dense(10)(layers::Dense(64)(in2)));
  auto s = chain.summary_string();
  EXPECT_NE(s.find(" input_2 (InputLayer)        [(None, 784)]             0         \n"),
            std::string::npos)
      << s;
}

TEST(Functional, DisconnectedGraphIsAnError) {
  auto a = Input({2});
  auto b = Input({2});
  auto sum = layers::Add()({a, b});
  EXPECT_THROW(Model(a, sum), InvalidArgumentError);
}

class TwoLayer : public Model {
 public:
  TwoLayer() {
    d1_ = track_layer(
        std::make_shared<layers::Dense>(8, layers::Dense::Options{.activation = "relu"}));
    drop_ = track_layer(std::make_shared<layers::Dropout>(0.5));
    d2_ = track_layer(std::make_shared<layers::Dense>(2));
  }

 protected:
  Tensor call(const Tensor& x, bool training) override {
    return (*d2_)((*drop_)((*d1_)(x), {training}));
  }

 private:
  std::shared_ptr<layers::Dense> d1_, d2_;
  std::shared_ptr<layers::Dropout> drop_;
};

TEST(Subclassed, CallsAndTracksLayers) {
  backend::clear_session();
  TwoLayer m;
  auto y = m(ones({4, 3}), {.training = true});
  EXPECT_EQ(y.shape(), (Shape{4, 2}));
  EXPECT_EQ(m.name(), "two_layer");
  EXPECT_EQ(m.trainable_variables().size(), 4u);
  EXPECT_EQ(m.trainable_variables()[0].name(), "two_layer/dense/kernel");
  auto s = m.summary_string();
  EXPECT_NE(s.find(" dense (Dense)               multiple                  32        \n"),
            std::string::npos)
      << s;
}

}  // namespace
}  // namespace tfcc::keras

namespace tfcc::keras {
namespace {

TEST(Functional, SubclassTemporariesAreNotSliced) {
  auto in = Input({3});
  // TwoLayer has no TFCC_KERAS_LAYER line: calling a temporary must not slice it to a Model.
  EXPECT_THROW(TwoLayer()(in), FailedPreconditionError);
  auto held = std::make_shared<TwoLayer>();
  EXPECT_EQ((*held)(in).shape(), (PartialShape{-1, 2}));
}

}  // namespace
}  // namespace tfcc::keras
