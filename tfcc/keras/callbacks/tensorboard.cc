#include "tfcc/keras/callbacks/tensorboard.h"

#include <algorithm>
#include <filesystem>

#include "tfcc/io/summary/summary.h"
#include "tfcc/keras/models/model.h"
#include "tfcc/keras/optimizers/optimizer.h"
#include "tfcc/platform/errors.h"

namespace tfcc::keras::callbacks {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

UpdateFreq::UpdateFreq(const std::string& mode) {
  if (mode == "batch") {
    batches_ = 1;
  } else if (mode != "epoch") {
    throw InvalidArgumentError(tfcc::internal::str_cat(
        "TensorBoard: update_freq must be 'batch', 'epoch' or a positive number of batches, got '",
        mode, "'"));
  }
}

void UpdateFreq::check() const {
  TFCC_CHECK_ARG(batches_ > 0,
                 "TensorBoard: update_freq must be a positive number of batches, got ", batches_);
}

TensorBoard::TensorBoard(std::string log_dir, TensorBoardOptions options)
    : log_dir_(std::move(log_dir)), options_(options) {
  TFCC_CHECK_ARG(options_.histogram_freq >= 0, "TensorBoard: histogram_freq must be >= 0, got ",
                 options_.histogram_freq);
}

// Writers are made on first use, so a callback that never logs leaves no empty event files.
summary::SummaryWriter TensorBoard::train_writer() {
  if (!train_writer_) {
    train_writer_ =
        summary::create_file_writer((std::filesystem::path(log_dir_) / "train").string());
  }
  return *train_writer_;
}

summary::SummaryWriter TensorBoard::val_writer() {
  if (!val_writer_) {
    val_writer_ =
        summary::create_file_writer((std::filesystem::path(log_dir_) / "validation").string());
  }
  return *val_writer_;
}

int64_t TensorBoard::train_step() const {
  if (!model() || !model()->optimizer()) return 0;
  return model()->optimizer()->iterations().read_value().item<int64_t>();
}

void TensorBoard::push_writer(const summary::SummaryWriter& writer) {
  if (options_.update_freq.per_epoch()) return;
  summary::Step step;
  if (model() && model()->optimizer()) step = model()->optimizer()->iterations();
  const int64_t n = options_.update_freq.batches();
  pushed_.push_back(std::unique_ptr<Pushed>(
      new Pushed{writer.as_default(step),
                 summary::RecordIfScope([this, n] { return train_step() % n == 0; })}));
}

void TensorBoard::pop_writer() {
  if (!pushed_.empty()) pushed_.pop_back();
}

void TensorBoard::on_train_begin(Logs&) {
  if (!is_chief()) return;  // under a strategy only rank 0 writes logs
  previous_epoch_iterations_ = train_step();
  should_write_train_graph_ = options_.write_graph;
  push_writer(train_writer());
}

void TensorBoard::on_train_end(Logs&) {
  if (!is_chief()) return;  // under a strategy only rank 0 writes logs
  if (should_write_train_graph_) write_train_graph();
  pop_writer();
  for (auto* w : {&train_writer_, &val_writer_}) {
    if (*w) (*w)->close();
    w->reset();
  }
}

void TensorBoard::on_test_begin(Logs&) {
  if (!is_chief()) return;
  push_writer(val_writer());
}

void TensorBoard::on_test_end(Logs& logs) {
  if (!is_chief()) return;  // under a strategy only rank 0 writes logs
  if (model() && model()->optimizer()) {
    auto scope = val_writer().as_default();
    auto always = summary::record_if(true);
    const int64_t step = train_step();
    for (const auto& [name, value] : logs.items()) {
      std::string tag = "evaluation_";
      tag.append(name).append("_vs_iterations");
      summary::scalar(tag, value, step);
    }
  }
  pop_writer();
}

void TensorBoard::on_train_batch_begin(int, Logs&) {
  if (!is_chief()) return;  // under a strategy only rank 0 writes logs
  if (options_.write_steps_per_second) batch_start_ = std::chrono::steady_clock::now();
}

void TensorBoard::on_train_batch_end(int, Logs& logs) {
  if (!is_chief()) return;  // under a strategy only rank 0 writes logs
  if (should_write_train_graph_) write_train_graph();
  // The default writer and record_if pushed at on_train_begin decide (update_freq); with
  // update_freq "epoch" there is none, so these write nothing.
  if (!summary::should_record_summaries()) return;
  const int64_t step = train_step();
  if (options_.write_steps_per_second) {
    summary::scalar("batch_steps_per_second", 1.0 / std::max(seconds_since(batch_start_), 1e-9),
                    step);
  }
  for (const auto& [name, value] : logs.items()) {
    std::string tag = "batch_";
    summary::scalar(tag.append(name), value, step);
  }
}

void TensorBoard::on_epoch_begin(int, Logs&) {
  if (!is_chief()) return;  // under a strategy only rank 0 writes logs
  if (options_.write_steps_per_second) {
    previous_epoch_iterations_ = train_step();
    epoch_start_ = std::chrono::steady_clock::now();
  }
}

void TensorBoard::on_epoch_end(int epoch, Logs& logs) {
  if (!is_chief()) return;  // under a strategy only rank 0 writes logs
  if (!logs.empty()) {
    Logs train_logs, val_logs;
    for (const auto& [name, value] : logs.items()) {
      if (starts_with(name, "val_")) {
        val_logs.set(name.substr(4), value);
      } else {
        train_logs.set(name, value);
      }
    }
    if (model() && model()->optimizer() && model()->optimizer()->has_schedule()) {
      train_logs.set("learning_rate", model()->optimizer()->learning_rate().item<double>());
    }
    if (options_.write_steps_per_second) {
      double elapsed = std::max(seconds_since(epoch_start_), 1e-9);
      train_logs.set("steps_per_second",
                     static_cast<double>(train_step() - previous_epoch_iterations_) / elapsed);
    }
    auto always = summary::record_if(true);
    auto write = [this, epoch](bool train, const Logs& values) {
      if (values.empty()) return;
      auto scope = (train ? train_writer() : val_writer()).as_default();
      for (const auto& [name, value] : values.items()) {
        std::string tag = "epoch_";
        summary::scalar(tag.append(name), value, epoch);
      }
    };
    write(true, train_logs);
    write(false, val_logs);
  }
  if (options_.histogram_freq > 0 && epoch % options_.histogram_freq == 0) log_weights(epoch);
}

void TensorBoard::log_weights(int epoch) {
  if (!model()) return;
  auto scope = train_writer().as_default();
  auto always = summary::record_if(true);
  for (const auto& layer : model()->layers()) {
    for (const Variable& weight : layer->weights()) {
      std::string name = weight.name();
      std::replace(name.begin(), name.end(), ':', '_');
      summary::histogram(name.append("/histogram"), weight.read_value(), epoch);
    }
  }
}

void TensorBoard::write_train_graph() {
  if (!model()) return;
  std::shared_ptr<const graph::Graph> g = model()->train_function_graph();
  if (!g) return;  // not traced yet (fit runs its first batch eagerly)
  auto scope = train_writer().as_default();
  auto always = summary::record_if(true);
  summary::graph(*g);
  should_write_train_graph_ = false;
}

}  // namespace tfcc::keras::callbacks
