// Dataset::padded_batch: batches elements whose shapes differ, padding each component to the
// padded shape (unknown dims: the batch's longest) with a padding value.
#include <cstring>

#include "tfcc/data/batching.h"
#include "tfcc/data/dataset.h"
#include "tfcc/platform/errors.h"

namespace tfcc::data {
namespace {

// Copies `src` (shape `sd`) into the top-left corner of `dst` (shape `dd`), row by row.
void copy_padded(const char* src, const std::vector<int64_t>& sd, char* dst,
                 const std::vector<int64_t>& dd, size_t elem, size_t dim) {
  if (dim == sd.size()) {
    std::memcpy(dst, src, elem);
    return;
  }
  size_t src_stride = elem, dst_stride = elem;
  for (size_t d = dim + 1; d < sd.size(); ++d) {
    src_stride *= static_cast<size_t>(sd[d]);
    dst_stride *= static_cast<size_t>(dd[d]);
  }
  if (dim + 1 == sd.size()) {
    std::memcpy(dst, src, static_cast<size_t>(sd[dim]) * elem);
    return;
  }
  for (int64_t i = 0; i < sd[dim]; ++i) {
    copy_padded(src + static_cast<size_t>(i) * src_stride, sd,
                dst + static_cast<size_t>(i) * dst_stride, dd, elem, dim + 1);
  }
}

class PaddedBatchNode : public DatasetNode {
 public:
  PaddedBatchNode(std::shared_ptr<const DatasetNode> input, int64_t batch_size,
                  PaddedBatchOptions opt)
      : input_(std::move(input)), batch_size_(batch_size), opt_(std::move(opt)) {
    TFCC_CHECK_ARG(batch_size > 0, "Batch size must be greater than zero, got ", batch_size, ".");
    const ElementSpec& in = input_->element_spec();
    if (opt_.padded_shapes) {
      TFCC_CHECK_ARG(opt_.padded_shapes->size() == in.size(),
                     "padded_batch: ", opt_.padded_shapes->size(), " padded shapes for ", in.size(),
                     " components");
    }
    if (opt_.padding_values) {
      TFCC_CHECK_ARG(opt_.padding_values->size() == in.size(),
                     "padded_batch: ", opt_.padding_values->size(), " padding values for ",
                     in.size(), " components");
      for (size_t c = 0; c < in.size(); ++c) {
        const Tensor& v = (*opt_.padding_values)[c];
        TFCC_CHECK_ARG(v.defined() && v.rank() == 0, "padded_batch: padding value ", c,
                       " must be a scalar");
        TFCC_CHECK_ARG(v.dtype() == in[c].dtype, "padded_batch: padding value ", c, " has dtype ",
                       dtype_name(v.dtype()), " but the component has dtype ",
                       dtype_name(in[c].dtype));
      }
    }
    spec_ = in;
    for (size_t c = 0; c < in.size(); ++c) {
      if (opt_.padded_shapes) spec_[c].shape = (*opt_.padded_shapes)[c];
    }
    spec_ = batched_spec(spec_, opt_.drop_remainder ? batch_size : -1);
  }
  const ElementSpec& element_spec() const override { return spec_; }
  int64_t cardinality() const override {
    int64_t n = input_->cardinality();
    if (n < 0) return n;
    return opt_.drop_remainder ? n / batch_size_ : (n + batch_size_ - 1) / batch_size_;
  }
  std::string name() const override { return "PaddedBatchDataset"; }

