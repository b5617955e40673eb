// Where Model::fit is, and how to resume it: the hook that lets a callback back up training and
// continue an interrupted run from the exact batch (keras::callbacks::BackupAndRestore).
//
//   void on_train_batch_end(int batch, Logs& logs) override {
//     FitProgress* p = model()->fit_progress();
//     save(p->epoch, p->step, p->save_data_state());      // batches done in the epoch, data
//     position
//   }
//   void on_train_begin(Logs& logs) override {
//     if (backup) model()->fit_progress()->resume = {backup.epoch, backup.step, backup.data};
//   }
//
// fit sets the progress before on_train_begin and clears it when it returns. A resume set during
// on_train_begin makes fit start at `resume->epoch`, restore the data source's position and
// continue after `resume->step` batches of that epoch, keeping that epoch's metric state.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace tfcc::keras {

/// Progress of one fit() call.
struct FitProgress {
  /// Where to resume (set by a callback in on_train_begin).
  struct Resume {
    int epoch = 0;     ///< the epoch to continue
    int64_t step = 0;  ///< batches of that epoch already trained
    std::string data;  ///< the data source's state from save_data_state()
  };

  /// The current epoch (0-based).
  int epoch = 0;
  /// Batches finished in the current epoch.
  int64_t step = 0;
  /// The training data's position (shuffle order and cursor, or the dataset iterator's state),
  /// as bytes for Resume::data.
  std::function<std::string()> save_data_state;
  /// Set in on_train_begin to continue an interrupted run.
  std::optional<Resume> resume;
};

}  // namespace tfcc::keras
#pragma GCC visibility pop
