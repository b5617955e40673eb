// The tfcc side of keras_file_interop.sh: Keras 3 `.keras` and `.weights.h5` files written by
// TensorFlow 2.21's Keras are loaded and run here, and written here for Keras to load.
//
//   keras_file_interop predict M.keras Y.npy X.npy...          load_model, predict X into Y
//   keras_file_interop weights M.keras W.weights.h5 Y.npy X.npy...
//                                                             load_model, then load_weights(W)
//   keras_file_interop resave M.keras OUT.keras OUT.weights.h5 load_model, save, save_weights
//   keras_file_interop build NAME OUT.keras X.npy Y.npy        builds keras::applications model
//                                                             NAME (applications_models.h),
//                                                             saves it, an input batch X and
//                                                             its output Y
//   keras_file_interop train OPT OUT.keras X.npy Y.npy W.npy   trains a small MLP compiled with
//                                                             optimizer case OPT (below) for 3
//                                                             steps on (X, Y), saves it, then
//                                                             takes one more train_step on the
//                                                             first batch and saves the first
//                                                             kernel W
// Inputs X.npy are the model's inputs in order; Y.npy its (first) output in inference mode.
#include <iostream>
#include <string>
#include <vector>

#include "tests/integration/applications_models.h"
#include "tfcc/io/npy/npy.h"
#include "tfcc/keras/optimizers/optimizers.h"
#include "tfcc/keras/saving/model_saving.h"

namespace {

using tfcc::Tensor;

tfcc::keras::Tensors load_inputs(char** begin, char** end) {
  tfcc::keras::Tensors xs;
  for (char** a = begin; a != end; ++a) xs.push_back(tfcc::io::load_npy(*a));
  return xs;
}

void predict_into(tfcc::keras::Model& model, const std::string& out,
                  const tfcc::keras::Tensors& xs) {
  tfcc::keras::Tensors ys = model(xs, {.training = false});
  tfcc::io::save_npy(out, ys.at(0));
}

// The optimizer cases of `train`: Keras 3's optimizers and shared options, whose variables (EMA
// averages, gradient accumulators, loss-scale state, Adafactor's placeholders) Keras must find
// in the .keras file in its own order.
std::shared_ptr<tfcc::keras::optimizers::Optimizer> optimizer_case(const std::string& name) {
  namespace opt = tfcc::keras::optimizers;
  if (name == "lion_ema") {
    return std::make_shared<opt::Lion>(opt::LionOptions{
        .learning_rate = 0.01, .weight_decay = 0.01, .use_ema = true, .ema_momentum = 0.5});
  }
  if (name == "lamb_accumulation") {
    return std::make_shared<opt::Lamb>(
        opt::LambOptions{.learning_rate = 0.05, .gradient_accumulation_steps = 2});
  }
  if (name == "adafactor") {
    return std::make_shared<opt::Adafactor>(opt::AdafactorOptions{.learning_rate = 0.05});
  }
  if (name == "nadam_schedule") {
    return std::make_shared<opt::Nadam>(
        opt::NadamOptions{.learning_rate = opt::schedules::ExponentialDecay(0.01, 2, 0.5)});
  }
  if (name == "loss_scale_adam") {
    return std::make_shared<opt::LossScaleOptimizer>(
        std::make_shared<opt::Adam>(opt::AdamOptions{.learning_rate = 0.01}),
        opt::LossScaleOptimizerOptions{.initial_scale = 128.0, .dynamic_growth_steps = 2});
  }
  throw tfcc::InvalidArgumentError("keras_file_interop train: unknown optimizer case " + name);
}

int train(const std::string& name, char** out) {
  namespace layers = tfcc::keras::layers;
  tfcc::random::set_seed(9);
  auto model = std::make_shared<tfcc::keras::Sequential>(std::vector<tfcc::keras::LayerPtr>{
      layers::Dense(5, {.activation = "tanh", .input_shape = {3}}),
      layers::Dense(2),
  });
  model->compile({.optimizer = optimizer_case(name), .loss = "mse"});
  Tensor x = tfcc::random::normal({24, 3}, 0, 1, tfcc::float32, 31);
  Tensor y = tfcc::random::normal({24, 2}, 0, 1, tfcc::float32, 32);
  model->fit(x, y, {.batch_size = 8, .epochs = 1, .verbose = 0, .shuffle = false});
  model->save(out[0]);
  tfcc::io::save_npy(out[1], x);
  tfcc::io::save_npy(out[2], y);
  Tensor first = tfcc::slice(x, {0, 0}, {8, 3}), first_y = tfcc::slice(y, {0, 0}, {8, 2});
  model->train_step({first, first_y});
  tfcc::io::save_npy(out[3], model->weights()[0].read_value());
  return 0;
}

int usage() {
  std::cerr << "usage: keras_file_interop predict M.keras Y.npy X.npy...\n"
               "       keras_file_interop weights M.keras W.weights.h5 Y.npy X.npy...\n"
               "       keras_file_interop resave M.keras OUT.keras OUT.weights.h5\n"
               "       keras_file_interop build NAME OUT.keras X.npy Y.npy\n"
               "       keras_file_interop train OPT OUT.keras X.npy Y.npy W.npy\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) return usage();
  const std::string command = argv[1];
  try {
    if (command == "train") {
      if (argc != 7) return usage();
      return train(argv[2], argv + 3);
    }
    if (command == "build") {
      if (argc != 6) return usage();
      tfcc::random::set_seed(5);
      int64_t size = 0;
      tfcc::keras::Model model = tfcc::interop_tests::application(argv[2], &size);
      model.save(argv[3]);
      tfcc::Tensor x = tfcc::random::uniform({2, size, size, 3}, -1.0, 1.0);
      tfcc::io::save_npy(argv[4], x);
      tfcc::io::save_npy(argv[5], model(x, {.training = false}));
      return 0;
    }
    auto model = tfcc::keras::models::load_model(argv[2]);
    if (command == "predict") {
      predict_into(*model, argv[3], load_inputs(argv + 4, argv + argc));
    } else if (command == "weights" && argc >= 6) {
      model->load_weights(argv[3]);
      predict_into(*model, argv[4], load_inputs(argv + 5, argv + argc));
    } else if (command == "resave") {
      model->save(argv[3]);
      model->save_weights(argv[4]);
    } else {
      return usage();
    }
  } catch (const tfcc::Error& e) {
    std::cerr << "keras_file_interop " << command << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}
