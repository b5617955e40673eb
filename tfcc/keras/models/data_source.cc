#include "tfcc/keras/models/data_source.h"

#include <cmath>

#include "tfcc/core/philox.h"
#include "tfcc/data/iterator.h"
#include "tfcc/data/state.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/random/random.h"
#include "tfcc/ops/reduction/reduction.h"

namespace tfcc::keras {
namespace {

// Keras turns class_weight into per-sample weights: weight[label] (argmax for one-hot labels).
Tensor class_weights_for(const Tensor& y, const std::map<int64_t, double>& class_weight) {
  const int64_t num_classes = class_weight.rbegin()->first + 1;
  std::vector<double> table(static_cast<size_t>(num_classes));
  for (int64_t c = 0; c < num_classes; ++c) {
    auto it = class_weight.find(c);
    TFCC_CHECK_ARG(it != class_weight.end(),
                   "Expected `class_weight` to be a dict with keys "
                   "from 0 to one less than the number of classes, found keys up to ",
                   num_classes - 1, " but no key ", c);
    table[static_cast<size_t>(c)] = it->second;
  }
  Tensor labels = y;
  if (y.rank() == 2 && y.shape()[1] > 1) {
    labels = argmax(y, 1);
  } else {
    labels = reshape(y, {-1});
  }
  if (labels.dtype() != int32 && labels.dtype() != int64) labels = cast(labels, int64);
  return gather(Tensor::from_vector(table), labels);
}

data::Element with_class_weight(data::Element e, const std::map<int64_t, double>& cw) {
  if (cw.empty() || e.size() < 2) return e;
  Tensor w = class_weights_for(e[1], cw);
  if (e.size() > 2 && e[2].defined()) {
    e[2] = multiply(cast(e[2], float64), reshape(w, {-1}));
  } else if (e.size() > 2) {
    e[2] = w;
  } else {
    e.push_back(w);
  }
  e[2] = cast(e[2], float32);
  return e;
}

class TensorSource : public BatchSource {
 public:
  TensorSource(TensorData data, int64_t batch_size, bool shuffle, std::map<int64_t, double> cw,
               std::optional<uint64_t> seed)
      : data_(std::move(data)),
        batch_size_(batch_size),
        shuffle_(shuffle),
        cw_(std::move(cw)),
        seed_(seed) {}

  void start_epoch() override {
    pos_ = 0;
    if (!shuffle_) return;
    if (!seed_) {
      order_ = random::shuffle(range(data_.size()));
      return;
    }
    // Fisher-Yates driven by Philox(seed, epoch): the same order in every process.
    Philox gen(*seed_, epoch_++);
    std::vector<int64_t> order(static_cast<size_t>(data_.size()));
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int64_t>(i);
    for (size_t i = order.size(); i > 1; --i) {
      auto b = gen.block(i);
      uint64_t r = (uint64_t{b[0]} << 32) | b[1];
      std::swap(order[i - 1], order[r % i]);
    }
    order_ = Tensor::from_vector(order);
  }

  std::optional<data::Element> next() override {
    const int64_t n = data_.size();
    if (pos_ >= n) return std::nullopt;
    const int64_t len = std::min(batch_size_, n - pos_);
    auto take = [&](const Tensor& t) -> Tensor {
      if (!t.defined()) return t;
      if (shuffle_) return gather(t, slice(order_, {pos_}, {len}));
      std::vector<int64_t> begin(static_cast<size_t>(t.rank()), 0);
      std::vector<int64_t> size(static_cast<size_t>(t.rank()), -1);
      begin[0] = pos_;
      size[0] = len;
      return slice(t, begin, size);
    };
    data::Element e = {take(data_.x)};
    if (data_.y.defined()) {
      e.push_back(take(data_.y));
      if (data_.sample_weight.defined()) e.push_back(take(data_.sample_weight));
    }
    pos_ += len;
    return with_class_weight(std::move(e), cw_);
  }

  std::optional<int64_t> steps() const override {
    return (data_.size() + batch_size_ - 1) / batch_size_;
  }

  std::string save_state() override {
    data::StateWriter w;
    w.write_tag("keras.TensorSource/1");
    w.write_i64(pos_);
    w.write_i64(order_.defined());
    if (order_.defined()) w.write_tensor(order_);
    return w.bytes();
  }

  void restore_state(const std::string& state) override {
    data::StateReader r(state);
    r.expect_tag("keras.TensorSource/1");
    const int64_t pos = r.read_i64();
    Tensor order = r.read_i64() ? r.read_tensor() : Tensor();
    if (!r.done() || pos < 0 || pos > data_.size() ||
        (order.defined() && (order.rank() != 1 || order.shape()[0] != data_.size()))) {
      throw DataLossError("fit: the saved position in the training data does not match the data");
    }
    pos_ = pos;
    order_ = order;
  }

