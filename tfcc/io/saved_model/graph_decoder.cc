// Decoding of the function library (graph_codec.h): wire bytes to verified graphs.
#include <algorithm>
#include <bit>
#include <climits>
#include <map>

#include "tfcc/io/proto/message_io.h"
#include "tfcc/io/proto/tfcc_model.pb.h"
#include "tfcc/io/saved_model/graph_check.h"
#include "tfcc/io/saved_model/graph_codec.h"
#include "tfcc/ops/registry.h"

namespace tfcc::saved_model {

namespace lm = ::tfcc::legacy_model;
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

std::vector<ValueRef> decode_refs(const google::protobuf::RepeatedField<uint64_t>& v,
                                  const std::string& context) {
  if (v.size() % 2 != 0) throw DataLossError(context + ": odd number of reference integers");
  std::vector<ValueRef> out;
  for (int i = 0; i < v.size(); i += 2) {
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

  // The value field that the attribute's type names must be present (lists may be empty).
  std::pair<std::string, AttrValue> decode_attr(const lm::Attr& a, const std::string& ctx) {
    auto missing = [&] {
      return InvalidArgumentError(
          str_cat(ctx, ": attribute '", a.name(), "' has no value of its type"));
    };
    if (!a.has_type() || a.type() > static_cast<uint64_t>(AttrType::kResource)) throw missing();
    std::optional<AttrValue> value;
    switch (static_cast<AttrType>(a.type())) {
      case AttrType::kInt:
        if (a.has_i()) value = a.i();
        break;
      case AttrType::kFloat:
        if (a.has_f_bits()) value = std::bit_cast<double>(a.f_bits());
        break;
      case AttrType::kBool:
        if (a.has_b()) value = a.b();
        break;
      case AttrType::kString:
        if (a.has_s()) value = a.s();
        break;
      case AttrType::kType:
        if (a.has_dtype()) value = internal::decode_dtype(a.dtype(), ctx);
        break;
      case AttrType::kInts:
        value = std::vector<int64_t>(a.ints().begin(), a.ints().end());
        break;
      case AttrType::kFloats: {
        std::vector<double> v;
        for (uint64_t bits : a.floats_bits()) v.push_back(std::bit_cast<double>(bits));
        value = std::move(v);
        break;
      }
      case AttrType::kTensor:
        if (a.has_tensor()) value = internal::from_proto(a.tensor(), &tensor_budget, ctx);
        break;
      case AttrType::kResource:
        if (!a.has_variable()) break;
        if (a.variable() >= variables.size()) {
          throw InvalidArgumentError(str_cat(ctx, ": attribute '", a.name(),
                                             "' refers to variable ", a.variable(), " of ",
                                             variables.size()));
        }
        value = variables[static_cast<size_t>(a.variable())];
        break;
    }
    if (!value) throw missing();
    return {a.name(), std::move(*value)};
  }

  // Decodes one node message into `g`.
  void decode_node(Graph& g, int fi, const lm::Node& p) {
    const std::string ctx = str_cat(context, ", function ", fi, " node ", g.num_nodes());
    Node n;
    const uint64_t kind = p.has_kind() ? p.kind() : UINT64_MAX;
    n.name = p.name();
    n.inputs = decode_refs(p.inputs(), ctx);
    std::vector<std::pair<std::string, AttrValue>> attrs;
    for (const lm::Attr& a : p.attrs()) attrs.push_back(decode_attr(a, ctx));
    for (const lm::Output& o : p.outputs()) {
      n.dtypes.push_back(o.has_dtype() ? internal::decode_dtype(o.dtype(), ctx) : float32);
      n.shapes.push_back(o.has_shape() ? internal::from_proto(o.shape(), ctx)
                                       : PartialShape::unknown_rank());
    }
    n.location_text = p.location();
    if (p.has_arg_index()) n.arg_index = to_int(p.arg_index(), ctx, "argument index");
    if (p.has_value()) n.value = internal::from_proto(p.value(), &tensor_budget, ctx);
    std::vector<int> subs;
    for (uint64_t s : p.subgraphs()) {
      if (s >= static_cast<uint64_t>(fi)) {
        throw InvalidArgumentError(
            str_cat(ctx, ": refers to function ", s, ", which is not defined before it"));
      }
      subs.push_back(static_cast<int>(s));
    }
    if (p.has_split()) n.split = to_int(p.split(), ctx, "split");
    if (p.has_cond_captures()) n.cond_captures = to_int(p.cond_captures(), ctx, "cond_captures");
    if (p.has_maximum_iterations()) n.maximum_iterations = p.maximum_iterations();
    if (p.has_keep_history()) n.keep_history = p.keep_history();
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
      n.op = p.has_op() ? OpRegistry::global().find(p.op()) : nullptr;
      if (!n.op) {
        ++unknown_ops[p.op()];
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
    lm::Function f;
    io::proto::parse(f, bytes, ctx);
    const std::string& name = f.name();
    std::vector<ValueRef> outputs = decode_refs(f.outputs(), ctx);
    nodes += f.nodes_size();
    if (nodes > limits.max_nodes) {
      throw InvalidArgumentError(
          str_cat(context, ": more than ", limits.max_nodes, " nodes (DecodeLimits::max_nodes)"));
    }
    auto g = std::make_shared<Graph>(name);
    functions.push_back(g);
    depth.push_back(1);
    for (const lm::Node& node : f.nodes()) decode_node(*g, fi, node);
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
