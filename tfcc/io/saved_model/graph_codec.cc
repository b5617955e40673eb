#include "tfcc/io/saved_model/graph_codec.h"

#include <bit>

#include "tfcc/io/proto/message_io.h"
#include "tfcc/io/proto/tfcc_model.pb.h"
#include "tfcc/ops/registry.h"

namespace tfcc::saved_model {

namespace lm = ::tfcc::legacy_model;
using graph::Graph;
using graph::Node;
using graph::NodeKind;
using graph::ValueRef;
using ::tfcc::internal::str_cat;

namespace internal {

DType decode_dtype(uint64_t v, const std::string& context) {
  if (v >= static_cast<uint64_t>(kNumDTypes)) {
    throw InvalidArgumentError(str_cat(context, ": unknown dtype number ", v));
  }
  return static_cast<DType>(v);
}

void to_proto(const PartialShape& s, lm::Shape& out) {
  out.set_rank_known(s.rank_known());
  if (s.rank_known()) out.mutable_dims()->Add(s.dims().begin(), s.dims().end());
}

PartialShape from_proto(const lm::Shape& s, const std::string& context) {
  for (int64_t d : s.dims()) {
    if (d < -1) throw InvalidArgumentError(str_cat(context, ": dimension ", d));
  }
  if (!s.rank_known()) {
    if (s.dims_size() > 0) throw InvalidArgumentError(context + ": dims given for an unknown rank");
    return PartialShape::unknown_rank();
  }
  return PartialShape(std::vector<int64_t>(s.dims().begin(), s.dims().end()));
}

namespace {

// A string tensor's data: each element as an 8-byte little-endian length and its bytes.
std::string encode_strings(const Tensor& t) {
  std::string out;
  for (std::string_view v : t.to_vector<std::string_view>()) {
    uint64_t n = v.size();
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
    out.append(v);
  }
  return out;
}

Tensor decode_strings(const lm::Tensor& t, int64_t* budget, const std::string& context) {
  const std::string& data = t.data();
  if (static_cast<int64_t>(data.size()) > *budget) {
    throw InvalidArgumentError(str_cat(context, ": the tensors exceed the limit of ", *budget,
                                       " bytes left (DecodeLimits::max_tensor_bytes)"));
  }
  *budget -= static_cast<int64_t>(data.size());
  std::vector<std::string> values;
  size_t pos = 0;
  while (pos < data.size()) {
    if (data.size() - pos < 8) throw DataLossError(str_cat(context, ": truncated string tensor"));
    uint64_t n = 0;
    for (int i = 0; i < 8; ++i) n |= uint64_t{static_cast<unsigned char>(data[pos + i])} << (8 * i);
    pos += 8;
    if (n > data.size() - pos) throw DataLossError(str_cat(context, ": truncated string tensor"));
    values.emplace_back(data.substr(pos, n));
    pos += n;
  }
  std::vector<int64_t> dims;
  int64_t elements = 1;
  for (uint64_t d : t.dims()) {
    if (d > values.size() && d != 0) {
      throw DataLossError(str_cat(context, ": string tensor shape does not match its ",
                                  values.size(), " elements"));
    }
    dims.push_back(static_cast<int64_t>(d));
    elements *= static_cast<int64_t>(d);
    if (elements > static_cast<int64_t>(values.size())) break;
  }
  if (elements != static_cast<int64_t>(values.size()) ||
      dims.size() != static_cast<size_t>(t.dims().size())) {
    throw DataLossError(
        str_cat(context, ": string tensor shape does not match its ", values.size(), " elements"));
  }
  return Tensor::from_strings(values, Shape(std::move(dims)));
}

}  // namespace

void to_proto(const Tensor& t, lm::Tensor& out) {
  if (!t.defined()) {
    out.set_undefined(true);
    return;
  }
  out.set_dtype(static_cast<uint64_t>(t.dtype()));
  for (int64_t d : t.shape().dims()) out.add_dims(static_cast<uint64_t>(d));
  if (t.dtype() == DType::kString) {
    out.set_data(encode_strings(t));
    return;
  }
  out.set_data(static_cast<const char*>(t.raw_data()), t.nbytes());
}

Tensor from_proto(const lm::Tensor& t, int64_t* budget, const std::string& context) {
  if (t.undefined()) return Tensor();
  DType dtype = t.has_dtype() ? decode_dtype(t.dtype(), context) : float32;
  const std::string& data = t.data();
  // The data length bounds the element count, so no shape beyond the bytes present is built.
  std::vector<int64_t> dims;
  if (dtype == DType::kString) return decode_strings(t, budget, context);
  uint64_t elements = 1;
  bool overflow = false;
  for (uint64_t d : t.dims()) {
    if (d > (uint64_t{1} << 62)) {
      throw InvalidArgumentError(str_cat(context, ": tensor dimension ", d, " is out of range"));
    }
    dims.push_back(static_cast<int64_t>(d));
  }
  for (int64_t d : dims) {
    if (d == 0) {
      elements = 0;
      overflow = false;
      break;
    }
    if (elements > data.size() / static_cast<uint64_t>(d)) overflow = true;
    if (!overflow) elements *= static_cast<uint64_t>(d);
  }
  if (overflow || elements * dtype_size(dtype) != data.size()) {
    throw DataLossError(str_cat(context, ": a ", dtype_name(dtype), " tensor of rank ", dims.size(),
                                " holds ", data.size(), " bytes, which does not match its shape"));
  }
  if (static_cast<int64_t>(data.size()) > *budget) {
    throw InvalidArgumentError(str_cat(context, ": the tensors exceed the limit of ", *budget,
                                       " bytes left (DecodeLimits::max_tensor_bytes)"));
  }
  *budget -= static_cast<int64_t>(data.size());
  return Tensor::from_bytes(dtype, Shape(std::move(dims)), data.data(), data.size());
}

}  // namespace internal

namespace {

// ---- Encoding ----

class Encoder {
 public:
  int add(const std::shared_ptr<const Graph>& g) {
    for (const auto& [ptr, index] : indices_) {
      if (ptr == g.get()) return index;
    }
    for (const Node& n : g->nodes()) {
      if (n.kind == NodeKind::kHostCall) {
        throw InvalidArgumentError(str_cat(
            "Function '", g->name(), "' cannot be exported: node ", n.name, " (", n.type_name(),
            ") at ", graph::location_string(n),
            " runs C++ code (a host callback such as "
            "tfcc::print), which an exported model cannot hold. Remove it from the function."));
      }
    }
    // Callees first: an index only ever refers backwards, so the library is acyclic.
    std::vector<std::vector<int>> sub_indices;
    for (const Node& n : g->nodes()) {
      std::vector<int> subs;
      for (const auto& sub : n.subgraphs) subs.push_back(add(sub));
      sub_indices.push_back(std::move(subs));
    }
    out_.functions.push_back(encode(*g, sub_indices));
    int index = static_cast<int>(out_.functions.size()) - 1;
    indices_.emplace_back(g.get(), index);
    return index;
  }

