// Decoding of the function library (graph_codec.h): wire bytes to verified graphs.
#include <algorithm>
#include <bit>
#include <climits>
#include <map>

#include "tfcc/io/checkpoint/proto_wire.h"
#include "tfcc/io/saved_model/graph_check.h"
#include "tfcc/io/saved_model/graph_codec.h"
#include "tfcc/ops/registry.h"

namespace tfcc::saved_model {

using checkpoint::ProtoReader;
using checkpoint::WireType;
using graph::Graph;
using graph::Node;
using graph::NodeKind;
using graph::ValueRef;
using ::tfcc::internal::str_cat;

namespace {

int to_int(uint64_t v, const std::string& context, const char* what) {
  if (v > static_cast<uint64_t>(INT_MAX)) {
    throw InvalidArgumentError(str_cat(context, ": ", what, " ", v, " is out of range"));
  }
  return static_cast<int>(v);
}

std::vector<ValueRef> decode_refs(std::string_view bytes, const std::string& context) {
  std::vector<uint64_t> v = internal::unpack_varints(bytes, context);
  if (v.size() % 2 != 0) throw DataLossError(context + ": odd number of reference integers");
  std::vector<ValueRef> out;
  for (size_t i = 0; i < v.size(); i += 2) {
    out.push_back({to_int(v[i], context, "node"), to_int(v[i + 1], context, "output index")});
  }
  return out;
}

struct Decoder {
  std::span<const std::shared_ptr<VariableState>> variables;
  const DecodeLimits& limits;
  const std::string& context;
  std::vector<std::shared_ptr<Graph>> functions;
  std::vector<int> depth;
  std::map<std::string, int> unknown_ops;  // op name -> nodes using it
  int64_t nodes = 0;
  int64_t tensor_budget = limits.max_tensor_bytes;

  std::pair<std::string, AttrValue> decode_attr(std::string_view bytes, const std::string& ctx) {
    ProtoReader r(bytes, ctx);
    std::string name;
    uint64_t type = UINT64_MAX;
    std::optional<AttrValue> value;
    while (auto f = r.next()) {
      if (f->number == 1) {
        r.expect(*f, WireType::kLen);
        name = std::string(f->bytes);
        continue;
      }
      if (f->number == 2) {
        r.expect(*f, WireType::kVarint);
        type = f->value;
        continue;
      }
      const bool varint =
          f->number == 3 || f->number == 4 || f->number == 5 || f->number == 7 || f->number == 11;
      r.expect(*f, varint ? WireType::kVarint : WireType::kLen);
      switch (f->number) {
        case 3:
          value = internal::unzigzag(f->value);
          break;
        case 4:
          value = std::bit_cast<double>(f->value);
          break;
        case 5:
          value = f->value != 0;
          break;
        case 6:
          value = std::string(f->bytes);
          break;
        case 7:
          value = internal::decode_dtype(f->value, ctx);
          break;
        case 8: {
          std::vector<int64_t> v;
          for (uint64_t x : internal::unpack_varints(f->bytes, ctx)) {
            v.push_back(internal::unzigzag(x));
          }
          value = std::move(v);
          break;
        }
        case 9: {
          std::vector<double> v;
          for (uint64_t x : internal::unpack_varints(f->bytes, ctx)) {
            v.push_back(std::bit_cast<double>(x));
          }
          value = std::move(v);
          break;
        }
        case 10:
          value = internal::decode_tensor(f->bytes, &tensor_budget, ctx);
          break;
        case 11:
          if (f->value >= variables.size()) {
            throw InvalidArgumentError(str_cat(ctx, ": attribute '", name, "' refers to variable ",
                                               f->value, " of ", variables.size()));
          }
          value = variables[static_cast<size_t>(f->value)];
          break;
        default:
          break;
      }
    }
    if (!value || static_cast<uint64_t>(attr_type_of(*value)) != type) {
      throw InvalidArgumentError(str_cat(ctx, ": attribute '", name, "' has no value of its type"));
    }
    return {std::move(name), std::move(*value)};
  }

