#include "tfcc/io/saved_model/graph_codec.h"

#include <bit>
#include <cstring>
#include <map>

#include "tfcc/io/checkpoint/proto_wire.h"
#include "tfcc/io/saved_model/graph_check.h"
#include "tfcc/ops/registry.h"

namespace tfcc::saved_model {

using checkpoint::ProtoReader;
using checkpoint::ProtoWriter;
using checkpoint::WireType;
using graph::Graph;
using graph::Node;
using graph::NodeKind;
using graph::ValueRef;

namespace internal {

std::string pack_varints(std::span<const uint64_t> values) {
  std::string out;
  for (uint64_t v : values) checkpoint::put_varint(out, v);
  return out;
}

std::vector<uint64_t> unpack_varints(std::string_view bytes, const std::string& context) {
  std::vector<uint64_t> out;
  size_t pos = 0;
  while (pos < bytes.size()) {
    auto v = checkpoint::get_varint(bytes, &pos);
    if (!v) throw DataLossError(context + ": truncated packed varint");
    out.push_back(*v);
  }
  return out;
}

DType decode_dtype(uint64_t v, const std::string& context) {
  if (v >= static_cast<uint64_t>(kNumDTypes)) {
    throw InvalidArgumentError(::tfcc::internal::str_cat(context, ": unknown dtype number ", v));
  }
  return static_cast<DType>(v);
}

std::string encode_partial_shape(const PartialShape& s) {
  ProtoWriter w;
  w.varint_field(1, s.rank_known() ? 1 : 0);
  if (s.rank_known()) {
    std::vector<uint64_t> dims;
    for (int64_t d : s.dims()) dims.push_back(zigzag(d));
    w.bytes_field(2, pack_varints(dims));
  }
  return w.str();
}

PartialShape decode_partial_shape(std::string_view bytes, const std::string& context) {
  ProtoReader r(bytes, context);
  bool known = false;
  std::vector<int64_t> dims;
  while (auto f = r.next()) {
    if (f->number == 1) {
      r.expect(*f, WireType::kVarint);
      known = f->value != 0;
    } else if (f->number == 2) {
      r.expect(*f, WireType::kLen);
      for (uint64_t v : unpack_varints(f->bytes, context)) {
        int64_t d = unzigzag(v);
        if (d < -1) {
          throw InvalidArgumentError(::tfcc::internal::str_cat(context, ": dimension ", d));
        }
        dims.push_back(d);
      }
    }
  }
  if (!known) {
    if (!dims.empty()) throw InvalidArgumentError(context + ": dims given for an unknown rank");
    return PartialShape::unknown_rank();
  }
  return PartialShape(std::move(dims));
}

std::string encode_tensor(const Tensor& t) {
  ProtoWriter w;
  if (!t.defined()) {
    w.varint_field(4, 1);
    return w.str();
  }
  w.varint_field(1, static_cast<uint64_t>(t.dtype()));
  std::vector<uint64_t> dims(t.shape().dims().begin(), t.shape().dims().end());
  w.bytes_field(2, pack_varints(dims));
  w.bytes_field(3, std::string_view(static_cast<const char*>(t.raw_data()), t.nbytes()));
  return w.str();
}

Tensor decode_tensor(std::string_view bytes, int64_t* budget, const std::string& context) {
  ProtoReader r(bytes, context);
  DType dtype = float32;
  std::vector<int64_t> dims;
  std::string_view data;
  bool undefined = false;
  while (auto f = r.next()) {
    switch (f->number) {
      case 1:
        r.expect(*f, WireType::kVarint);
        dtype = decode_dtype(f->value, context);
        break;
      case 2:
        r.expect(*f, WireType::kLen);
        for (uint64_t v : unpack_varints(f->bytes, context)) {
          if (v > (uint64_t{1} << 62)) {
            throw InvalidArgumentError(
                ::tfcc::internal::str_cat(context, ": tensor dimension ", v, " is out of range"));
          }
          dims.push_back(static_cast<int64_t>(v));
        }
        break;
      case 3:
        r.expect(*f, WireType::kLen);
        data = f->bytes;
        break;
      case 4:
        r.expect(*f, WireType::kVarint);
        undefined = f->value != 0;
        break;
      default:
        break;
    }
  }
  if (undefined) return Tensor();
  // The data length bounds the element count, so no shape beyond the bytes present is built.
  uint64_t elements = 1;
  bool overflow = false;
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
    throw DataLossError(::tfcc::internal::str_cat(
        context, ": a ", dtype_name(dtype), " tensor of rank ", dims.size(), " holds ", data.size(),
        " bytes, which does not match its shape"));
  }
  if (static_cast<int64_t>(data.size()) > *budget) {
    throw InvalidArgumentError(
        ::tfcc::internal::str_cat(context, ": the tensors exceed the limit of ", *budget,
                                  " bytes left (DecodeLimits::max_tensor_bytes)"));
  }
  *budget -= static_cast<int64_t>(data.size());
  return Tensor::from_bytes(dtype, Shape(std::move(dims)), data.data(), data.size());
}

}  // namespace internal