  EncodedFunctions finish() { return std::move(out_); }

 private:
  int variable_index(const std::shared_ptr<VariableState>& v, const Node& n) {
    if (!v) throw InvalidArgumentError(str_cat("Node ", n.name, " holds a null variable"));
    for (size_t i = 0; i < out_.variables.size(); ++i) {
      if (out_.variables[i] == v) return static_cast<int>(i);
    }
    out_.variables.push_back(v);
    return static_cast<int>(out_.variables.size()) - 1;
  }

  void encode_attr(const std::string& name, const AttrValue& value, const Node& n, lm::Attr& a) {
    a.set_name(name);
    a.set_type(static_cast<uint64_t>(attr_type_of(value)));
    std::visit(
        [&]<typename T>(const T& x) {
          if constexpr (std::is_same_v<T, int64_t>) {
            a.set_i(x);
          } else if constexpr (std::is_same_v<T, double>) {
            a.set_f_bits(std::bit_cast<uint64_t>(x));
          } else if constexpr (std::is_same_v<T, bool>) {
            a.set_b(x);
          } else if constexpr (std::is_same_v<T, std::string>) {
            a.set_s(x);
          } else if constexpr (std::is_same_v<T, DType>) {
            a.set_dtype(static_cast<uint64_t>(x));
          } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
            a.mutable_ints()->Add(x.begin(), x.end());
          } else if constexpr (std::is_same_v<T, std::vector<double>>) {
            for (double d : x) a.add_floats_bits(std::bit_cast<uint64_t>(d));
          } else if constexpr (std::is_same_v<T, Tensor>) {
            if (x.defined() && x.is_symbolic()) {
              throw InvalidArgumentError(
                  str_cat("Node ", n.name, ": attribute '", name, "' holds a symbolic tensor"));
            }
            internal::to_proto(x, *a.mutable_tensor());
          } else {
            a.set_variable(static_cast<uint64_t>(variable_index(x, n)));
          }
        },
        value);
  }

