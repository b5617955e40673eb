// The seed's `train(model, dataset, optimizer)` decorated with tf.function: a whole epoch over a
// dataset as one traced call (Dataset::for_each), with a Keras model, loss and optimizer, gives
// the same weights as the eager loop over the same batches.
#include <gtest/gtest.h>

#include "tfcc/tfcc.h"

namespace tfcc::keras {
namespace {

data::Dataset batches() {
  std::vector<float> xs;
  std::vector<int64_t> ys;
  for (int i = 0; i < 48; ++i) {
    float a = static_cast<float>(i % 7) / 7.f, b = static_cast<float>(i % 4) / 4.f;
    xs.insert(xs.end(), {a, b, a * b});
    ys.push_back(a > b ? 1 : 0);
  }
  return data::Dataset::from_tensor_slices(
             {Tensor::from_vector(xs, {48, 3}), Tensor::from_vector(ys, {48})})
      .batch(16, /*drop_remainder=*/true);
}

struct Setup {
  Sequential model;
  std::shared_ptr<optimizers::Optimizer> optimizer;
  losses::SparseCategoricalCrossentropy loss_fn{{.from_logits = true}};

  explicit Setup(std::shared_ptr<optimizers::Optimizer> opt)
      : model(make_model()), optimizer(std::move(opt)) {}
  static Sequential make_model() {
    random::set_seed(11);
    return Sequential(
        {layers::Dense(8, {.activation = "relu", .input_shape = {3}}), layers::Dense(2)});
  }
  // for x, y in dataset: with tf.GradientTape() as tape: ...; optimizer.apply_gradients(...)
  void step(const data::Element& batch) {
    GradientTape tape;
    Tensor prediction = model(batch[0], {.training = true});
    Tensor loss = loss_fn(batch[1], prediction);
    auto vars = model.trainable_variables();
    auto gradients = tape.gradient(loss, vars);
    optimizer->apply_gradients(gradients, vars);
  }
};

void expect_same_weights(Setup& a, Setup& b) {
  auto wa = a.model.get_weights(), wb = b.model.get_weights();
  ASSERT_EQ(wa.size(), wb.size());
  for (size_t i = 0; i < wa.size(); ++i) {
    std::vector<float> va = wa[i].to_vector<float>(), vb = wb[i].to_vector<float>();
    for (size_t k = 0; k < va.size(); ++k) EXPECT_NEAR(va[k], vb[k], 1e-5f) << i << "," << k;
  }
  EXPECT_EQ(a.optimizer->iterations().read_value().item<int64_t>(),
            b.optimizer->iterations().read_value().item<int64_t>());
}

void check_traced_epochs_match(std::shared_ptr<optimizers::Optimizer> eager_opt,
                               std::shared_ptr<optimizers::Optimizer> traced_opt) {
  data::Dataset dataset = batches();
  Setup eager(std::move(eager_opt)), traced(std::move(traced_opt));
  for (int epoch = 0; epoch < 2; ++epoch) {
    for (const data::Element& batch : dataset) eager.step(batch);
  }
  auto train = tfcc::function(
      [&]() { dataset.for_each([&](const data::Element& batch) { traced.step(batch); }); });
  train();
  train();
  EXPECT_EQ(train.tracing_count(), 1);
  expect_same_weights(eager, traced);
  EXPECT_EQ(traced.optimizer->iterations().read_value().item<int64_t>(), 6);  // 2 epochs x 3
}

TEST(TracedEpochTest, SgdEpochInOneTracedCallMatchesEager) {
  check_traced_epochs_match(std::make_shared<optimizers::SGD>(0.5),
                            std::make_shared<optimizers::SGD>(0.5));
}

TEST(TracedEpochTest, AdamCreatesItsSlotsInsideTheTracedLoop) {
  check_traced_epochs_match(std::make_shared<optimizers::Adam>(0.01),
                            std::make_shared<optimizers::Adam>(0.01));
}

}  // namespace
}  // namespace tfcc::keras
