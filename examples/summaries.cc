// The seed's TensorBoard section (000_2f49370e33ffcc66.txt, "Utiliser des métriques pour collecter
// et afficher des données"): summaries written through a default writer, a training loop that
// logs its averaged loss every log_freq steps at step=iterations, and a test loss in a second run.
// Python it mirrors:
//
//   summary_writer = tf.summary.create_file_writer('/tmp/summaries')
//   with summary_writer.as_default():
//     tf.summary.scalar('loss', 0.1, step=42)
//
//   @tf.function
//   def train_step(model, optimizer, images, labels): ...
//
//   def train(model, optimizer, dataset, log_freq=10):
//     avg_loss = tf.keras.metrics.Mean(name='loss', dtype=tf.float32)
//     for images, labels in dataset:
//       loss = train_step(model, optimizer, images, labels)
//       avg_loss.update_state(loss)
//       if tf.equal(optimizer.iterations % log_freq, 0):
//         tf.summary.scalar('loss', avg_loss.result(), step=optimizer.iterations)
//         avg_loss.reset_states()
//
//   train_summary_writer = tf.summary.create_file_writer('/tmp/summaries/train')
//   test_summary_writer = tf.summary.create_file_writer('/tmp/summaries/test')
//   with train_summary_writer.as_default():
//     train(model, optimizer, dataset)
//   with test_summary_writer.as_default():
//     test(model, test_x, test_y, optimizer.iterations)
//
// usage: summaries [LOGDIR]   (default /tmp/summaries, like the seed)
#include <cstdio>
#include <string>

#include "tfcc/platform/run_main.h"
#include "tfcc/tfcc.h"

namespace tf = tfcc;
namespace summary = tfcc::summary;

static int example_main(int argc, char** argv) {
  std::string logdir = argc > 1 ? argv[1] : "/tmp/summaries";

  auto summary_writer = summary::create_file_writer(logdir);
  {
    auto scope = summary_writer.as_default();
    summary::scalar("loss", 0.1, 42);
  }

  // A small regression model: y = sum(sin(x)) over 4 features, a hidden layer of 32.
  tf::random::set_seed(7);
  auto x = tf::random::uniform({512, 4}, -2, 2);
  auto y = tf::reduce_sum(tf::sin(x), 1, /*keepdims=*/true);
  auto test_x = tf::random::uniform({128, 4}, -2, 2);
  auto test_y = tf::reduce_sum(tf::sin(test_x), 1, /*keepdims=*/true);
  tf::Variable w1(tf::random::normal({4, 32}, 0, 0.5), {.name = "w1"});
  tf::Variable b1(tf::zeros({32}), {.name = "b1"});
  tf::Variable w2(tf::random::normal({32, 1}, 0, 0.5), {.name = "w2"});
  tf::Variable b2(tf::zeros({1}), {.name = "b2"});
  std::vector<tf::Variable> params = {w1, b1, w2, b2};
  tf::Variable iterations(tf::Tensor::scalar<int64_t>(0),
                          {.name = "iterations", .trainable = false});
  auto model = [&](const tf::Tensor& inputs) {
    return tf::matmul(tf::relu(tf::matmul(inputs, w1) + b1), w2) + b2;
  };
  auto loss_fn = [](const tf::Tensor& pred, const tf::Tensor& target) {
    return tf::reduce_mean(tf::square(pred - target));
  };

  // train_step is traced (the seed decorates it with tf.function).
  auto train_step = tf::function([&](const tf::Tensor& xb, const tf::Tensor& yb) {
    tf::GradientTape tape;
    auto loss = loss_fn(model(xb), yb);
    auto grads = tape.gradient(loss, params);
    for (size_t i = 0; i < params.size(); ++i) params[i].assign_sub(grads[i] * 0.05f);
    iterations.assign_add(tf::Tensor::scalar<int64_t>(1));
    return loss;
  });
  auto dataset = tf::data::Dataset::from_tensor_slices({x, y}).batch(64);

  auto train = [&](int log_freq) {
    tfcc::keras::metrics::Mean avg_loss({.name = "loss", .dtype = tf::float32});
    for (int epoch = 0; epoch < 40; ++epoch) {
      for (const tf::data::Element& batch : dataset) {  // for images, labels in dataset:
        auto loss = train_step(batch[0], batch[1]);
        avg_loss.update_state(loss);
        if (iterations.read_value().item<int64_t>() % log_freq == 0) {
          summary::scalar("loss", avg_loss.result(), iterations);
          avg_loss.reset_state();
        }
      }
      if (epoch % 10 == 0) summary::histogram("w1", w1, iterations);
    }
  };
  auto test = [&](const tf::Variable& step) {
    float loss = loss_fn(model(test_x), test_y).item<float>();
    summary::scalar("loss", loss, step);
    return loss;
  };

  auto train_summary_writer = summary::create_file_writer(logdir + "/train");
  auto test_summary_writer = summary::create_file_writer(logdir + "/test");
  {
    auto scope = train_summary_writer.as_default();
    train(/*log_freq=*/10);
  }
  float test_loss = 0;
  {
    auto scope = test_summary_writer.as_default();
    test_loss = test(iterations);
  }
  std::printf("trained %lld steps, test loss %.4f\n",
              static_cast<long long>(iterations.read_value().item<int64_t>()), test_loss);
  std::printf("summaries written to %s\n", logdir.c_str());
  std::printf("view them with:  tensorboard --logdir %s\n", logdir.c_str());
  std::printf("or, without a browser:  tfcc summary %s\n", logdir.c_str());
  return test_loss < 0.5f ? 0 : 1;  // the example fails if training did not work
}

int main(int argc, char** argv) { return tfcc::run_main(argc, argv, example_main); }
