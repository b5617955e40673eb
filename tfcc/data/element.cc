#include "tfcc/data/element.h"

#include <cstring>

#include "tfcc/platform/errors.h"

namespace tfcc::data {

std::string TensorSpec::to_string() const {
  std::string s = "TensorSpec(shape=";
  s.append(shape.to_string());
  s.append(", dtype=");
  s.append(dtype_name(dtype));
  s.append(")");
  return s;
}

std::string spec_string(const ElementSpec& spec) {
  if (spec.size() == 1) return spec[0].to_string();
  std::string s = "(";
  for (size_t i = 0; i < spec.size(); ++i) {
    if (i) s.append(", ");
    s.append(spec[i].to_string());
  }
  s.append(")");
  return s;
}

ElementSpec spec_of(const Element& element) {
  ElementSpec spec;
  spec.reserve(element.size());
  for (const Tensor& t : element) spec.push_back({t.dtype(), t.partial_shape()});
  return spec;
}

ElementSpec most_specific_compatible(const ElementSpec& a, const ElementSpec& b,
                                     const std::string& what) {
  if (a.empty()) return b;  // an unknown spec (see MapOptions::output_spec) adopts the other
  if (b.empty()) return a;
  TFCC_CHECK_ARG(a.size() == b.size(), what,
                 ": the datasets have different structures: ", spec_string(a), " vs. ",
                 spec_string(b));
  ElementSpec out(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    TFCC_CHECK_ARG(a[i].dtype == b[i].dtype, what, ": component ", i, " has dtype ",
                   dtype_name(a[i].dtype), " in one dataset and ", dtype_name(b[i].dtype),
                   " in the other");
    out[i].dtype = a[i].dtype;
    const PartialShape& sa = a[i].shape;
    const PartialShape& sb = b[i].shape;
    if (!sa.rank_known() || !sb.rank_known() || sa.rank() != sb.rank()) {
      out[i].shape = PartialShape::unknown_rank();
      continue;
    }
    std::vector<int64_t> dims(static_cast<size_t>(sa.rank()));
    for (int d = 0; d < sa.rank(); ++d) {
      dims[static_cast<size_t>(d)] = sa.dim(d) == sb.dim(d) ? sa.dim(d) : -1;
    }
    out[i].shape = PartialShape(std::move(dims));
  }
  return out;
}

ElementSpec batched_spec(const ElementSpec& spec, int64_t batch) {
  ElementSpec out = spec;
  for (TensorSpec& s : out) {
    if (!s.shape.rank_known()) continue;
    std::vector<int64_t> dims{batch};
    dims.insert(dims.end(), s.shape.dims().begin(), s.shape.dims().end());
    s.shape = PartialShape(std::move(dims));
  }
  return out;
}

Tensor bytes_tensor(std::string_view bytes) {
  return Tensor::from_bytes(uint8, Shape{static_cast<int64_t>(bytes.size())}, bytes.data(),
                            bytes.size());
}

std::string tensor_bytes(const Tensor& t) {
  TFCC_CHECK_ARG(t.defined() && t.dtype() == uint8 && t.rank() == 1,
                 "Expected a 1-D uint8 tensor of bytes (tfcc's string form), got ",
                 t.defined() ? t.to_string() : std::string("an undefined tensor"));
  return std::string(static_cast<const char*>(t.raw_data()), t.nbytes());
}

namespace internal {

int64_t checked_mul(int64_t a, int64_t b, const char* what) {
  int64_t r;
  TFCC_CHECK_ARG(a >= 0 && b >= 0 && !__builtin_mul_overflow(a, b, &r), what,
                 ": size overflows int64 (", a, " * ", b, ")");
  return r;
}

size_t row_bytes(const Tensor& t) {
  int64_t n = 1;
  for (int d = 1; d < t.rank(); ++d) n = checked_mul(n, t.shape().dim(d), "row_bytes");
  return static_cast<size_t>(n) * dtype_size(t.dtype());
}

Tensor slice_row(const Tensor& t, int64_t i) {
  TFCC_CHECK_ARG(t.rank() >= 1, "Cannot slice a scalar tensor");
  TFCC_CHECK_ARG(i >= 0 && i < t.shape().dim(0), "Row ", i, " is out of range for shape ",
                 t.shape().to_string());
  std::vector<int64_t> dims(t.shape().dims().begin() + 1, t.shape().dims().end());
  Tensor out = Tensor::empty(t.dtype(), Shape(std::move(dims)));
  size_t bytes = row_bytes(t);
  if (bytes) {
    std::memcpy(out.mutable_raw_data(),
                static_cast<const char*>(t.raw_data()) + static_cast<size_t>(i) * bytes, bytes);
  }
  // String elements are handles into storage the source keeps alive; the row shares it.
  if (t.dtype() == DType::kString) out.buffer()->add_owners_of(*t.buffer());
  return out;
}

Tensor stack_rows(const std::vector<Tensor>& rows) {
  TFCC_CHECK_ARG(!rows.empty(), "Cannot stack zero tensors");
  const Tensor& first = rows[0];
  std::vector<int64_t> dims{static_cast<int64_t>(rows.size())};
  dims.insert(dims.end(), first.shape().dims().begin(), first.shape().dims().end());
  size_t bytes = first.nbytes();
  checked_mul(static_cast<int64_t>(bytes), static_cast<int64_t>(rows.size()), "batch");
  Tensor out = Tensor::empty(first.dtype(), Shape(std::move(dims)));
  char* dst = static_cast<char*>(out.mutable_raw_data());
  for (const Tensor& r : rows) {
    TFCC_CHECK_ARG(r.dtype() == first.dtype() && r.shape() == first.shape(), "Cannot stack a ",
                   dtype_name(r.dtype()), r.shape().to_string(), " tensor with a ",
                   dtype_name(first.dtype()), first.shape().to_string(), " one");
    if (bytes) std::memcpy(dst, r.raw_data(), bytes);
    if (r.dtype() == DType::kString) out.buffer()->add_owners_of(*r.buffer());
    dst += bytes;
  }
  return out;
}

}  // namespace internal
}  // namespace tfcc::data