  // Decodes one node message into `g`.
  void decode_node(Graph& g, int fi, std::string_view bytes) {
    const std::string ctx = str_cat(context, ", function ", fi, " node ", g.num_nodes());
    ProtoReader r(bytes, ctx);
    Node n;
    uint64_t kind = UINT64_MAX;
    std::string op_name;
    bool has_op = false;
    std::vector<int> subs;
    std::vector<std::pair<std::string, AttrValue>> attrs;
    while (auto f = r.next()) {
      const bool varint = f->number == 1 || f->number == 8 || f->number >= 11;
      r.expect(*f, varint ? WireType::kVarint : WireType::kLen);
      switch (f->number) {
        case 1:
          kind = f->value;
          break;
        case 2:
          n.name = std::string(f->bytes);
          break;
        case 3:
          op_name = std::string(f->bytes);
          has_op = true;
          break;
        case 4:
          n.inputs = decode_refs(f->bytes, ctx);
          break;
        case 5:
          attrs.push_back(decode_attr(f->bytes, ctx));
          break;
        case 6: {
          ProtoReader o(f->bytes, ctx);
          DType dtype = float32;
          PartialShape shape = PartialShape::unknown_rank();
          while (auto of = o.next()) {
            if (of->number == 1) {
              o.expect(*of, WireType::kVarint);
              dtype = internal::decode_dtype(of->value, ctx);
            } else if (of->number == 2) {
              o.expect(*of, WireType::kLen);
              shape = internal::decode_partial_shape(of->bytes, ctx);
            }
          }
          n.dtypes.push_back(dtype);
          n.shapes.push_back(std::move(shape));
          break;
        }
        case 7:
          n.location_text = std::string(f->bytes);
          break;
        case 8:
          n.arg_index = to_int(f->value, ctx, "argument index");
          break;
        case 9:
          n.value = internal::decode_tensor(f->bytes, &tensor_budget, ctx);
          break;
        case 10:
          for (uint64_t s : internal::unpack_varints(f->bytes, ctx)) {
            if (s >= static_cast<uint64_t>(fi)) {
              throw InvalidArgumentError(
                  str_cat(ctx, ": refers to function ", s, ", which is not defined before it"));
            }
            subs.push_back(static_cast<int>(s));
          }
          break;
        case 11:
          n.split = to_int(f->value, ctx, "split");
          break;
        case 12:
          n.cond_captures = to_int(f->value, ctx, "cond_captures");
          break;
        case 13:
          n.maximum_iterations = internal::unzigzag(f->value);
          break;
        case 14:
          n.keep_history = f->value != 0;
          break;
        default:
          break;
      }
    }
    if (kind > static_cast<uint64_t>(NodeKind::kWhile)) {
      throw InvalidArgumentError(
          str_cat(ctx, ": node kind ", kind,
                  kind == static_cast<uint64_t>(NodeKind::kHostCall)
                      ? " (a host callback) cannot be loaded: it would run C++ code"
                      : " is unknown"));
    }
    n.kind = static_cast<NodeKind>(kind);
    for (auto& [k, v] : attrs) n.attrs.set(k, std::move(v));
    for (int s : subs) {
      n.subgraphs.push_back(functions[static_cast<size_t>(s)]);
      depth[static_cast<size_t>(fi)] =
          std::max(depth[static_cast<size_t>(fi)], depth[static_cast<size_t>(s)] + 1);
    }
    if (n.kind == NodeKind::kOp) {
      n.op = has_op ? OpRegistry::global().find(op_name) : nullptr;
      if (!n.op) {
        ++unknown_ops[op_name];
      } else {
        complete_op_attrs(n, str_cat(context, ", function '", g.name(), "'"));
      }
    }
    if (n.kind == NodeKind::kArg) {
      if (n.dtypes.size() != 1 || n.arg_index != static_cast<int>(g.args().size())) {
        throw InvalidArgumentError(str_cat(ctx, ": malformed argument node"));
      }
      int id = g.add_arg(n.dtypes[0], n.shapes[0], n.name);
      g.mutable_node(id).location_text = std::move(n.location_text);
      return;
    }
    std::string name = n.name;
    int id = g.add_node(std::move(n));
    g.mutable_node(id).name = std::move(name);
  }