using internal::pack_varints;
using internal::unpack_varints;
using internal::unzigzag;
using internal::zigzag;
using ::tfcc::internal::str_cat;

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

  std::string encode_attr(const std::string& name, const AttrValue& value, const Node& n) {
    ProtoWriter w;
    w.bytes_field(1, name);
    w.varint_field(2, static_cast<uint64_t>(attr_type_of(value)));
    std::visit(
        [&]<typename T>(const T& x) {
          if constexpr (std::is_same_v<T, int64_t>) {
            w.varint_field(3, zigzag(x));
          } else if constexpr (std::is_same_v<T, double>) {
            w.varint_field(4, std::bit_cast<uint64_t>(x));
          } else if constexpr (std::is_same_v<T, bool>) {
            w.varint_field(5, x ? 1 : 0);
          } else if constexpr (std::is_same_v<T, std::string>) {
            w.bytes_field(6, x);
          } else if constexpr (std::is_same_v<T, DType>) {
            w.varint_field(7, static_cast<uint64_t>(x));
          } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
            std::vector<uint64_t> v;
            for (int64_t i : x) v.push_back(zigzag(i));
            w.bytes_field(8, pack_varints(v));
          } else if constexpr (std::is_same_v<T, std::vector<double>>) {
            std::vector<uint64_t> v;
            for (double d : x) v.push_back(std::bit_cast<uint64_t>(d));
            w.bytes_field(9, pack_varints(v));
          } else if constexpr (std::is_same_v<T, Tensor>) {
            if (x.defined() && x.is_symbolic()) {
              throw InvalidArgumentError(
                  str_cat("Node ", n.name, ": attribute '", name, "' holds a symbolic tensor"));
            }
            w.bytes_field(10, internal::encode_tensor(x));
          } else {
            w.varint_field(11, static_cast<uint64_t>(variable_index(x, n)));
          }
        },
        value);
    return w.str();
  }

  std::string encode(const Graph& g, const std::vector<std::vector<int>>& subs) {
    ProtoWriter w;
    w.bytes_field(1, g.name());
    for (int id = 0; id < g.num_nodes(); ++id) {
      const Node& n = g.node(id);
      ProtoWriter nw;
      nw.varint_field(1, static_cast<uint64_t>(n.kind));
      nw.bytes_field(2, n.name);
      if (n.kind == NodeKind::kOp) nw.bytes_field(3, n.op ? n.op->name() : "");
      std::vector<uint64_t> refs;
      for (ValueRef v : n.inputs) {
        refs.push_back(static_cast<uint64_t>(v.node));
        refs.push_back(static_cast<uint64_t>(v.index));
      }
      if (!refs.empty()) nw.bytes_field(4, pack_varints(refs));
      for (const auto& [k, v] : n.attrs.items()) nw.bytes_field(5, encode_attr(k, v, n));
      for (int k = 0; k < n.num_outputs(); ++k) {
        ProtoWriter ow;
        ow.varint_field(1, static_cast<uint64_t>(n.dtypes[static_cast<size_t>(k)]));
        ow.bytes_field(2, internal::encode_partial_shape(n.shapes[static_cast<size_t>(k)]));
        nw.bytes_field(6, ow.str());
      }
      nw.bytes_field(7, graph::location_string(n));
      if (n.kind == NodeKind::kArg) nw.varint_field(8, static_cast<uint64_t>(n.arg_index));
      if (n.kind == NodeKind::kConst) nw.bytes_field(9, internal::encode_tensor(n.value));
      if (!subs[static_cast<size_t>(id)].empty()) {
        std::vector<uint64_t> s(subs[static_cast<size_t>(id)].begin(),
                                subs[static_cast<size_t>(id)].end());
        nw.bytes_field(10, pack_varints(s));
      }
      if (n.kind == NodeKind::kIf || n.kind == NodeKind::kWhile) {
        nw.varint_field(11, static_cast<uint64_t>(n.split));
        nw.varint_field(12, static_cast<uint64_t>(n.cond_captures));
        nw.varint_field(13, zigzag(n.maximum_iterations));
        nw.varint_field(14, n.keep_history ? 1 : 0);
      }
      w.bytes_field(2, nw.str());
    }
    std::vector<uint64_t> outs;
    for (ValueRef v : g.outputs()) {
      outs.push_back(static_cast<uint64_t>(v.node));
      outs.push_back(static_cast<uint64_t>(v.index));
    }
    w.bytes_field(3, pack_varints(outs));
    return w.str();
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
