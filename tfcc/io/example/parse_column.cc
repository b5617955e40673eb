// Column: one feature's values across records, and the dense, padded and sparse results built
// from them.
#include <algorithm>
#include <cstring>

#include "tfcc/io/example/parse_internal.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/limits.h"

namespace tfcc::io::internal {
namespace {

int64_t mul(int64_t a, int64_t b, const std::string& what) {
  int64_t r;
  if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &r)) {
    throw ResourceExhaustedError(
        tfcc::internal::str_cat(what, ": the result's size overflows (", a, " x ", b, ")"));
  }
  return r;
}

Tensor int64_tensor(const std::vector<int64_t>& v, const Shape& shape) {
  return Tensor::from_vector(v, shape);
}

Tensor bytes_values(std::string_view bytes) {
  return Tensor::from_bytes(uint8, Shape{static_cast<int64_t>(bytes.size())}, bytes.data(),
                            bytes.size());
}

Shape prepend(std::vector<int64_t> outer, const Shape& inner) {
  outer.insert(outer.end(), inner.dims().begin(), inner.dims().end());
  return Shape(std::move(outer));
}

}  // namespace

void Column::append(const tensorflow::Feature& p) {
  switch (kind_for(dtype_)) {
    case Feature::Kind::kFloat:
      floats_.insert(floats_.end(), p.float_list().value().begin(), p.float_list().value().end());
      break;
    case Feature::Kind::kInt64:
      int64s_.insert(int64s_.end(), p.int64_list().value().begin(), p.int64_list().value().end());
      break;
    default:
      for (const std::string& s : p.bytes_list().value()) {
        bytes_ += s;
        splits_.push_back(static_cast<int64_t>(bytes_.size()));
      }
  }
}

void Column::append(const Feature& f) {
  switch (kind_for(dtype_)) {
    case Feature::Kind::kFloat:
      floats_.insert(floats_.end(), f.float_list().begin(), f.float_list().end());
      break;
    case Feature::Kind::kInt64:
      int64s_.insert(int64s_.end(), f.int64_list().begin(), f.int64_list().end());
      break;
    default:
      for (const std::string& s : f.bytes_list()) {
        bytes_ += s;
        splits_.push_back(static_cast<int64_t>(bytes_.size()));
      }
  }
}

int64_t Column::count() const {
  switch (kind_for(dtype_)) {
    case Feature::Kind::kFloat:
      return static_cast<int64_t>(floats_.size());
    case Feature::Kind::kInt64:
      return static_cast<int64_t>(int64s_.size());
    default:
      return static_cast<int64_t>(splits_.size()) - 1;
  }
}

int64_t Column::group_size(int64_t i) const {
  return starts_[static_cast<size_t>(i) + 1] - starts_[static_cast<size_t>(i)];
}

ParsedFeature Column::dense(const Shape& shape) const {
  ParsedFeature out;
  out.shape = shape;
  if (dtype_ == float32) {
    out.values = Tensor::from_vector(floats_, shape);
  } else if (dtype_ == int64) {
    out.values = Tensor::from_vector(int64s_, shape);
  } else {
    out.values = bytes_values(bytes_);
    out.byte_splits = int64_tensor(splits_, Shape{static_cast<int64_t>(splits_.size())});
  }
  return out;
}

