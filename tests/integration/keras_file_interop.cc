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
// Inputs X.npy are the model's inputs in order; Y.npy its (first) output in inference mode.
#include <iostream>
#include <string>
#include <vector>

#include "tests/integration/applications_models.h"
#include "tfcc/io/npy/npy.h"
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

int usage() {
  std::cerr << "usage: keras_file_interop predict M.keras Y.npy X.npy...\n"
               "       keras_file_interop weights M.keras W.weights.h5 Y.npy X.npy...\n"
               "       keras_file_interop resave M.keras OUT.keras OUT.weights.h5\n"
               "       keras_file_interop build NAME OUT.keras X.npy Y.npy\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) return usage();
  const std::string command = argv[1];
  try {
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
