// Keras callbacks: hooks that fit / evaluate / predict call at the start and end of training,
// epochs and batches. Subclass Callback and override the hooks you need.
//
//   class PrintLoss : public tfcc::keras::callbacks::Callback {
//    public:
//     void on_epoch_end(int epoch, Logs& logs) override {
//       std::printf("epoch %d loss %.4f\n", epoch, *logs.get("loss"));
//     }
//   };
//   model.fit(x, y, {.epochs = 5, .callbacks = {PrintLoss()}});
//
// Logs hold the values by name in insertion order (Keras' logs dict): loss first, then the
// compiled metrics, then val_ ones. Callbacks may add entries (a learning-rate scheduler adds
// "lr"). Ownership as everywhere: a CallbackList holds std::shared_ptrs; pass callbacks by value
// (moved) or as shared_ptrs you keep.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tfcc::keras {
class Model;
}

namespace tfcc::keras::callbacks {

/// Named scalar values in insertion order (Keras' logs dict).
class Logs {
 public:
  Logs() = default;
  Logs(std::initializer_list<std::pair<std::string, double>> items) : items_(items) {}
  /// Sets `name` (keeping its position if it exists, else appending).
  void set(const std::string& name, double value);
  /// The value of `name`, or nullopt.
  std::optional<double> get(const std::string& name) const;
  bool contains(const std::string& name) const { return get(name).has_value(); }
  const std::vector<std::pair<std::string, double>>& items() const { return items_; }
  bool empty() const { return items_.empty(); }

 private:
  std::vector<std::pair<std::string, double>> items_;
};

/// What fit tells callbacks about the run (Keras' callback.params).
struct Params {
  int verbose = 1;
  int epochs = 1;
  std::optional<int64_t> steps;  ///< steps per epoch; nullopt when unknown
};

/// Base of all callbacks; every hook does nothing by default.
class Callback {
 public:
  virtual ~Callback() = default;

  /// The model being trained (set by fit / evaluate / predict; not owned).
  Model* model() const { return model_; }
  void set_model(Model* model) { model_ = model; }
  const Params& params() const { return params_; }
  void set_params(const Params& params) { params_ = params; }
  /// False on the non-chief ranks of a distributed fit (rank != 0 of the model's strategy):
  /// callbacks that write files, logs or checkpoints do nothing there.
  bool is_chief() const;

  virtual void on_train_begin(Logs& logs);
  virtual void on_train_end(Logs& logs);
  virtual void on_epoch_begin(int epoch, Logs& logs);
  virtual void on_epoch_end(int epoch, Logs& logs);
  virtual void on_train_batch_begin(int batch, Logs& logs);
  virtual void on_train_batch_end(int batch, Logs& logs);
  virtual void on_test_begin(Logs& logs);
  virtual void on_test_end(Logs& logs);
  virtual void on_test_batch_begin(int batch, Logs& logs);
  virtual void on_test_batch_end(int batch, Logs& logs);
  virtual void on_predict_begin(Logs& logs);
  virtual void on_predict_end(Logs& logs);
  virtual void on_predict_batch_begin(int batch, Logs& logs);
  virtual void on_predict_batch_end(int batch, Logs& logs);

 private:
  Model* model_ = nullptr;
  Params params_;
};

/// A callback handle: a callback value (moved into a new shared_ptr) or a shared_ptr.
class CallbackPtr : public std::shared_ptr<Callback> {
 public:
  template <typename C>
  requires(std::is_base_of_v<Callback, std::decay_t<C>> && !std::is_lvalue_reference_v<C>)
      CallbackPtr(C&& c)  // NOLINT: implicit by design
      : std::shared_ptr<Callback>(std::make_shared<std::decay_t<C>>(std::move(c))) {}
  template <typename C>
  requires std::is_base_of_v<Callback, C> CallbackPtr(std::shared_ptr<C> c)  // NOLINT
      : std::shared_ptr<Callback>(std::move(c)) {}
};

/// Calls every hook on each callback in order.
class CallbackList : public Callback {
 public:
  explicit CallbackList(std::vector<CallbackPtr> callbacks = {});
  void append(CallbackPtr callback);
  /// Inserts at the front (Keras puts the progress bar first).
  void prepend(CallbackPtr callback);
  const std::vector<CallbackPtr>& callbacks() const { return callbacks_; }
  /// Sets the model and params of every callback.
  void configure(Model* model, const Params& params);

  void on_train_begin(Logs& logs) override;
  void on_train_end(Logs& logs) override;
  void on_epoch_begin(int epoch, Logs& logs) override;
  void on_epoch_end(int epoch, Logs& logs) override;
  void on_train_batch_begin(int batch, Logs& logs) override;
  void on_train_batch_end(int batch, Logs& logs) override;
  void on_test_begin(Logs& logs) override;
  void on_test_end(Logs& logs) override;
  void on_test_batch_begin(int batch, Logs& logs) override;
  void on_test_batch_end(int batch, Logs& logs) override;
  void on_predict_begin(Logs& logs) override;
  void on_predict_end(Logs& logs) override;
  void on_predict_batch_begin(int batch, Logs& logs) override;
  void on_predict_batch_end(int batch, Logs& logs) override;

 private:
  std::vector<CallbackPtr> callbacks_;
};

/// Records the epoch-end logs: fit returns it (Keras' History).
class History : public Callback {
 public:
  /// metric name -> one value per epoch, in the logs' order (loss, metrics, val_...).
  const std::vector<std::pair<std::string, std::vector<double>>>& history() const {
    return history_;
  }
  /// The values of `name`; NotFoundError naming the known keys if absent.
  const std::vector<double>& operator[](const std::string& name) const;
  /// The keys in order (history.history.keys()).
  std::vector<std::string> keys() const;
  /// The epoch indices seen (history.epoch).
  const std::vector<int>& epoch() const { return epoch_; }

  void on_train_begin(Logs& logs) override;
  void on_epoch_end(int epoch, Logs& logs) override;

 private:
  std::vector<std::pair<std::string, std::vector<double>>> history_;
  std::vector<int> epoch_;
};

}  // namespace tfcc::keras::callbacks
#pragma GCC visibility pop
