// Dataset::zip: one element from each input, components concatenated; ends with the shortest.
#include <algorithm>

#include "tfcc/data/dataset.h"
#include "tfcc/platform/errors.h"

namespace tfcc::data {
namespace {

class ZipNode : public DatasetNode {
 public:
  explicit ZipNode(std::vector<std::shared_ptr<const DatasetNode>> inputs)
      : inputs_(std::move(inputs)) {
    TFCC_CHECK_ARG(!inputs_.empty(), "zip needs at least one dataset");
    for (const auto& in : inputs_) {
      const ElementSpec& s = in->element_spec();
      spec_.insert(spec_.end(), s.begin(), s.end());
    }
  }
  const ElementSpec& element_spec() const override { return spec_; }
  int64_t cardinality() const override {
    int64_t n = kInfiniteCardinality;
    for (const auto& in : inputs_) {
      int64_t c = in->cardinality();
      if (c == kUnknownCardinality) return kUnknownCardinality;
      if (c != kInfiniteCardinality) n = n == kInfiniteCardinality ? c : std::min(n, c);
    }
    return n;
  }
  std::string name() const override { return "ZipDataset"; }

  std::unique_ptr<IteratorBase> make_iterator() const override {
    class It : public IteratorBase {
     public:
      explicit It(const ZipNode* n) {
        for (const auto& in : n->inputs_) inputs_.push_back(in->make_iterator());
      }
      std::optional<Element> next() override {
        if (done_) return std::nullopt;
        Element out;
        for (auto& in : inputs_) {
          std::optional<Element> e = in->next();
          if (!e) {
            done_ = true;
            return std::nullopt;
          }
          out.insert(out.end(), e->begin(), e->end());
        }
        return out;
      }
      void save(StateWriter& w) override {
        w.write_i64(done_);
        for (auto& in : inputs_) in->save(w);
      }
      void restore(StateReader& r) override {
        done_ = r.read_i64() != 0;
        for (auto& in : inputs_) in->restore(r);
      }

     private:
      std::vector<std::unique_ptr<IteratorBase>> inputs_;
      bool done_ = false;
    };
    return std::make_unique<It>(this);
  }

 private:
  std::vector<std::shared_ptr<const DatasetNode>> inputs_;
  ElementSpec spec_;
};

}  // namespace

Dataset Dataset::zip(const std::vector<Dataset>& datasets) {
  std::vector<std::shared_ptr<const DatasetNode>> nodes;
  for (const Dataset& d : datasets) nodes.push_back(d.node());
  return Dataset(std::make_shared<ZipNode>(std::move(nodes)));
}

}  // namespace tfcc::data
