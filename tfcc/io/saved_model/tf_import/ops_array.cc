// Import rows for array ops: shapes, reshapes, slicing, joining, gathering, padding. TensorFlow
// passes shapes, axes and bounds as tensors; tfcc takes them as attributes, so they must be known
// when the signature is traced (they are: signatures are traced for concrete input shapes).
#include <algorithm>
#include <cmath>

#include "tfcc/io/saved_model/tf_import/op_table.h"
#include "tfcc/io/saved_model/tf_import/proto_io.h"
#include "tfcc/platform/errors.h"

namespace tfcc::saved_model::tf_import {

using ::tfcc::internal::str_cat;

namespace {

std::vector<Value> one(Tensor t) { return {Value::of(std::move(t))}; }

int64_t rank_of(const NodeContext& c, const Tensor& t) {
  const PartialShape ps = t.partial_shape();
  if (!ps.rank_known()) c.unsupported("a tensor of unknown rank");
  return static_cast<int64_t>(ps.dims().size());
}

int64_t norm_axis(const NodeContext& c, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) {
    throw InvalidArgumentError(str_cat("axis ", axis, " is out of range for rank ", rank));
  }
  (void)c;
  return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> static_dims(const NodeContext& c, const Tensor& t) {
  const PartialShape ps = t.partial_shape();
  if (!ps.rank_known() || !ps.is_fully_defined()) c.unsupported("a tensor of unknown shape");
  return ps.dims();
}

Tensor int_tensor(const std::vector<int64_t>& v, DType dtype) {
  if (dtype == int64) return Tensor::from_vector<int64_t>(v);
  std::vector<int32_t> w(v.begin(), v.end());
  return Tensor::from_vector<int32_t>(w);
}

Tensor expand(const NodeContext& c, const Tensor& t, int64_t axis) {
  return c.run1("ExpandDims", {t}, {{"axis", axis}});
}

// Values pass through (tensors, resources and lists alike).
OpRow passthrough(const std::string& tf, const std::string& out) {
  return {tf, {out}, {}, "(the input itself)", [](NodeContext& c) {
            if (c.inputs.empty()) throw InvalidArgumentError("needs an input");
            return std::vector<Value>{c.inputs[0]};
          }};
}

std::vector<Value> pack(NodeContext& c) {
  if (c.num_inputs() == 0) throw InvalidArgumentError("Pack of nothing");
  const int64_t rank = rank_of(c, c.in(0)) + 1;
  const int64_t axis = norm_axis(c, c.i("axis"), rank);
  std::vector<Tensor> parts;
  for (int i = 0; i < c.num_inputs(); ++i) parts.push_back(expand(c, c.in(i), axis));
  if (parts.size() == 1) return one(parts[0]);
  return one(c.run1("ConcatV2", parts, {{"axis", axis}}));
}

std::vector<Value> strided_slice(NodeContext& c) {
  return one(c.run1("StridedSlice", {c.in(0)},
                    {{"begin", c.ints(1)},
                     {"end", c.ints(2)},
                     {"strides", c.ints(3)},
                     {"begin_mask", c.i("begin_mask")},
                     {"end_mask", c.i("end_mask")},
                     {"ellipsis_mask", c.i("ellipsis_mask")},
                     {"new_axis_mask", c.i("new_axis_mask")},
                     {"shrink_axis_mask", c.i("shrink_axis_mask")}}));
}

std::vector<Value> shape(NodeContext& c) {
  const DType out = c.type("out_type");
  const PartialShape ps = c.in(0).partial_shape();
  if (ps.rank_known() && ps.is_fully_defined()) return one(int_tensor(ps.dims(), out));
  return one(c.run1("Shape", {c.in(0)}, {{"out_type", out}}));
}

std::vector<Value> split(NodeContext& c, const Tensor& value, int64_t axis_in) {
  const int64_t axis = norm_axis(c, axis_in, rank_of(c, value));
  std::vector<Value> out;
  for (Tensor& t : c.run("Split", {value}, {{"num_split", c.i("num_split")}, {"axis", axis}})) {
    out.push_back(Value::of(t));
  }
  return out;
}

std::vector<Value> pad(NodeContext& c, double constant, const std::string& mode) {
  std::vector<int64_t> p = c.ints(1);
  std::vector<int64_t> dims = static_dims(c, c.in(0));
  if (p.size() != 2 * dims.size()) throw InvalidArgumentError("paddings must be [rank, 2]");
  for (size_t i = 0; i < dims.size(); ++i) dims[i] += p[2 * i] + p[2 * i + 1];
  c.charge(dims, c.in(0).dtype());
  if (mode.empty()) {
    return one(c.run1("Pad", {c.in(0)}, {{"paddings", p}, {"constant_values", constant}}));
  }
  return one(c.run1("MirrorPad", {c.in(0)}, {{"paddings", p}, {"mode", mode}}));
}

const tensorflow::AttrValue kInt32 = attr_type(tensorflow::DT_INT32);

}  // namespace

void add_array_ops(std::vector<OpRow>& rows) {
  rows.push_back(passthrough("Identity", "output"));
  rows.push_back(passthrough("Snapshot", "output"));
  rows.push_back(passthrough("StopGradient", "output"));
  rows.push_back(passthrough("PreventGradient", "output"));
  rows.push_back({"IdentityN", {"output[]"}, {}, "(the inputs themselves)", [](NodeContext& c) {
                    return c.inputs;
                  }});
  rows.push_back({"Reshape", {"output"}, {{"Tshape", kInt32}}, "Reshape", [](NodeContext& c) {
                    return one(c.run1("Reshape", {c.in(0)}, {{"shape", c.ints(1)}}));
                  }});
  rows.push_back({"Transpose", {"y"}, {{"Tperm", kInt32}}, "Transpose", [](NodeContext& c) {
                    return one(c.run1("Transpose", {c.in(0)}, {{"perm", c.ints(1)}}));
                  }});
  rows.push_back(
      {"Squeeze", {"output"}, {{"squeeze_dims", attr_list_i({})}}, "Squeeze", [](NodeContext& c) {
         return one(c.run1("Squeeze", {c.in(0)}, {{"squeeze_dims", c.list_i("squeeze_dims")}}));
       }});
  rows.push_back({"ExpandDims", {"output"}, {{"Tdim", kInt32}}, "ExpandDims", [](NodeContext& c) {
                    const int64_t r = rank_of(c, c.in(0)) + 1;
                    return one(expand(c, c.in(0), norm_axis(c, c.int_scalar(1), r)));
                  }});
  rows.push_back(
      {"Shape", {"output"}, {{"out_type", kInt32}}, "Shape (a constant for static shapes)", shape});
  rows.push_back({"Size", {"output"}, {{"out_type", kInt32}}, "Size", [](NodeContext& c) {
                    return one(c.run1("Size", {c.in(0)}, {{"out_type", c.type("out_type")}}));
                  }});
  rows.push_back({"Rank", {"output"}, {}, "Rank", [](NodeContext& c) {
                    return one(c.run1("Rank", {c.in(0)}));
                  }});
  rows.push_back({"Pack", {"output"}, {{"axis", attr_i(0)}}, "ExpandDims + ConcatV2", pack});
  rows.push_back(
      {"Unpack", {"output[]"}, {{"axis", attr_i(0)}}, "Unpack", [](NodeContext& c) {
         const int64_t axis = norm_axis(c, c.i("axis"), rank_of(c, c.in(0)));
         std::vector<Value> out;
         for (Tensor& t : c.run("Unpack", {c.in(0)}, {{"num", c.i("num")}, {"axis", axis}})) {
           out.push_back(Value::of(t));
         }
         return out;
       }});
  rows.push_back({"ConcatV2", {"output"}, {{"Tidx", kInt32}}, "ConcatV2", [](NodeContext& c) {
                    const int n = c.num_inputs() - 1;
                    std::vector<Tensor> parts;
                    for (int i = 0; i < n; ++i) parts.push_back(c.in(i));
                    if (parts.empty()) throw InvalidArgumentError("ConcatV2 of nothing");
                    const int64_t axis = norm_axis(c, c.int_scalar(n), rank_of(c, parts[0]));
                    if (parts.size() == 1) return one(parts[0]);
                    return one(c.run1("ConcatV2", parts, {{"axis", axis}}));
                  }});
  rows.push_back({"Split", {"output[]"}, {}, "Split", [](NodeContext& c) {
                    return split(c, c.in(1), c.int_scalar(0));
                  }});
  rows.push_back({"SplitV", {"output[]"}, {{"Tlen", kInt32}}, "SplitV", [](NodeContext& c) {
                    const int64_t axis = norm_axis(c, c.int_scalar(2), rank_of(c, c.in(0)));
                    std::vector<Value> out;
                    for (Tensor& t :
                         c.run("SplitV", {c.in(0)}, {{"size_splits", c.ints(1)}, {"axis", axis}})) {
                      out.push_back(Value::of(t));
                    }
                    return out;
                  }});
  rows.push_back({"StridedSlice",
                  {"output"},
                  {{"begin_mask", attr_i(0)},
                   {"end_mask", attr_i(0)},
                   {"ellipsis_mask", attr_i(0)},
                   {"new_axis_mask", attr_i(0)},
                   {"shrink_axis_mask", attr_i(0)}},
                  "StridedSlice",
                  strided_slice});
  rows.push_back(
      {"Slice", {"output"}, {}, "Slice", [](NodeContext& c) {
         return one(c.run1("Slice", {c.in(0)}, {{"begin", c.ints(1)}, {"size", c.ints(2)}}));
       }});
  rows.push_back(
      {"GatherV2", {"output"}, {{"batch_dims", attr_i(0)}}, "GatherV2", [](NodeContext& c) {
         const int64_t axis = norm_axis(c, c.int_scalar(2), rank_of(c, c.in(0)));
         return one(c.run1("GatherV2", {c.in(0), c.in(1)},
                           {{"axis", axis}, {"batch_dims", c.i("batch_dims")}}));
       }});
  rows.push_back(
      {"Gather", {"output"}, {{"validate_indices", attr_b(true)}}, "GatherV2", [](NodeContext& c) {
         return one(c.run1("GatherV2", {c.in(0), c.in(1)}, {{"axis", int64_t{0}}}));
       }});
  rows.push_back({"Fill", {"output"}, {{"index_type", kInt32}}, "BroadcastTo", [](NodeContext& c) {
                    c.charge(c.ints(0), c.in(1).dtype());
                    return one(c.run1("BroadcastTo", {c.in(1)}, {{"shape", c.ints(0)}}));
                  }});
  rows.push_back({"BroadcastTo", {"output"}, {{"Tidx", kInt32}}, "BroadcastTo", [](NodeContext& c) {
                    c.charge(c.ints(1), c.in(0).dtype());
                    return one(c.run1("BroadcastTo", {c.in(0)}, {{"shape", c.ints(1)}}));
                  }});
  rows.push_back({"ZerosLike", {"y"}, {}, "ZerosLike", [](NodeContext& c) {
                    return one(c.run1("ZerosLike", {c.in(0)}));
                  }});
  rows.push_back({"OnesLike", {"y"}, {}, "OnesLike", [](NodeContext& c) {
                    return one(c.run1("OnesLike", {c.in(0)}));
                  }});
  rows.push_back({"Range", {"output"}, {{"Tidx", kInt32}}, "Range", [](NodeContext& c) {
                    const double start = c.float_scalar(0), limit = c.float_scalar(1),
                                 delta = c.float_scalar(2);
                    if (delta == 0 || !std::isfinite((limit - start) / delta)) {
                      throw InvalidArgumentError("Range needs a finite, non-zero step");
                    }
                    const double n = std::ceil((limit - start) / delta);
                    if (n > 1e12) throw InvalidArgumentError("Range is too long");
                    c.charge({std::max<int64_t>(0, static_cast<int64_t>(n))}, c.in(0).dtype());
                    return one(c.run1("Range", {},
                                      {{"Tidx", c.in(0).dtype()},
                                       {"start", c.float_scalar(0)},
                                       {"limit", c.float_scalar(1)},
                                       {"delta", c.float_scalar(2)}}));
                  }});
  rows.push_back({"Pad", {"output"}, {{"Tpaddings", kInt32}}, "Pad", [](NodeContext& c) {
                    return pad(c, 0.0, "");
                  }});
  rows.push_back({"PadV2", {"output"}, {{"Tpaddings", kInt32}}, "Pad", [](NodeContext& c) {
                    return pad(c, c.float_scalar(2), "");
                  }});
  rows.push_back(
      {"MirrorPad", {"output"}, {{"Tpaddings", kInt32}}, "MirrorPad", [](NodeContext& c) {
         return pad(c, 0.0, c.s("mode"));
       }});
  rows.push_back({"Tile", {"output"}, {{"Tmultiples", kInt32}}, "Tile", [](NodeContext& c) {
                    std::vector<int64_t> dims = static_dims(c, c.in(0)), m = c.ints(1);
                    if (m.size() != dims.size())
                      throw InvalidArgumentError("multiples must match the rank");
                    for (size_t i = 0; i < dims.size(); ++i) dims[i] = checked_mul(dims[i], m[i]);
                    c.charge(dims, c.in(0).dtype());
                    return one(c.run1("Tile", {c.in(0)}, {{"multiples", c.ints(1)}}));
                  }});
  rows.push_back({"ReverseV2", {"output"}, {{"Tidx", kInt32}}, "ReverseV2", [](NodeContext& c) {
                    return one(c.run1("ReverseV2", {c.in(0)}, {{"axis", c.ints(1)}}));
                  }});
  rows.push_back({"SelectV2", {"output"}, {}, "SelectV2", [](NodeContext& c) {
                    return one(c.run1("SelectV2", {c.in(0), c.in(1), c.in(2)}));
                  }});
  rows.push_back(
      {"Select", {"output"}, {}, "SelectV2 (a vector condition picks rows)", [](NodeContext& c) {
         Tensor cond = c.in(0);
         const int64_t rc = rank_of(c, cond), rt = rank_of(c, c.in(1));
         if (rc == 1 && rt > 1) {
           std::vector<int64_t> s(static_cast<size_t>(rt), 1);
           s[0] = -1;
           cond = c.run1("Reshape", {cond}, {{"shape", s}});
         }
         return one(c.run1("SelectV2", {cond, c.in(1), c.in(2)}));
       }});
  rows.push_back({"OneHot", {"output"}, {{"axis", attr_i(-1)}}, "OneHot", [](NodeContext& c) {
                    std::vector<int64_t> dims = static_dims(c, c.in(0));
                    dims.push_back(c.int_scalar(1));
                    c.charge(dims, c.in(2).dtype());
                    return one(c.run1("OneHot", {c.in(0)},
                                      {{"T", c.in(2).dtype()},
                                       {"depth", c.int_scalar(1)},
                                       {"on_value", c.float_scalar(2)},
                                       {"off_value", c.float_scalar(3)},
                                       {"axis", c.i("axis")}}));
                  }});
  rows.push_back({"ClipByValue", {"output"}, {}, "Minimum(Maximum(x, lo), hi)", [](NodeContext& c) {
                    return one(c.run1("Minimum", {c.run1("Maximum", {c.in(0), c.in(1)}), c.in(2)}));
                  }});
  rows.push_back({"TensorScatterUpdate", {"output"}, {}, "TensorScatterUpdate", [](NodeContext& c) {
                    return one(c.run1("TensorScatterUpdate", {c.in(0), c.in(1), c.in(2)}));
                  }});
}

}  // namespace tfcc::saved_model::tf_import
