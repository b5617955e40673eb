#include "tfcc/ops/kernel_util.h"

namespace tfcc::kernels {

PartialShape broadcast_shapes(const InferenceContext& ctx, const PartialShape& a,
                              const PartialShape& b) {
  if (!a.rank_known() || !b.rank_known()) return PartialShape::unknown_rank();
  int ra = a.rank(), rb = b.rank(), r = std::max(ra, rb);
  std::vector<int64_t> out(r);
  for (int i = 0; i < r; ++i) {
    int64_t da = i < r - ra ? 1 : a.dim(i - (r - ra));
    int64_t db = i < r - rb ? 1 : b.dim(i - (r - rb));
    if (da == 1) {
      out[i] = db;
    } else if (db == 1) {
      out[i] = da;
    } else if (da < 0 || db < 0) {
      out[i] = da < 0 ? db : da;
    } else if (da == db) {
      out[i] = da;
    } else {
      ctx.fail(internal::str_cat("Incompatible shapes: ", a.to_string(), " vs. ", b.to_string()));
    }
  }
  return PartialShape(std::move(out));
}

std::optional<Shape> try_broadcast(const Shape& a, const Shape& b) {
  int ra = a.rank(), rb = b.rank(), r = std::max(ra, rb);
  std::vector<int64_t> out(r);
  for (int i = 0; i < r; ++i) {
    int64_t da = i < r - ra ? 1 : a.dim(i - (r - ra));
    int64_t db = i < r - rb ? 1 : b.dim(i - (r - rb));
    if (da != db && da != 1 && db != 1) return std::nullopt;
    out[i] = da == 1 ? db : da;
  }
  return Shape(std::move(out));
}

int64_t normalize_axis(const OpDef& op, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= std::max<int64_t>(rank, 1)) {
    op_error(op, internal::str_cat("axis ", axis, " is out of bounds for a tensor of rank ", rank,
                                   "; expected a value in [", -rank, ", ", rank, ")"));
  }
  return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> broadcast_strides(const Shape& in, const Shape& out) {
  int r = out.rank(), ri = in.rank();
  std::vector<int64_t> strides(r, 0);
  int64_t s = 1;
  for (int i = ri - 1; i >= 0; --i) {
    int o = i + (r - ri);
    strides[o] = in.dim(i) == 1 ? 0 : s;
    s *= in.dim(i);
  }
  return strides;
}

BroadcastPlan::BroadcastPlan(const std::vector<Shape>& ins, const Shape& out) {
  std::vector<std::vector<int64_t>> full;
  for (const Shape& s : ins) full.push_back(broadcast_strides(s, out));
  // Collapse adjacent dims i, i+1 when every input is contiguous across them (stride[i] ==
  // stride[i+1] * dim[i+1]), so typical cases become one long inner loop.
  in_strides.assign(ins.size(), {});
  for (int d = 0; d < out.rank(); ++d) {
    if (out.dim(d) == 1) continue;
    bool merge = !out_dims.empty();
    for (size_t k = 0; merge && k < ins.size(); ++k) {
      merge = in_strides[k].back() == full[k][d] * out.dim(d);
    }
    if (merge) {
      out_dims.back() *= out.dim(d);
      for (size_t k = 0; k < ins.size(); ++k) in_strides[k].back() = full[k][d];
    } else {
      out_dims.push_back(out.dim(d));
      for (size_t k = 0; k < ins.size(); ++k) in_strides[k].push_back(full[k][d]);
    }
  }
}

int64_t BroadcastPlan::outer() const {
  int64_t n = 1;
  for (size_t i = 0; i + 1 < out_dims.size(); ++i) n *= out_dims[i];
  return n;
}

void BroadcastPlan::offsets(int64_t row, int64_t* offs) const {
  for (size_t k = 0; k < in_strides.size(); ++k) offs[k] = 0;
  for (int d = static_cast<int>(out_dims.size()) - 2; d >= 0; --d) {
    int64_t idx = row % out_dims[d];
    row /= out_dims[d];
    for (size_t k = 0; k < in_strides.size(); ++k) offs[k] += idx * in_strides[k][d];
  }
}

}  // namespace tfcc::kernels
