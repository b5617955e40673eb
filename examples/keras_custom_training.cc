// The seed's custom training loops around a Keras model (000_2f49370e33ffcc66.txt, "Personnalisez
// la formation" and "Utiliser des métriques pour collecter et afficher des données"): a traced
// train_step with GradientTape, model.losses and an optimizer, and metrics printed per epoch.
// Python it mirrors:
//
//   loss_metric = tf.keras.metrics.Mean(name='train_loss')
//   accuracy_metric = tf.keras.metrics.SparseCategoricalAccuracy(name='train_accuracy')
//   @tf.function
//   def train_step(inputs, labels):
//     with tf.GradientTape() as tape:
//       predictions = model(inputs, training=True)
//       regularization_loss = tf.math.add_n(model.losses)
//       pred_loss = loss_fn(labels, predictions)
//       total_loss = pred_loss + regularization_loss
//     gradients = tape.gradient(total_loss, model.trainable_variables)
//     optimizer.apply_gradients(zip(gradients, model.trainable_variables))
//     loss_metric.update_state(total_loss)
//     accuracy_metric.update_state(labels, predictions)
//   for epoch in range(NUM_EPOCHS):
//     loss_metric.reset_states(); accuracy_metric.reset_states()
//     for inputs, labels in train_data:
//       train_step(inputs, labels)
//     print('Epoch: ', epoch)
//     print('  loss:     {:.3f}'.format(loss_metric.result()))
//     print('  accuracy: {:.3f}'.format(accuracy_metric.result()))
#include <cstdio>

#include "examples/seed_cnn.h"
#include "tfcc/platform/run_main.h"
#include "tfcc/tfcc.h"

namespace tf = tfcc;
using namespace tfcc::keras;

static int example_main() {
  tf::random::set_seed(42);
  const int NUM_EPOCHS = 5;
  auto [mnist_train, mnist_test] = tf::datasets::load("fashion_mnist");
  auto scale = [](tf::Tensor image, tf::Tensor label) {
    image = tf::cast(tf::reshape(image, {28, 28, 1}), tf::float32) / 255.0f;
    return std::tuple{image, label};
  };
  auto train_data = mnist_train.map(scale).shuffle(10).batch(64).take(5);

  Sequential model = tfcc::examples::seed_cnn();
  optimizers::Adam optimizer(0.001);
  losses::SparseCategoricalCrossentropy loss_fn({.from_logits = true});
  metrics::Mean loss_metric({.name = "train_loss"});
  metrics::SparseCategoricalAccuracy accuracy_metric({.name = "train_accuracy"});

  auto train_step = tf::function([&](tf::Tensor inputs, tf::Tensor labels) {
    tf::GradientTape tape;
    auto predictions = model(inputs, {.training = true});
    auto regularization_loss = tf::add_n(model.losses());
    auto pred_loss = loss_fn(labels, predictions);
    auto total_loss = pred_loss + regularization_loss;
    auto gradients = tape.gradient(total_loss, model.trainable_variables());
    optimizer.apply_gradients(gradients, model.trainable_variables());
    loss_metric.update_state(total_loss);
    accuracy_metric.update_state(labels, predictions);
    return total_loss;
  });

  double first_loss = 0, last_loss = 0;
  for (int epoch = 0; epoch < NUM_EPOCHS; ++epoch) {
    loss_metric.reset_state();
    accuracy_metric.reset_state();
    for (const auto& batch : train_data) train_step(batch[0], batch[1]);
    const double mean_loss = loss_metric.result().item<double>();
    const double mean_accuracy = accuracy_metric.result().item<double>();
    std::printf("Epoch:  %d\n", epoch);
    std::printf("  loss:     %.3f\n", mean_loss);
    std::printf("  accuracy: %.3f\n", mean_accuracy);
    if (epoch == 0) first_loss = mean_loss;
    last_loss = mean_loss;
  }
  return last_loss < first_loss ? 0 : 1;  // the example fails if training did not work
}

int main(int argc, char** argv) { return tfcc::run_main(argc, argv, example_main); }