  std::string encode(const Graph& g, const std::vector<std::vector<int>>& subs) {
    lm::Function f;
    f.set_name(g.name());
    for (int id = 0; id < g.num_nodes(); ++id) {
      const Node& n = g.node(id);
      lm::Node& p = *f.add_nodes();
      p.set_kind(static_cast<uint64_t>(n.kind));
      p.set_name(n.name);
      if (n.kind == NodeKind::kOp) p.set_op(n.op ? n.op->name() : "");
      for (ValueRef v : n.inputs) {
        p.add_inputs(static_cast<uint64_t>(v.node));
        p.add_inputs(static_cast<uint64_t>(v.index));
      }
      for (const auto& [k, v] : n.attrs.items()) encode_attr(k, v, n, *p.add_attrs());
      for (int k = 0; k < n.num_outputs(); ++k) {
        lm::Output& o = *p.add_outputs();
        o.set_dtype(static_cast<uint64_t>(n.dtypes[static_cast<size_t>(k)]));
        internal::to_proto(n.shapes[static_cast<size_t>(k)], *o.mutable_shape());
      }
      p.set_location(graph::location_string(n));
      if (n.kind == NodeKind::kArg) p.set_arg_index(static_cast<uint64_t>(n.arg_index));
      if (n.kind == NodeKind::kConst) internal::to_proto(n.value, *p.mutable_value());
      for (int s : subs[static_cast<size_t>(id)]) p.add_subgraphs(static_cast<uint64_t>(s));
      if (n.kind == NodeKind::kIf || n.kind == NodeKind::kWhile) {
        p.set_split(static_cast<uint64_t>(n.split));
        p.set_cond_captures(static_cast<uint64_t>(n.cond_captures));
        p.set_maximum_iterations(n.maximum_iterations);
        p.set_keep_history(n.keep_history);
      }
    }
    for (ValueRef v : g.outputs()) {
      f.add_outputs(static_cast<uint64_t>(v.node));
      f.add_outputs(static_cast<uint64_t>(v.index));
    }
    return io::proto::serialize(f);
  }

  EncodedFunctions out_;
  std::vector<std::pair<const Graph*, int>> indices_;
};

}  // namespace

EncodedFunctions encode_functions(std::span<const std::shared_ptr<const Graph>> roots) {
  Encoder e;
  std::vector<int> root_indices;
  for (const auto& g : roots) {
    TFCC_CHECK_ARG(g != nullptr, "encode_functions: a null graph");
    root_indices.push_back(e.add(g));
  }
  EncodedFunctions out = e.finish();
  out.roots = std::move(root_indices);
  return out;
}

}  // namespace tfcc::saved_model
