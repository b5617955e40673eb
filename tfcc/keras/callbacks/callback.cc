#include "tfcc/keras/callbacks/callback.h"

#include "tfcc/keras/models/model.h"
#include "tfcc/platform/errors.h"

namespace tfcc::keras::callbacks {

void Logs::set(const std::string& name, double value) {
  for (auto& [k, v] : items_) {
    if (k == name) {
      v = value;
      return;
    }
  }
  items_.emplace_back(name, value);
}

std::optional<double> Logs::get(const std::string& name) const {
  for (const auto& [k, v] : items_) {
    if (k == name) return v;
  }
  return std::nullopt;
}

bool Callback::is_chief() const {
  return model_ == nullptr || model_->distribute_strategy().is_chief();
}

void Callback::on_train_begin(Logs&) {}
void Callback::on_train_end(Logs&) {}
void Callback::on_epoch_begin(int, Logs&) {}
void Callback::on_epoch_end(int, Logs&) {}
void Callback::on_train_batch_begin(int, Logs&) {}
void Callback::on_train_batch_end(int, Logs&) {}
void Callback::on_test_begin(Logs&) {}
void Callback::on_test_end(Logs&) {}
void Callback::on_test_batch_begin(int, Logs&) {}
void Callback::on_test_batch_end(int, Logs&) {}
void Callback::on_predict_begin(Logs&) {}
void Callback::on_predict_end(Logs&) {}
void Callback::on_predict_batch_begin(int, Logs&) {}
void Callback::on_predict_batch_end(int, Logs&) {}

CallbackList::CallbackList(std::vector<CallbackPtr> callbacks) {
  for (auto& c : callbacks) append(std::move(c));
}

void CallbackList::append(CallbackPtr callback) {
  TFCC_CHECK_ARG(callback != nullptr, "CallbackList: a callback is null");
  callbacks_.push_back(std::move(callback));
}

void CallbackList::prepend(CallbackPtr callback) {
  TFCC_CHECK_ARG(callback != nullptr, "CallbackList: a callback is null");
  callbacks_.insert(callbacks_.begin(), std::move(callback));
}

void CallbackList::configure(Model* model, const Params& params) {
  set_model(model);
  set_params(params);
  for (auto& c : callbacks_) {
    c->set_model(model);
    c->set_params(params);
  }
}

#define TFCC_FORWARD_HOOK(hook)               \
  void CallbackList::hook(Logs& logs) {       \
    for (auto& c : callbacks_) c->hook(logs); \
  }
#define TFCC_FORWARD_INDEXED_HOOK(hook)          \
  void CallbackList::hook(int i, Logs& logs) {   \
    for (auto& c : callbacks_) c->hook(i, logs); \
  }
TFCC_FORWARD_HOOK(on_train_begin)
TFCC_FORWARD_HOOK(on_train_end)
TFCC_FORWARD_INDEXED_HOOK(on_epoch_begin)
TFCC_FORWARD_INDEXED_HOOK(on_epoch_end)
TFCC_FORWARD_INDEXED_HOOK(on_train_batch_begin)
TFCC_FORWARD_INDEXED_HOOK(on_train_batch_end)
TFCC_FORWARD_HOOK(on_test_begin)
TFCC_FORWARD_HOOK(on_test_end)
TFCC_FORWARD_INDEXED_HOOK(on_test_batch_begin)
TFCC_FORWARD_INDEXED_HOOK(on_test_batch_end)
TFCC_FORWARD_HOOK(on_predict_begin)
TFCC_FORWARD_HOOK(on_predict_end)
TFCC_FORWARD_INDEXED_HOOK(on_predict_batch_begin)
TFCC_FORWARD_INDEXED_HOOK(on_predict_batch_end)
#undef TFCC_FORWARD_HOOK
#undef TFCC_FORWARD_INDEXED_HOOK

void History::on_train_begin(Logs&) { epoch_.clear(); }

void History::on_epoch_end(int epoch, Logs& logs) {
  epoch_.push_back(epoch);
  for (const auto& [k, v] : logs.items()) {
    bool found = false;
    for (auto& [name, values] : history_) {
      if (name == k) {
        values.push_back(v);
        found = true;
        break;
      }
    }
    if (!found) history_.emplace_back(k, std::vector<double>{v});
  }
}

const std::vector<double>& History::operator[](const std::string& name) const {
  for (const auto& [k, v] : history_) {
    if (k == name) return v;
  }
  std::string known;
  for (const auto& k : keys()) known.append(known.empty() ? "" : ", ").append(k);
  throw NotFoundError(internal::str_cat("History has no key '", name, "'. Keys: ", known));
}

std::vector<std::string> History::keys() const {
  std::vector<std::string> out;
  for (const auto& [k, v] : history_) out.push_back(k);
  return out;
}

}  // namespace tfcc::keras::callbacks
