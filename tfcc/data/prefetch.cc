// Dataset::prefetch: a background thread keeps up to `buffer_size` elements ready.
//
// The thread starts on the first get_next() (so a fresh iterator can still be restored) and pulls
// from the input under `input_mu_`; save() takes that lock too, so the input is never saved while
// the thread is inside it. Errors from the input are queued like elements and rethrown in order.
// Destruction stops the thread: it finishes the element it is producing, then exits and is joined.
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

#include "tfcc/data/dataset.h"
#include "tfcc/platform/errors.h"

namespace tfcc::data {
namespace {

// TF's autotuner grows the buffer from 1 as the consumer stalls; tfcc uses a fixed depth that
// covers a training step's worth of jitter for typical batch sizes.
constexpr int64_t kAutotuneBufferSize = 4;

struct Produced {
  std::optional<Element> element;  // nullopt with no error: end of sequence
  std::exception_ptr error;
};

class PrefetchNode : public DatasetNode {
 public:
  PrefetchNode(std::shared_ptr<const DatasetNode> input, int64_t buffer_size)
      : input_(std::move(input)),
        buffer_size_(buffer_size == AUTOTUNE ? kAutotuneBufferSize : buffer_size) {
    TFCC_CHECK_ARG(buffer_size == AUTOTUNE || buffer_size >= 0,
                   "buffer_size must be non-negative or AUTOTUNE, got ", buffer_size);
  }
  const ElementSpec& element_spec() const override { return input_->element_spec(); }
  int64_t cardinality() const override { return input_->cardinality(); }
  std::string name() const override { return "PrefetchDataset"; }
  std::unique_ptr<IteratorBase> make_iterator() const override;

  std::shared_ptr<const DatasetNode> input_;
  int64_t buffer_size_;
};

class PrefetchIt : public IteratorBase {
 public:
  explicit PrefetchIt(const PrefetchNode* n) : n_(n), input_(n->input_->make_iterator()) {}

  ~PrefetchIt() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

  std::optional<Element> next() override {
    if (n_->buffer_size_ == 0) {
      std::lock_guard<std::mutex> lock(input_mu_);
      return input_->next();
    }
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return !buffer_.empty(); });
    Produced p = std::move(buffer_.front());
    if (!p.element && !p.error) return std::nullopt;  // the end marker stays in the buffer
    buffer_.pop_front();
    cv_.notify_all();
    lock.unlock();
    if (p.error) std::rethrow_exception(p.error);
    return std::move(p.element);
  }

  void save(StateWriter& w) override {
    std::lock_guard<std::mutex> in_lock(input_mu_);
    std::lock_guard<std::mutex> lock(mu_);
    w.write_u64(buffer_.size());
    for (const Produced& p : buffer_) {
      if (p.error) {
        std::string message;
        try {
          std::rethrow_exception(p.error);
        } catch (const std::exception& e) {
          message = e.what();
        } catch (...) {
          message = "unknown exception";
        }
        w.write_i64(2);
        w.write_string(message);
      } else if (p.element) {
        w.write_i64(1);
        w.write_element(*p.element);
      } else {
        w.write_i64(0);
      }
    }
    input_->save(w);
  }

  void restore(StateReader& r) override {
    uint64_t n = r.read_u64();
    if (n > static_cast<uint64_t>(n_->buffer_size_) + 1) {
      throw DataLossError("PrefetchDataset: saved buffer is larger than buffer_size");
    }
    buffer_.clear();
    for (uint64_t i = 0; i < n; ++i) {
      int64_t kind = r.read_i64();
      Produced p;
      if (kind == 2) {
        p.error = std::make_exception_ptr(UnknownError(r.read_string()));
      } else if (kind == 1) {
        p.element = r.read_element();
      } else if (kind != 0) {
        throw DataLossError("PrefetchDataset: bad buffer entry");
      }
      if (kind == 0) end_ = true;
      buffer_.push_back(std::move(p));
    }
    input_->restore(r);
  }

 private:
  void run() {
    while (true) {
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] {
          return stop_ || (!end_ && static_cast<int64_t>(buffer_.size()) < n_->buffer_size_);
        });
        if (stop_ || end_) return;
      }
      Produced p;
      // input_mu_ stays held until the element is in the buffer, so save() (which takes
      // input_mu_ then mu_) never sees the input advanced past an element not yet buffered.
      std::lock_guard<std::mutex> in_lock(input_mu_);
      try {
        p.element = input_->next();
      } catch (...) {
        p.error = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mu_);
      if (!p.element && !p.error) end_ = true;
      buffer_.push_back(std::move(p));
      cv_.notify_all();
    }
  }

  const PrefetchNode* n_;
  std::unique_ptr<IteratorBase> input_;
  std::mutex input_mu_;  // held while the input is used
  std::mutex mu_;        // guards the fields below
  std::condition_variable cv_;
  std::deque<Produced> buffer_;
  bool end_ = false;
  bool stop_ = false;
  std::thread thread_;
};

std::unique_ptr<IteratorBase> PrefetchNode::make_iterator() const {
  return std::make_unique<PrefetchIt>(this);
}

}  // namespace

Dataset Dataset::prefetch(int64_t buffer_size) const {
  return Dataset(std::make_shared<PrefetchNode>(node_, buffer_size));
}

}  // namespace tfcc::data
