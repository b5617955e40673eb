// The seed's CNN, as every seed program that trains it writes it (000_2f49370e33ffcc66.txt):
//
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
//
// Written once here for the examples, benchmarks and tests that train, export or time it:
//
//   #include "examples/seed_cnn.h"
//   tfcc::keras::Sequential model = tfcc::examples::seed_cnn();  // 347,402 parameters
//   model.summary();
#pragma once

#include "tfcc/tfcc.h"

namespace tfcc::examples {

/// A fresh, unbuilt copy of the seed's Sequential CNN (28x28x1 inputs, 10 logits).
inline keras::Sequential seed_cnn() {
  using namespace tfcc::keras;
  return Sequential({
      layers::Conv2D(32, 3,
                     {.activation = "relu",
                      .kernel_regularizer = regularizers::l2(0.02),
                      .input_shape = {28, 28, 1}}),
      layers::MaxPooling2D(),
      layers::Flatten(),
      layers::Dropout(0.1),
      layers::Dense(64, {.activation = "relu"}),
      layers::BatchNormalization(),
      layers::Dense(10),
  });
}

}  // namespace tfcc::examples
