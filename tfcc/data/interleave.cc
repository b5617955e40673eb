// Dataset::interleave: maps each input element to a dataset and cycles through `cycle_length`
// of them, `block_length` elements at a time (TensorFlow's InterleaveDataset order: a finished
// slot is refilled from the input when the cycle next reaches it).
#include <thread>

#include "tfcc/data/dataset.h"
#include "tfcc/platform/cpu_count.h"
#include "tfcc/platform/errors.h"

namespace tfcc::data {
namespace {

using DatasetFn = std::function<Dataset(const Element&)>;

class InterleaveNode : public DatasetNode {
 public:
  InterleaveNode(std::shared_ptr<const DatasetNode> input, DatasetFn fn, InterleaveOptions opt)
      : input_(std::move(input)), fn_(std::move(fn)) {
    TFCC_CHECK_ARG(static_cast<bool>(fn_), "interleave: the function is empty");
    TFCC_CHECK_ARG(opt.cycle_length > 0 || opt.cycle_length == AUTOTUNE,
                   "cycle_length must be greater than zero or AUTOTUNE, got ", opt.cycle_length);
    TFCC_CHECK_ARG(opt.block_length > 0, "block_length must be greater than zero, got ",
                   opt.block_length);
    cycle_length_ = opt.cycle_length == AUTOTUNE ? available_cpus() : opt.cycle_length;
    block_length_ = opt.block_length;
  }
  const ElementSpec& element_spec() const override {
    std::call_once(spec_once_, [&] {
      // Like a trace of the function: its output's spec on the first input element.
      auto it = input_->make_iterator();
      if (auto e = it->next()) spec_ = fn_(*e).element_spec();
    });
    return spec_;
  }
  std::string name() const override { return "InterleaveDataset"; }
  std::unique_ptr<IteratorBase> make_iterator() const override;

  std::shared_ptr<const DatasetNode> input_;
  DatasetFn fn_;
  int64_t cycle_length_, block_length_;
  mutable std::once_flag spec_once_;
  mutable ElementSpec spec_;
};

class InterleaveIt : public IteratorBase {
 public:
  explicit InterleaveIt(const InterleaveNode* n)
      : n_(n), input_(n->input_->make_iterator()), slots_(static_cast<size_t>(n->cycle_length_)) {}

  std::optional<Element> next() override {
    while (!input_done_ || open_ > 0) {
      Slot& s = slots_[cycle_];
      if (s.it) {
        std::optional<Element> e = s.it->next();
        if (e) {
          if (++block_ == n_->block_length_) advance();
          return e;
        }
        close(s);
        advance();
      } else if (!input_done_) {
        std::optional<Element> in = input_->next();
        if (!in) {
          input_done_ = true;
          continue;
        }
        open(s, std::move(*in));
      } else {
        advance();
      }
    }
    return std::nullopt;
  }

  void save(StateWriter& w) override {
    w.write_i64(static_cast<int64_t>(cycle_));
    w.write_i64(block_);
    w.write_i64(input_done_);
    for (Slot& s : slots_) {
      w.write_i64(s.it != nullptr);
      if (s.it) {
        w.write_element(s.source);
        s.it->save(w);
      }
    }
    input_->save(w);
  }

  void restore(StateReader& r) override {
    int64_t cycle = r.read_i64();
    if (cycle < 0 || cycle >= n_->cycle_length_)
      throw DataLossError("InterleaveDataset: bad cycle");
    cycle_ = static_cast<size_t>(cycle);
    block_ = r.read_i64();
    input_done_ = r.read_i64() != 0;
    for (Slot& s : slots_) {
      if (s.it) close(s);
      if (r.read_i64() != 0) {
        open(s, r.read_element());
        s.it->restore(r);
      }
    }
    input_->restore(r);
  }

 private:
  struct Slot {
    Element source;  // the input element this slot's dataset was made from (for save/restore)
    std::shared_ptr<const DatasetNode> dataset;
    std::unique_ptr<IteratorBase> it;
  };

  void open(Slot& s, Element source) {
    s.dataset = n_->fn_(source).node();
    s.source = std::move(source);
    s.it = s.dataset->make_iterator();
    ++open_;
  }

  void close(Slot& s) {
    s.it.reset();  // before its dataset, which the iterator points into
    s = Slot{};
    --open_;
  }

  void advance() {
    block_ = 0;
    cycle_ = (cycle_ + 1) % slots_.size();
  }

  const InterleaveNode* n_;
  std::unique_ptr<IteratorBase> input_;
  std::vector<Slot> slots_;
  size_t cycle_ = 0;
  int64_t block_ = 0;
  int64_t open_ = 0;
  bool input_done_ = false;
};

std::unique_ptr<IteratorBase> InterleaveNode::make_iterator() const {
  return std::make_unique<InterleaveIt>(this);
}

}  // namespace

Dataset Dataset::interleave(std::function<Dataset(const Element&)> fn,
                            InterleaveOptions options) const {
  return Dataset(std::make_shared<InterleaveNode>(node_, std::move(fn), options));
}

}  // namespace tfcc::data
