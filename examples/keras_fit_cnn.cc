// The seed's Keras training example (000_2f49370e33ffcc66.txt, "Utiliser les boucles
// d'entraînement Keras"): a Sequential CNN trained with fit on a dataset, then evaluate.
// Python it mirrors:
//
//   train_data = mnist_train.map(scale).shuffle(BUFFER_SIZE).batch(BATCH_SIZE).take(5)
//   model = tf.keras.Sequential([
//       tf.keras.layers.Conv2D(32, 3, activation='relu',
//                              kernel_regularizer=tf.keras.regularizers.l2(0.02),
//                              input_shape=(28, 28, 1)),
//       tf.keras.layers.MaxPooling2D(),
//       tf.keras.layers.Flatten(),
//       tf.keras.layers.Dropout(0.1),
//       tf.keras.layers.Dense(64, activation='relu'),
//       tf.keras.layers.BatchNormalization(),
//       tf.keras.layers.Dense(10)])
//   model.compile(optimizer='adam',
//                 loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
//                 metrics=['accuracy'])
//   model.fit(train_data, epochs=NUM_EPOCHS)
//   loss, acc = model.evaluate(test_data)
//   print("Loss {}, Accuracy {}".format(loss, acc))
//
// The seed takes 5 batches per epoch to stay short; `keras_fit_cnn --full` trains on all 60,000
// Fashion-MNIST images (batch 64, 5 epochs: `make demo`) and evaluates on the 10,000 test images.
// `--logdir DIR` adds the TensorBoard callback (tf.keras.callbacks.TensorBoard(log_dir=DIR,
// histogram_freq=1)): view the run with `tensorboard --logdir DIR`.
// Fashion-MNIST images (batch 64, 5 epochs: `make demo`) and evaluates on the 10,000 test images;
// `--export DIR` then exports the trained model (keras::export_model) for `tfcc saved-model run`.
#include <cstdio>
#include <cstring>
#include <string>

#include "examples/seed_cnn.h"
#include "tfcc/platform/run_main.h"
#include "tfcc/tfcc.h"

namespace tf = tfcc;
using namespace tfcc::keras;

static int example_main(int argc, char** argv) {
  bool full = false;
  std::string logdir, export_dir;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--full") == 0) full = true;
    if (std::strcmp(argv[i], "--logdir") == 0 && i + 1 < argc) logdir = argv[++i];
    if (std::strcmp(argv[i], "--export") == 0 && i + 1 < argc) export_dir = argv[++i];
  }
  tf::random::set_seed(42);
  const int64_t BUFFER_SIZE = full ? 10000 : 10;  // the seed: "use a much larger value"
  const int64_t BATCH_SIZE = 64;
  const int NUM_EPOCHS = 5;
  const int64_t STEPS_PER_EPOCH = 5;

  auto [mnist_train, mnist_test] = tf::datasets::load("fashion_mnist");
  auto scale = [](tf::Tensor image, tf::Tensor label) {
    image = tf::cast(tf::reshape(image, {28, 28, 1}), tf::float32) / 255.0f;
    return std::tuple{image, label};
  };
  auto train_data = mnist_train.map(scale).shuffle(BUFFER_SIZE).batch(BATCH_SIZE);
  auto test_data = mnist_test.map(scale).batch(BATCH_SIZE);
  if (!full) {
    train_data = train_data.take(STEPS_PER_EPOCH);
    test_data = test_data.take(STEPS_PER_EPOCH);
  }

  Sequential model = tfcc::examples::seed_cnn();
  model.summary();
  model.compile({.optimizer = "adam",
                 .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
                 .metrics = {"accuracy"}});
  std::vector<callbacks::CallbackPtr> fit_callbacks;
  if (!logdir.empty()) {
    fit_callbacks.push_back(callbacks::TensorBoard(logdir, {.histogram_freq = 1}));
  }
  model.fit(train_data, {.epochs = NUM_EPOCHS, .callbacks = fit_callbacks});
  auto results = model.evaluate(test_data);
  const double loss = results[0], acc = results[1];
  std::printf("Loss %.16g, Accuracy %.16g\n", loss, acc);
  if (!logdir.empty()) {
    std::printf("TensorBoard logs written to %s; view them with:  tensorboard --logdir %s\n",
                logdir.c_str(), logdir.c_str());
  }
  // `--export DIR` (make demo): the trained model for `tfcc saved-model run`, and 8 test images.
  if (!export_dir.empty()) {
    export_model(model, export_dir + "/model");
    tf::io::save_npy(export_dir + "/test_images.npy", (*mnist_test.map(scale).batch(8).begin())[0]);
    std::printf("Exported the model to %s/model\n", export_dir.c_str());
  }
  // The example fails if training did not work (the seed reaches ~0.5 after 5 short epochs).
  return acc > (full ? 0.85 : 0.3) ? 0 : 1;
}

int main(int argc, char** argv) { return tfcc::run_main(argc, argv, example_main); }
