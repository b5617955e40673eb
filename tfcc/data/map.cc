// Dataset::map: the node, its output spec, and sequential iteration.
#include <cstring>

#include "tfcc/data/map_internal.h"
#include "tfcc/platform/errors.h"

namespace tfcc::data {
namespace internal {
namespace {

Element zeros_like_spec(const ElementSpec& spec, int64_t unknown_dim) {
  Element e;
  for (const TensorSpec& s : spec) {
    std::vector<int64_t> dims = s.shape.dims();
    for (int64_t& d : dims) d = d < 0 ? unknown_dim : d;
    Tensor t = Tensor::empty(s.dtype, Shape(dims));
    if (t.nbytes()) std::memset(t.mutable_raw_data(), 0, t.nbytes());
    e.push_back(t);
  }
  return e;
}

// TensorFlow learns a map function's output type by tracing it. Without a trace, the function is
// run on zero-filled inputs twice, with unknown dims set to 1 and then 2: output dims that change
// between the runs are unknown. Like a trace, this calls the function when the pipeline is built.
ElementSpec infer_spec(const ElementSpec& in, const ElementFn& fn) {
  for (const TensorSpec& s : in) {
    if (!s.shape.rank_known()) return {};
  }
  if (in.empty()) return {};
  try {
    Element a = fn(zeros_like_spec(in, 1));
    Element b = fn(zeros_like_spec(in, 2));
    if (a.size() != b.size()) return {};
    ElementSpec out;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!a[i].defined() || !b[i].defined() || a[i].dtype() != b[i].dtype()) return {};
      TensorSpec sa{a[i].dtype(), a[i].partial_shape()};
      TensorSpec sb{b[i].dtype(), b[i].partial_shape()};
      out.push_back(most_specific_compatible({sa}, {sb}, "map")[0]);
    }
    return out;
  } catch (const std::exception&) {
    return {};  // unknown: the caller can pass MapOptions::output_spec
  }
}

class SequentialMapIt : public IteratorBase {
 public:
  explicit SequentialMapIt(const MapNode* n) : n_(n), input_(n->input()->make_iterator()) {}
  std::optional<Element> next() override {
    std::optional<Element> e = input_->next();
    if (!e) return std::nullopt;
    return n_->fn()(*e);
  }
  void save(StateWriter& w) override { input_->save(w); }
  void restore(StateReader& r) override { input_->restore(r); }

 private:
  const MapNode* n_;
  std::unique_ptr<IteratorBase> input_;
};

}  // namespace

MapNode::MapNode(std::shared_ptr<const DatasetNode> input, ElementFn fn, MapOptions options)
    : input_(std::move(input)), fn_(std::move(fn)), options_(std::move(options)) {
  TFCC_CHECK_ARG(static_cast<bool>(fn_), "map: the function is empty");
  TFCC_CHECK_ARG(options_.num_parallel_calls >= 0 || options_.num_parallel_calls == AUTOTUNE,
                 "num_parallel_calls must be positive or AUTOTUNE, got ",
                 options_.num_parallel_calls);
  spec_ = options_.output_spec ? *options_.output_spec : infer_spec(input_->element_spec(), fn_);
}

std::unique_ptr<IteratorBase> MapNode::make_iterator() const {
  if (options_.num_parallel_calls > 1 || options_.num_parallel_calls == AUTOTUNE) {
    return make_parallel_map_iterator(this);
  }
  return std::make_unique<SequentialMapIt>(this);
}

}  // namespace internal

Dataset Dataset::map_element(ElementFn fn, MapOptions options) const {
  return Dataset(std::make_shared<internal::MapNode>(node_, std::move(fn), std::move(options)));
}

}  // namespace tfcc::data
