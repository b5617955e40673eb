// LambdaCallback (callbacks from functions) and TerminateOnNaN (stops on a NaN or infinite loss),
// as tf.keras.callbacks defines them.
//
//   callbacks::LambdaCallback print_epochs({
//       .on_epoch_end = [](int epoch, callbacks::Logs& logs) {
//         std::cout << epoch << " " << *logs.get("loss") << "\n";
//       }});
//   model.fit(x, y, {.callbacks = {print_epochs, callbacks::TerminateOnNaN()}});
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <functional>

#include "tfcc/keras/callbacks/callback.h"

namespace tfcc::keras::callbacks {

/// The functions a LambdaCallback calls (any may be empty).
struct LambdaCallbackOptions {
  std::function<void(int epoch, Logs& logs)> on_epoch_begin;
  std::function<void(int epoch, Logs& logs)> on_epoch_end;
  /// Called at each training batch (Keras' on_batch_begin / on_batch_end).
  std::function<void(int batch, Logs& logs)> on_batch_begin;
  std::function<void(int batch, Logs& logs)> on_batch_end;
  std::function<void(Logs& logs)> on_train_begin;
  std::function<void(Logs& logs)> on_train_end;
};

/// tf.keras.callbacks.LambdaCallback.
class LambdaCallback : public Callback {
 public:
  explicit LambdaCallback(LambdaCallbackOptions options);

  void on_epoch_begin(int epoch, Logs& logs) override;
  void on_epoch_end(int epoch, Logs& logs) override;
  void on_train_batch_begin(int batch, Logs& logs) override;
  void on_train_batch_end(int batch, Logs& logs) override;
  void on_train_begin(Logs& logs) override;
  void on_train_end(Logs& logs) override;

 private:
  LambdaCallbackOptions options_;
};

/// tf.keras.callbacks.TerminateOnNaN: after a training batch whose "loss" is NaN or infinite,
/// prints "Batch N: Invalid loss, terminating training" and stops training.
class TerminateOnNaN : public Callback {
 public:
  void on_train_batch_end(int batch, Logs& logs) override;
};

}  // namespace tfcc::keras::callbacks
#pragma GCC visibility pop