ParsedFeature Column::padded(const Shape& step, const std::optional<Feature>& pad, bool batched,
                             uint64_t source_bytes, const std::string& what) const {
  const int64_t stride = step.num_elements();
  const int64_t n_groups = groups();
  int64_t rows = 0;
  for (int64_t g = 0; g < n_groups; ++g) {
    if (stride > 0) rows = std::max(rows, group_size(g) / stride);
  }
  const int64_t per_group = mul(rows, stride, what);
  const int64_t total = mul(n_groups, per_group, what);
  const bool is_bytes = dtype_ == uint8;
  const std::string pad_bytes = is_bytes && pad ? pad->bytes_list().at(0) : std::string();
  // Numbers: 4 or 8 bytes each; strings: an 8-byte split each plus their bytes.
  const int64_t elem = dtype_ == float32 ? 4 : 8;
  uint64_t out_bytes = static_cast<uint64_t>(mul(total, elem, what));
  if (is_bytes) {
    const int64_t padding = mul(total, static_cast<int64_t>(pad_bytes.size()), what);
    out_bytes += bytes_.size() + static_cast<uint64_t>(padding);
  }
  check_decompressed_size(out_bytes, source_bytes, what + " (padded to the longest record)");
  const Shape shape = batched ? prepend({n_groups, rows}, step) : prepend({rows}, step);
  ParsedFeature out;
  out.shape = shape;
  if (!is_bytes) {
    out.values = Tensor::empty(dtype_, shape);
    auto* dst = static_cast<char*>(out.values.mutable_raw_data());
    const char* src = dtype_ == int64 ? reinterpret_cast<const char*>(int64s_.data())
                                      : reinterpret_cast<const char*>(floats_.data());
    const float fpad = pad && dtype_ == float32 ? pad->float_list().at(0) : 0.0f;
    const int64_t ipad = pad && dtype_ == int64 ? pad->int64_list().at(0) : 0;
    const void* pad_value = dtype_ == int64 ? static_cast<const void*>(&ipad) : &fpad;
    const auto e = static_cast<size_t>(elem);
    for (int64_t g = 0; g < n_groups; ++g) {
      const auto begin = static_cast<size_t>(starts_[static_cast<size_t>(g)]);
      const auto len = static_cast<size_t>(group_size(g));
      char* row = dst + static_cast<size_t>(g * per_group) * e;
      if (len > 0) std::memcpy(row, src + begin * e, len * e);
      for (size_t i = len; i < static_cast<size_t>(per_group); ++i) {
        std::memcpy(row + i * e, pad_value, e);
      }
    }
    return out;
  }
  std::string bytes;
  std::vector<int64_t> splits{0};
  bytes.reserve(static_cast<size_t>(out_bytes - static_cast<uint64_t>(total) * 8));
  splits.reserve(static_cast<size_t>(total) + 1);
  for (int64_t g = 0; g < n_groups; ++g) {
    const int64_t begin = starts_[static_cast<size_t>(g)], len = group_size(g);
    for (int64_t i = 0; i < per_group; ++i) {
      if (i < len) {
        const size_t s = static_cast<size_t>(begin + i);
        bytes.append(bytes_, static_cast<size_t>(splits_[s]),
                     static_cast<size_t>(splits_[s + 1] - splits_[s]));
      } else {
        bytes += pad_bytes;
      }
      splits.push_back(static_cast<int64_t>(bytes.size()));
    }
  }
  out.values = bytes_values(bytes);
  out.byte_splits = int64_tensor(splits, Shape{static_cast<int64_t>(splits.size())});
  return out;
}

ParsedFeature Column::sparse(bool batched) const {
  const int64_t nnz = count(), n_groups = groups();
  int64_t longest = 0;
  for (int64_t g = 0; g < n_groups; ++g) longest = std::max(longest, group_size(g));
  const int64_t rank = batched ? 2 : 1;
  std::vector<int64_t> indices;
  indices.reserve(static_cast<size_t>(nnz * rank));
  for (int64_t g = 0; g < n_groups; ++g) {
    for (int64_t j = 0; j < group_size(g); ++j) {
      if (batched) indices.push_back(g);
      indices.push_back(j);
    }
  }
  ParsedFeature out = dense(Shape{nnz});
  out.shape = PartialShape();
  out.indices = int64_tensor(indices, Shape{nnz, rank});
  out.dense_shape =
      batched ? int64_tensor({n_groups, longest}, Shape{2}) : int64_tensor({longest}, Shape{1});
  return out;
}

}  // namespace tfcc::io::internal
