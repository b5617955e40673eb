// Helpers of the saving tests: a small seeded MLP, its data, and its weights as raw bytes (for
// bitwise comparisons).
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tfcc/tfcc.h"

namespace tfcc::keras::test {

/// A fresh temporary directory of this process (removed first if it exists): ctest runs tests
/// in parallel, and two of them may pick the same name.
inline std::string temp_dir(const std::string& name) {
  auto p = std::filesystem::temp_directory_path() /
           ("tfcc_saving_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p.string();
}

/// x [n, 6] and int64 labels in [0, 3) from a fixed linear rule.
inline std::pair<Tensor, Tensor> mlp_data(int64_t n = 96) {
  Tensor x = random::normal({n, 6}, 0, 1, float32, 21);
  Tensor w = random::normal({6, 3}, 0, 1, float32, 22);
  return {x, argmax(matmul(x, w), 1)};
}

/// Dense(16, relu) -> Dropout(0.25, seeded) -> Dense(3), compiled with Adam and sparse CE.
inline std::shared_ptr<Sequential> mlp(bool compile = true) {
  auto model = std::make_shared<Sequential>(std::vector<LayerPtr>{
      layers::Dense(16, {.activation = "relu",
                         .kernel_regularizer = regularizers::l2(0.001),
                         .input_shape = {6}}),
      layers::Dropout(0.25, {.seed = 3}),
      layers::Dense(3),
  });
  if (compile) {
    model->compile({.optimizer = "adam",
                    .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
                    .metrics = {"accuracy"}});
  }
  return model;
}

/// Every weight's bytes, then the optimizer's variables' bytes, concatenated.
inline std::string state_bytes(const Model& model) {
  std::string out;
  auto append = [&](const Variable& v) {
    Tensor t = v.read_value();
    const size_t n = static_cast<size_t>(t.shape().num_elements()) * dtype_size(t.dtype());
    const char* p = static_cast<const char*>(t.raw_data());  // any dtype (Adafactor's int32)
    out.append(p, n);
  };
  for (const auto& v : model.weights()) append(v);
  if (model.optimizer()) {
    for (const auto& v : model.optimizer()->variables()) append(v);
  }
  return out;
}

}  // namespace tfcc::keras::test