  void decode_function(int fi, std::string_view bytes) {
    const std::string ctx = str_cat(context, ", function ", fi);
    ProtoReader r(bytes, ctx);
    std::string name;
    std::vector<std::string_view> node_bytes;
    std::vector<ValueRef> outputs;
    while (auto f = r.next()) {
      r.expect(*f, WireType::kLen);
      if (f->number == 1) name = std::string(f->bytes);
      if (f->number == 2) node_bytes.push_back(f->bytes);
      if (f->number == 3) outputs = decode_refs(f->bytes, ctx);
    }
    nodes += static_cast<int64_t>(node_bytes.size());
    if (nodes > limits.max_nodes) {
      throw InvalidArgumentError(
          str_cat(context, ": more than ", limits.max_nodes, " nodes (DecodeLimits::max_nodes)"));
    }
    auto g = std::make_shared<Graph>(name);
    functions.push_back(g);
    depth.push_back(1);
    for (std::string_view nb : node_bytes) decode_node(*g, fi, nb);
    if (depth.back() > limits.max_nesting_depth) {
      throw InvalidArgumentError(str_cat(ctx, " ('", name, "') nests functions ", depth.back(),
                                         " deep, more than ", limits.max_nesting_depth,
                                         " (DecodeLimits::max_nesting_depth)"));
    }
    g->set_outputs(std::move(outputs));
  }
};

}  // namespace

std::vector<std::shared_ptr<const Graph>> decode_functions(
    std::span<const std::string_view> functions,
    std::span<const std::shared_ptr<VariableState>> variables, const DecodeLimits& limits,
    const std::string& context) {
  Decoder d{variables, limits, context, {}, {}, {}, 0, limits.max_tensor_bytes};
  for (size_t i = 0; i < functions.size(); ++i) {
    d.decode_function(static_cast<int>(i), functions[i]);
  }
  // Every unknown op in one error, before anything is checked further or run.
  if (!d.unknown_ops.empty()) {
    std::string list;
    int total = 0;
    for (const auto& [op, count] : d.unknown_ops) {
      if (!list.empty()) list.append(", ");
      list.append(op.empty() ? "<empty name>" : op);
      total += count;
    }
    throw NotFoundError(str_cat(context, ": the model uses ", d.unknown_ops.size(),
                                " op(s) this build of tfcc does not know (", total,
                                " node(s)): ", list, ". Load it with a tfcc that registers them."));
  }
  // Graph::problems() verifies a graph with its subgraphs, so it runs on the functions no other
  // function refers to; their sizes with every subgraph reference expanded are bounded, so
  // shared bodies nested deeply cannot make that verification explode.
  const size_t nf = d.functions.size();
  std::vector<int64_t> expanded(nf, 0);
  std::vector<bool> referenced(nf, false);
  std::map<const Graph*, size_t> index;
  for (size_t i = 0; i < nf; ++i) index[d.functions[i].get()] = i;
  for (size_t i = 0; i < nf; ++i) {
    int64_t size = d.functions[i]->num_nodes();
    for (const Node& n : d.functions[i]->nodes()) {
      for (const auto& sub : n.subgraphs) {
        size_t s = index.at(sub.get());
        referenced[s] = true;
        size = std::min(size + expanded[s], limits.max_nodes + 1);
      }
    }
    expanded[i] = size;
  }
  int64_t total = 0;
  for (size_t i = 0; i < nf; ++i) {
    if (referenced[i]) continue;
    total = std::min(total + expanded[i], limits.max_nodes + 1);
    if (total > limits.max_nodes) {
      throw InvalidArgumentError(str_cat(context, ": the functions expand to more than ",
                                         limits.max_nodes,
                                         " nodes with their bodies (DecodeLimits::max_nodes)"));
    }
    std::vector<std::string> problems = d.functions[i]->problems();
    if (!problems.empty()) {
      std::string msg = str_cat(context, ": function '", d.functions[i]->name(), "' is malformed:");
      for (const std::string& p : problems) msg.append("\n  ").append(p);
      throw InvalidArgumentError(msg);
    }
  }
  std::vector<std::shared_ptr<const Graph>> out;
  for (const auto& g : d.functions) {
    check_graph(*g, context);
    out.push_back(g);
  }
  return out;
}

std::vector<std::shared_ptr<const Graph>> decode_functions(
    std::span<const std::string> functions,
    std::span<const std::shared_ptr<VariableState>> variables, const DecodeLimits& limits,
    const std::string& context) {
  std::vector<std::string_view> views(functions.begin(), functions.end());
  return decode_functions(views, variables, limits, context);
}

}  // namespace tfcc::saved_model
