// CSVLogger: writes one row per epoch with the epoch's logs (tf.keras.callbacks.CSVLogger).
//
//   callbacks::CSVLogger csv("training.log");
//   model.fit(x, y, {.epochs = 5, .callbacks = {csv}});
//   // epoch,accuracy,loss
//   // 0,0.8123000264167786,0.5311...
//
// Columns: "epoch", then the log keys of the first epoch in sorted order; values as Python
// prints floats; rows end with "\r\n" (Python's csv "excel" dialect). The file is rewritten
// atomically after every epoch, so a crash never leaves a half-written row.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <string>
#include <vector>

#include "tfcc/keras/callbacks/callback.h"

namespace tfcc::keras::callbacks {

/// Options of CSVLogger.
struct CSVLoggerOptions {
  std::string separator = ",";
  /// Keep an existing file's rows (and header) and add to them.
  bool append = false;
};

/// tf.keras.callbacks.CSVLogger.
class CSVLogger : public Callback {
 public:
  explicit CSVLogger(std::string filename, CSVLoggerOptions options = {});

  void on_train_begin(Logs& logs) override;
  void on_epoch_end(int epoch, Logs& logs) override;
  void on_train_end(Logs& logs) override;

 private:
  std::string field(const std::string& text) const;

  std::string filename_;
  CSVLoggerOptions options_;
  std::optional<std::vector<std::string>> keys_;
  std::string contents_;
  bool write_header_ = true;
};

}  // namespace tfcc::keras::callbacks
#pragma GCC visibility pop
