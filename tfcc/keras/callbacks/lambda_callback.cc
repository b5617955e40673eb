// LambdaCallback and TerminateOnNaN (keras/callbacks.py).
#include "tfcc/keras/callbacks/lambda_callback.h"

#include <cmath>
#include <iostream>

#include "tfcc/keras/models/model.h"

namespace tfcc::keras::callbacks {

LambdaCallback::LambdaCallback(LambdaCallbackOptions options) : options_(std::move(options)) {}

void LambdaCallback::on_epoch_begin(int epoch, Logs& logs) {
  if (options_.on_epoch_begin) options_.on_epoch_begin(epoch, logs);
}
void LambdaCallback::on_epoch_end(int epoch, Logs& logs) {
  if (options_.on_epoch_end) options_.on_epoch_end(epoch, logs);
}
void LambdaCallback::on_train_batch_begin(int batch, Logs& logs) {
  if (options_.on_batch_begin) options_.on_batch_begin(batch, logs);
}
void LambdaCallback::on_train_batch_end(int batch, Logs& logs) {
  if (options_.on_batch_end) options_.on_batch_end(batch, logs);
}
void LambdaCallback::on_train_begin(Logs& logs) {
  if (options_.on_train_begin) options_.on_train_begin(logs);
}
void LambdaCallback::on_train_end(Logs& logs) {
  if (options_.on_train_end) options_.on_train_end(logs);
}

void TerminateOnNaN::on_train_batch_end(int batch, Logs& logs) {
  std::optional<double> loss = logs.get("loss");
  if (loss && (std::isnan(*loss) || std::isinf(*loss))) {
    std::cout << "Batch " << batch << ": Invalid loss, terminating training\n";
    if (model()) model()->stop_training = true;
  }
}

}  // namespace tfcc::keras::callbacks