  Tensor pad_column(const std::vector<Element>& rows, size_t c) const {
    const Tensor& first = rows[0][c];
    int rank = first.rank();
    std::vector<int64_t> target(static_cast<size_t>(rank), 0);
    for (size_t r = 0; r < rows.size(); ++r) {
      const Tensor& t = rows[r][c];
      TFCC_CHECK_ARG(t.dtype() == first.dtype() && t.rank() == rank, "padded_batch: element ", r,
                     " component ", c, " has shape ", t.shape().debug_string(), " and dtype ",
                     dtype_name(t.dtype()), "; element 0 has ", first.shape().debug_string(),
                     " and ", dtype_name(first.dtype()));
      for (int d = 0; d < rank; ++d) {
        target[static_cast<size_t>(d)] = std::max(target[static_cast<size_t>(d)], t.shape().dim(d));
      }
    }
    if (opt_.padded_shapes) {
      const PartialShape& ps = (*opt_.padded_shapes)[c];
      TFCC_CHECK_ARG(ps.rank_known() && ps.rank() == rank, "padded_batch: padded shape ",
                     ps.to_string(), " for component ", c, " does not have the rank ", rank,
                     " of the element");
      for (int d = 0; d < rank; ++d) {
        if (ps.dim(d) < 0) continue;
        TFCC_CHECK_ARG(ps.dim(d) >= target[static_cast<size_t>(d)],
                       "Attempted to pad to a smaller size than the input element: component ", c,
                       " dimension ", d, " has size ", target[static_cast<size_t>(d)],
                       " but the padded shape is ", ps.to_string());
        target[static_cast<size_t>(d)] = ps.dim(d);
      }
    }
    std::vector<int64_t> out_dims{static_cast<int64_t>(rows.size())};
    out_dims.insert(out_dims.end(), target.begin(), target.end());
    Shape out_shape(out_dims);
    Tensor out = Tensor::empty(first.dtype(), out_shape);
    size_t elem = dtype_size(first.dtype());
    int64_t row_elems = 1;
    for (int64_t d : target) row_elems = internal::checked_mul(row_elems, d, "padded_batch");
    char* dst = static_cast<char*>(out.mutable_raw_data());
    // Fill with the padding value, then copy each element into its corner.
    const void* pad = nullptr;
    std::vector<char> zero(elem, 0);
    pad = opt_.padding_values ? (*opt_.padding_values)[c].raw_data() : zero.data();
    for (int64_t i = 0; i < out_shape.num_elements(); ++i) {
      std::memcpy(dst + static_cast<size_t>(i) * elem, pad, elem);
    }
    if (first.dtype() == DType::kString && opt_.padding_values) {
      out.buffer()->add_owners_of(*(*opt_.padding_values)[c].buffer());
    }
    for (size_t r = 0; r < rows.size(); ++r) {
      const Tensor& t = rows[r][c];
      if (t.dtype() == DType::kString) out.buffer()->add_owners_of(*t.buffer());
      if (t.num_elements() == 0) continue;
      copy_padded(static_cast<const char*>(t.raw_data()), t.shape().dims(),
                  dst + r * static_cast<size_t>(row_elems) * elem, target, elem, 0);
    }
    return out;
  }

  std::unique_ptr<IteratorBase> make_iterator() const override {
    class It : public internal::BatchingIterator {
     public:
      explicit It(const PaddedBatchNode* n)
          : BatchingIterator(n->input_->make_iterator(), n->batch_size_, n->opt_.drop_remainder),
            n_(n) {}

     protected:
      void check_row(const Element& first, const Element& row, int64_t index) override {
        TFCC_CHECK_ARG(row.size() == first.size(), "padded_batch: element ", index, " has ",
                       row.size(), " components, element 0 has ", first.size());
      }
      Element combine(std::vector<Element>& rows) override {
        Element out;
        for (size_t c = 0; c < rows[0].size(); ++c) out.push_back(n_->pad_column(rows, c));
        return out;
      }

     private:
      const PaddedBatchNode* n_;
    };
    return std::make_unique<It>(this);
  }

 private:
  std::shared_ptr<const DatasetNode> input_;
  int64_t batch_size_;
  PaddedBatchOptions opt_;
  ElementSpec spec_;
};

}  // namespace

Dataset Dataset::padded_batch(int64_t batch_size, PaddedBatchOptions options) const {
  return Dataset(std::make_shared<PaddedBatchNode>(node_, batch_size, std::move(options)));
}

}  // namespace tfcc::data