 private:
  TensorData data_;
  int64_t batch_size_;
  bool shuffle_;
  std::map<int64_t, double> cw_;
  std::optional<uint64_t> seed_;
  uint64_t epoch_ = 0;
  Tensor order_;
  int64_t pos_ = 0;
};

class DatasetSource : public BatchSource {
 public:
  DatasetSource(data::Dataset ds, std::map<int64_t, double> cw, std::optional<int64_t> steps)
      : ds_(std::move(ds)), cw_(std::move(cw)), steps_per_epoch_(steps) {}

  void start_epoch() override {
    if (!it_ || !steps_per_epoch_ || exhausted_) {
      it_.emplace(ds_.make_iterator());
      exhausted_ = false;
    }
  }

  std::optional<data::Element> next() override {
    auto e = it_->get_next_as_optional();
    if (!e) {
      exhausted_ = true;
      return std::nullopt;
    }
    TFCC_CHECK_ARG(!e->empty(), "The dataset's elements must be (x, y) or (x, y, sample_weight)");
    return with_class_weight(std::move(*e), cw_);
  }

  std::optional<int64_t> steps() const override {
    const int64_t c = ds_.cardinality();
    if (c >= 0) return c;
    return std::nullopt;
  }

  std::string save_state() override {
    data::StateWriter w;
    w.write_tag("keras.DatasetSource/1");
    w.write_i64(exhausted_);
    w.write_string(it_ ? it_->save() : std::string());
    return w.bytes();
  }

  void restore_state(const std::string& state) override {
    data::StateReader r(state);
    r.expect_tag("keras.DatasetSource/1");
    const bool exhausted = r.read_i64() != 0;
    std::string it_state = r.read_string();
    if (!r.done()) throw DataLossError("fit: the saved dataset position has trailing bytes");
    it_.reset();
    if (!it_state.empty()) {
      it_.emplace(ds_.make_iterator());
      it_->restore(it_state);
    }
    exhausted_ = exhausted;
  }

 private:
  data::Dataset ds_;
  std::map<int64_t, double> cw_;
  std::optional<int64_t> steps_per_epoch_;
  std::optional<data::Iterator> it_;
  bool exhausted_ = false;
};

}  // namespace

void TensorData::check(const char* what) const {
  TFCC_CHECK_ARG(x.defined() && x.rank() >= 1, what, ": x must be a tensor of rank >= 1");
  const int64_t n = x.shape()[0];
  if (y.defined()) {
    TFCC_CHECK_ARG(y.rank() >= 1 && y.shape()[0] == n, what,
                   ": Data cardinality is ambiguous: "
                   "x sizes: ",
                   n, ", y sizes: ", y.rank() >= 1 ? y.shape()[0] : -1,
                   ". Make sure all arrays contain the same number of samples.");
  }
  if (sample_weight.defined()) {
    TFCC_CHECK_ARG(sample_weight.rank() >= 1 && sample_weight.shape()[0] == n, what,
                   ": sample_weight must have one entry per sample (", n, "), got shape ",
                   sample_weight.shape().to_string());
  }
}

std::pair<TensorData, TensorData> TensorData::split(double fraction) const {
  const int64_t n = size();
  const int64_t split_at = static_cast<int64_t>(std::floor(double(n) * (1.0 - fraction)));
  TFCC_CHECK_ARG(split_at > 0 && split_at < n, "Training data contains ", n,
                 " samples, which is not sufficient to split it into a validation and training "
                 "set as specified by `validation_split=",
                 fraction, "`");
  auto part = [&](const Tensor& t, int64_t begin, int64_t len) -> Tensor {
    if (!t.defined()) return t;
    std::vector<int64_t> b(static_cast<size_t>(t.rank()), 0), s(static_cast<size_t>(t.rank()), -1);
    b[0] = begin;
    s[0] = len;
    return slice(t, b, s);
  };
  return {TensorData{part(x, 0, split_at), part(y, 0, split_at), part(sample_weight, 0, split_at)},
          TensorData{part(x, split_at, n - split_at), part(y, split_at, n - split_at),
                     part(sample_weight, split_at, n - split_at)}};
}

std::shared_ptr<BatchSource> make_tensor_source(const TensorData& data, int64_t batch_size,
                                                bool shuffle,
                                                const std::map<int64_t, double>& class_weight,
                                                std::optional<uint64_t> shuffle_seed) {
  TFCC_CHECK_ARG(batch_size > 0, "batch_size must be positive, got ", batch_size);
  return std::make_shared<TensorSource>(data, batch_size, shuffle, class_weight, shuffle_seed);
}

std::shared_ptr<BatchSource> make_dataset_source(const data::Dataset& dataset,
                                                 const std::map<int64_t, double>& class_weight,
                                                 std::optional<int64_t> steps_per_epoch) {
  return std::make_shared<DatasetSource>(dataset, class_weight, steps_per_epoch);
}

}  // namespace tfcc::keras
