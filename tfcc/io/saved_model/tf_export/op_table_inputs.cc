// Rules for ops whose arguments tfcc keeps as attributes and TensorFlow takes as input tensors:
// each such attribute becomes a Const input, and the index-type attribute TensorFlow adds
// (Tidx, Tshape, Tperm, ...) says its dtype.

#include "tfcc/io/saved_model/tf_export/op_rules.h"
#include "tfcc/io/saved_model/tf_export/proto_util.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/platform/errors.h"

namespace tfcc::saved_model::tf_export::rules {
namespace {

using Ints = std::vector<int64_t>;

// A Const input from an integer-list attribute; sets `type_attr` of `n` to its dtype.
std::string index_input(OpContext& c, const Ints& values, std::string_view suffix) {
  return c.fb.add_index_const(values, ::tfcc::internal::str_cat(c.node.name, "/", suffix));
}

void set_index_type(tensorflow::NodeDef& n, const char* type_attr, const Ints& values) {
  bool fits = true;
  for (int64_t v : values) fits = fits && v == static_cast<int32_t>(v);
  FunctionBuilder::set_type(n, type_attr, fits ? int32 : int64);
}

// Op(x, Const(attr)) with the remaining attributes copied.
OpRule with_list_input(std::string tf_op, const char* attr_name, const char* type_attr,
                       std::string out_arg, std::initializer_list<const char*> skip_more = {}) {
  std::vector<std::string> skip_list(skip_more.begin(), skip_more.end());
  return [=](OpContext& c) {
    const Ints& v = attr<Ints>(c, attr_name);
    std::vector<std::string> in = c.inputs;
    in.push_back(index_input(c, v, attr_name));
    tensorflow::NodeDef& n = emit(c, tf_op, std::move(in));
    for (const auto& [key, value] : c.node.attrs.items()) {
      bool skip = key == attr_name;
      for (const auto& s : skip_list) skip = skip || key == s;
      if (!skip) copy_attr(c, n, key.c_str(), key.c_str());
    }
    set_index_type(n, type_attr, v);
    return outputs(n, out_arg);
  };
}

// As with_list_input for a scalar integer attribute.
OpRule with_scalar_input(std::string tf_op, const char* attr_name, const char* type_attr,
                         std::string out_arg, bool input_first = false) {
  return [=](OpContext& c) {
    std::string axis =
        c.fb.add_scalar_const(int32, static_cast<double>(attr<int64_t>(c, attr_name)),
                              ::tfcc::internal::str_cat(c.node.name, "/", attr_name));
    std::vector<std::string> in = c.inputs;
    if (input_first) {
      in.insert(in.begin(), axis);
    } else {
      in.push_back(axis);
    }
    tensorflow::NodeDef& n = emit(c, tf_op, std::move(in));
    for (const auto& [key, value] : c.node.attrs.items()) {
      if (key != attr_name) copy_attr(c, n, key.c_str(), key.c_str());
    }
    if (type_attr[0] != '\0') FunctionBuilder::set_type(n, type_attr, int32);
    return outputs(n, out_arg, c.node.num_outputs());
  };
}

// Sum / Max / Min / Prod / All / Any: axes as the reduction_indices input, keep_dims.
OpRule reduction() {
  return [](OpContext& c) {
    std::string axes;
    if (attr<bool>(c, "reduce_all")) {
      // Every axis: Range(0, Rank(x)), which also holds when the rank is unknown.
      tensorflow::NodeDef& rank = c.fb.add_node("Rank", c.node.name + "/Rank", {c.inputs[0]});
      if (c.node.attrs.find("T")) {
        copy_attr(c, rank, "T", "T");
      } else {
        FunctionBuilder::set_type(rank, "T", bool_);  // All / Any
      }
      std::string start = c.fb.add_scalar_const(int32, 0, c.node.name + "/start");
      std::string delta = c.fb.add_scalar_const(int32, 1, c.node.name + "/delta");
      tensorflow::NodeDef& range = c.fb.add_node(
          "Range", c.node.name + "/Range", {start, FunctionBuilder::ref(rank, "output"), delta});
      FunctionBuilder::set_type(range, "Tidx", int32);
      axes = FunctionBuilder::ref(range, "output");
    } else {
      axes = index_input(c, attr<Ints>(c, "axis"), "reduction_indices");
    }
    tensorflow::NodeDef& n = emit(c, c.node.op->name(), {c.inputs[0], axes});
    copy_attr(c, n, "keepdims", "keep_dims");
    if (c.node.attrs.find("T")) copy_attr(c, n, "T", "T");
    FunctionBuilder::set_type(n, "Tidx", int32);
    return outputs(n, "output");
  };
}

Tensor scalar(DType dtype, double v) {
  return cast(Tensor::from_bytes(float64, Shape({}), &v, sizeof v), dtype);
}

}  // namespace

void add_input_rules(RuleMap& r) {
  for (const char* op : {"Sum", "Max", "Min", "Prod", "All", "Any"}) r[op] = reduction();
  r["Reshape"] = with_list_input("Reshape", "shape", "Tshape", "output");
  r["Transpose"] = with_list_input("Transpose", "perm", "Tperm", "y");
  r["Tile"] = with_list_input("Tile", "multiples", "Tmultiples", "output");
  r["BroadcastTo"] = with_list_input("BroadcastTo", "shape", "Tidx", "output");
  r["ReverseV2"] = with_list_input("ReverseV2", "axis", "Tidx", "output");
  r["ConcatV2"] = with_scalar_input("ConcatV2", "axis", "Tidx", "output");
  r["ExpandDims"] = with_scalar_input("ExpandDims", "axis", "Tdim", "output");
  r["Split"] = with_scalar_input("Split", "axis", "", "output", /*input_first=*/true);
  r["ArgMax"] = with_scalar_input("ArgMax", "axis", "Tidx", "output");
  r["ArgMin"] = with_scalar_input("ArgMin", "axis", "Tidx", "output");
  r["Cumsum"] = with_scalar_input("Cumsum", "axis", "Tidx", "out");
  r["Cumprod"] = with_scalar_input("Cumprod", "axis", "Tidx", "out");
  r["GatherV2"] = [](OpContext& c) {
    const int64_t axis = attr<int64_t>(c, "axis");
    std::string a = c.fb.add_scalar_const(int32, static_cast<double>(axis), c.node.name + "/axis");
    tensorflow::NodeDef& n = emit(c, "GatherV2", {c.inputs[0], c.inputs[1], a});
    copy_attrs(c, n, {{"T", "Tparams"}}, {"axis"});
    FunctionBuilder::set_type(n, "Taxis", int32);
    return outputs(n, "output");
  };
  r["SplitV"] = [](OpContext& c) {
    const Ints& sizes = attr<Ints>(c, "size_splits");
    std::string s = index_input(c, sizes, "size_splits");
    std::string a = c.fb.add_scalar_const(int32, static_cast<double>(attr<int64_t>(c, "axis")),
                                          c.node.name + "/split_dim");
    tensorflow::NodeDef& n = emit(c, "SplitV", {c.inputs[0], s, a});
    copy_attr(c, n, "T", "T");
    set_index_type(n, "Tlen", sizes);
    (*n.mutable_attr())["num_split"].set_i(static_cast<int64_t>(sizes.size()));
    return outputs(n, "output", c.node.num_outputs());
  };
  // paddings: tfcc's flat [before0, after0, before1, ...] is TensorFlow's [rank, 2] tensor.
  auto pad = [](OpContext& c, const std::string& tf_op) -> tensorflow::NodeDef& {
    const Ints& p = attr<Ints>(c, "paddings");
    std::vector<int32_t> p32(p.begin(), p.end());
    Tensor t = Tensor::from_bytes(int32, Shape({static_cast<int64_t>(p.size() / 2), 2}), p32.data(),
                                  p32.size() * sizeof(int32_t));
    std::vector<std::string> in = {c.inputs[0], c.fb.add_const(t, c.node.name + "/paddings")};
    if (tf_op == "PadV2") {
      in.push_back(c.fb.add_const(scalar(attr<DType>(c, "T"), attr<double>(c, "constant_values")),
                                  c.node.name + "/constant_values"));
    }
    tensorflow::NodeDef& n = emit(c, tf_op, std::move(in));
    copy_attr(c, n, "T", "T");
    FunctionBuilder::set_type(n, "Tpaddings", int32);
    return n;
  };
  r["Pad"] = [pad](OpContext& c) {
    const bool constant = attr<double>(c, "constant_values") != 0.0;
    return outputs(pad(c, constant ? "PadV2" : "Pad"), "output");
  };
  r["MirrorPad"] = [pad](OpContext& c) {
    tensorflow::NodeDef& n = pad(c, "MirrorPad");
    copy_attr(c, n, "mode", "mode");
    return outputs(n, "output");
  };
  r["Slice"] = [](OpContext& c) {
    const Ints& b = attr<Ints>(c, "begin");
    const Ints& s = attr<Ints>(c, "size");
    tensorflow::NodeDef& n =
        emit(c, "Slice", {c.inputs[0], index_input(c, b, "begin"), index_input(c, s, "size")});
    copy_attr(c, n, "T", "T");
    Ints all = b;
    all.insert(all.end(), s.begin(), s.end());
    set_index_type(n, "Index", all);
    return outputs(n, "output");
  };
  r["StridedSlice"] = [](OpContext& c) {
    const Ints& b = attr<Ints>(c, "begin");
    const Ints& e = attr<Ints>(c, "end");
    const Ints& s = attr<Ints>(c, "strides");
    // One index dtype for the three inputs: int64 when any bound needs it.
    Ints all = b;
    all.insert(all.end(), e.begin(), e.end());
    all.insert(all.end(), s.begin(), s.end());
    bool fits = true;
    for (int64_t v : all) fits = fits && v == static_cast<int32_t>(v);
    auto input = [&](const Ints& v, const char* suffix) {
      if (fits) return index_input(c, v, suffix);
      return c.fb.add_const(Tensor::from_bytes(int64, Shape({static_cast<int64_t>(v.size())}),
                                               v.data(), v.size() * sizeof(int64_t)),
                            c.node.name + "/" + suffix);
    };
    tensorflow::NodeDef& n = emit(
        c, "StridedSlice", {c.inputs[0], input(b, "begin"), input(e, "end"), input(s, "strides")});
    copy_attrs(c, n, {}, {"begin", "end", "strides"});
    FunctionBuilder::set_type(n, "Index", fits ? int32 : int64);
    return outputs(n, "output");
  };
  r["Fill"] = [](OpContext& c) {
    const DType dt = attr<DType>(c, "dtype");
    std::string dims = index_input(c, attr<Ints>(c, "dims"), "dims");
    std::string value =
        c.fb.add_const(scalar(dt, attr<double>(c, "value")), c.node.name + "/value");
    tensorflow::NodeDef& n = emit(c, "Fill", {dims, value});
    FunctionBuilder::set_type(n, "T", dt);
    FunctionBuilder::set_type(n, "index_type", int32);
    return outputs(n, "output");
  };
  r["Range"] = [](OpContext& c) {
    const DType dt = attr<DType>(c, "Tidx");
    std::vector<std::string> in;
    for (const char* a : {"start", "limit", "delta"}) {
      in.push_back(c.fb.add_const(scalar(dt, attr<double>(c, a)), c.node.name + "/" + a));
    }
    tensorflow::NodeDef& n = emit(c, "Range", std::move(in));
    FunctionBuilder::set_type(n, "Tidx", dt);
    return outputs(n, "output");
  };
  r["OneHot"] = [](OpContext& c) {
    const DType dt = attr<DType>(c, "T");
    std::vector<std::string> in = {
        c.inputs[0],
        c.fb.add_scalar_const(int32, static_cast<double>(attr<int64_t>(c, "depth")),
                              c.node.name + "/depth"),
        c.fb.add_const(scalar(dt, attr<double>(c, "on_value")), c.node.name + "/on_value"),
        c.fb.add_const(scalar(dt, attr<double>(c, "off_value")), c.node.name + "/off_value")};
    tensorflow::NodeDef& n = emit(c, "OneHot", std::move(in));
    copy_attrs(c, n, {}, {"depth", "on_value", "off_value"});
    return outputs(n, "output");
  };
  r["Conv2DBackpropInput"] = [](OpContext& c) {
    const Ints& sizes = attr<Ints>(c, "input_sizes");
    tensorflow::NodeDef& n = emit(c, "Conv2DBackpropInput",
                                  {index_input(c, sizes, "input_sizes"), c.inputs[0], c.inputs[1]});
    copy_attrs(c, n, {}, {"input_sizes"});
    return outputs(n, "output");
  };
}

}  // namespace tfcc::saved_model::tf_export::rules
