// How often a saving callback saves: "epoch" (at the end of every epoch) or every N batches
// (Keras' `save_freq` argument of ModelCheckpoint and BackupAndRestore).
//
//   callbacks::ModelCheckpoint ckpt("/tmp/ckpt", {.save_freq = 100});       // every 100 batches
//   callbacks::BackupAndRestore backup("/tmp/backup", {.save_freq = "epoch"});
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <string>

#include "tfcc/platform/errors.h"

namespace tfcc::keras::callbacks {

/// "epoch" or a positive number of batches.
class SaveFreq {
 public:
  /// "epoch"; any other string is an InvalidArgumentError (Keras: "Unrecognized save_freq").
  SaveFreq(const char* value) : SaveFreq(std::string(value)) {}  // NOLINT: implicit by design
  SaveFreq(const std::string& value) {                           // NOLINT
    TFCC_CHECK_ARG(value == "epoch", "Unrecognized save_freq: ", value,
                   ". Expected save_freq are 'epoch' or integer values");
  }
  /// Every `batches` batches (positive).
  SaveFreq(int64_t batches) : batches_(batches) {  // NOLINT
    TFCC_CHECK_ARG(batches > 0, "Unrecognized save_freq: ", batches,
                   ". Expected save_freq are 'epoch' or positive integer values");
  }
  SaveFreq(int batches) : SaveFreq(static_cast<int64_t>(batches)) {}  // NOLINT

  /// True for "epoch".
  bool per_epoch() const { return batches_ == 0; }
  /// The number of batches (0 for "epoch").
  int64_t batches() const { return batches_; }

 private:
  int64_t batches_ = 0;
};

}  // namespace tfcc::keras::callbacks
#pragma GCC visibility pop
