// Dataset::from_generator: elements produced by a C++ callable, checked against a signature.
#include "tfcc/data/dataset.h"
#include "tfcc/platform/errors.h"

namespace tfcc::data {
namespace {

using Generator = std::function<std::optional<Element>()>;

class GeneratorNode : public DatasetNode {
 public:
  GeneratorNode(std::function<Generator()> make, ElementSpec spec)
      : make_(std::move(make)), spec_(std::move(spec)) {
    TFCC_CHECK_ARG(static_cast<bool>(make_), "from_generator: the generator is empty");
    TFCC_CHECK_ARG(!spec_.empty(), "from_generator: output_signature has no components");
  }
  const ElementSpec& element_spec() const override { return spec_; }
  std::string name() const override { return "GeneratorDataset"; }

  void check(const Element& e, int64_t index) const {
    TFCC_CHECK_ARG(e.size() == spec_.size(), "`generator` yielded an element of ", e.size(),
                   " components where an element of ", spec_.size(), " was expected (element ",
                   index, ", output_signature ", spec_string(spec_), ")");
    for (size_t i = 0; i < e.size(); ++i) {
      TFCC_CHECK_ARG(e[i].defined() && !e[i].is_symbolic(), "`generator` yielded element ", index,
                     " whose component ", i, " is not a concrete tensor");
      TFCC_CHECK_ARG(
          e[i].dtype() == spec_[i].dtype && spec_[i].shape.is_compatible_with(e[i].partial_shape()),
          "`generator` yielded an element that did not match the expected type. The "
          "expected type was ",
          spec_[i].to_string(), ", but the yielded element ", index, " component ", i,
          " was TensorSpec(shape=", e[i].shape().to_string(), ", dtype=", dtype_name(e[i].dtype()),
          ").");
    }
  }

  std::unique_ptr<IteratorBase> make_iterator() const override {
    class It : public IteratorBase {
     public:
      explicit It(const GeneratorNode* n) : n_(n) {}
      std::optional<Element> next() override {
        if (done_) return std::nullopt;
        if (!gen_) {
          gen_ = n_->make_();
          // A restored generator replays from its start to the saved position.
          for (int64_t i = 0; i < skip_; ++i) {
            if (!gen_()) {
              done_ = true;
              return std::nullopt;
            }
          }
        }
        std::optional<Element> e = gen_();
        if (!e) {
          done_ = true;
          return std::nullopt;
        }
        n_->check(*e, produced_);
        ++produced_;
        return e;
      }
      // A C++ callable's state cannot be serialised; the position is saved and restore replays
      // the generator (it must yield the same sequence each time it is made).
      void save(StateWriter& w) override {
        w.write_i64(produced_);
        w.write_i64(done_);
      }
      void restore(StateReader& r) override {
        produced_ = skip_ = r.read_i64();
        done_ = r.read_i64() != 0;
        if (skip_ < 0) throw DataLossError("GeneratorDataset: bad position");
      }

     private:
      const GeneratorNode* n_;
      Generator gen_;
      int64_t produced_ = 0, skip_ = 0;
      bool done_ = false;
    };
    return std::make_unique<It>(this);
  }

 private:
  std::function<Generator()> make_;
  ElementSpec spec_;
};

}  // namespace

Dataset Dataset::from_generator(std::function<Generator()> make_generator,
                                ElementSpec output_signature) {
  return Dataset(
      std::make_shared<GeneratorNode>(std::move(make_generator), std::move(output_signature)));
}

}  // namespace tfcc::data
