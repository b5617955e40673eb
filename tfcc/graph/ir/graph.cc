#include "tfcc/graph/ir/graph.h"

#include <cstring>

namespace tfcc::graph {

std::string location_string(const std::source_location& loc) {
  const char* file = loc.file_name();
  if (!file || !*file) return "<unknown>";
  const char* slash = std::strrchr(file, '/');
  return internal::str_cat(slash ? slash + 1 : file, ":", loc.line());
}

std::string location_string(const Node& node) {
  return node.location_text.empty() ? location_string(node.location) : node.location_text;
}

std::string Node::type_name() const {
  switch (kind) {
    case NodeKind::kArg:
      return "Arg";
    case NodeKind::kConst:
      return "Const";
    case NodeKind::kOp:
      return op ? op->name() : "<null op>";
    case NodeKind::kIf:
      return "If";
    case NodeKind::kWhile:
      return "While";
    case NodeKind::kHostCall:
      return host ? host->name : "HostCall";
  }
  return "?";
}

int Graph::add_node(Node node) {
  std::string base = node.name.empty() ? node.type_name() : node.name;
  int count = 0;
  for (auto& [n, c] : name_counts_) {
    if (n == base) count = ++c;
  }
  if (count == 0) name_counts_.emplace_back(base, 0);
  node.name = count == 0 ? base : internal::str_cat(base, "_", count);
  nodes_.push_back(std::move(node));
  return num_nodes() - 1;
}

int Graph::add_arg(DType dtype, PartialShape shape, std::string name, std::source_location loc) {
  Node n;
  n.kind = NodeKind::kArg;
  n.name = std::move(name);
  n.arg_index = static_cast<int>(args_.size());
  n.dtypes = {dtype};
  n.shapes = {std::move(shape)};
  n.location = loc;
  int id = add_node(std::move(n));
  args_.push_back(id);
  return id;
}

namespace {

// Checks that `sub` takes `inputs` (dtype by dtype) and reports problems with `what`.
void check_signature(const Graph& g, const Node& n, const Graph& sub, std::span<const ValueRef> in,
                     const char* what, std::vector<std::string>& out) {
  if (sub.args().size() != in.size()) {
    out.push_back(internal::str_cat("node ", n.name, ": ", what, " subgraph takes ",
                                    sub.args().size(), " arguments, node passes ", in.size()));
    return;
  }
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i].node < 0 || in[i].node >= g.num_nodes()) continue;  // reported elsewhere
    const Node& src = g.node(in[i].node);
    if (in[i].index >= src.num_outputs()) continue;
    DType want = sub.node(sub.args()[i]).dtypes[0];
    if (g.dtype(in[i]) != want) {
      out.push_back(internal::str_cat("node ", n.name, ": ", what, " argument ", i, " is ",
                                      dtype_name(want), " but receives ",
                                      dtype_name(g.dtype(in[i]))));
    }
  }
}

}  // namespace

std::vector<std::string> Graph::problems() const {
  std::vector<std::string> out;
  for (size_t a = 0; a < args_.size(); ++a) {
    int id = args_[a];
    if (id < 0 || id >= num_nodes() || node(id).kind != NodeKind::kArg ||
        node(id).arg_index != static_cast<int>(a)) {
      out.push_back(internal::str_cat("argument ", a, " is not an Arg node numbered ", a));
    }
  }
  for (int id = 0; id < num_nodes(); ++id) {
    const Node& n = node(id);
    if (n.dtypes.size() != n.shapes.size()) {
      out.push_back(internal::str_cat("node ", n.name, ": ", n.dtypes.size(), " dtypes but ",
                                      n.shapes.size(), " shapes"));
    }
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      ValueRef v = n.inputs[i];
      if (v.node < 0 || v.node >= id) {
        out.push_back(internal::str_cat("node ", n.name, ": input ", i,
                                        " does not refer to an earlier node"));
      } else if (v.index < 0 || v.index >= node(v.node).num_outputs()) {
        out.push_back(internal::str_cat("node ", n.name, ": input ", i, " refers to output ",
                                        v.index, " of ", node(v.node).name, " which has ",
                                        node(v.node).num_outputs()));
      }
    }
    switch (n.kind) {
      case NodeKind::kArg:
        if (n.num_outputs() != 1 || !n.inputs.empty()) {
          out.push_back(internal::str_cat("node ", n.name, ": an Arg has one output, no inputs"));
        }
        break;
      case NodeKind::kConst:
        if (!n.value.defined() || n.value.is_symbolic() || n.num_outputs() != 1 ||
            n.dtypes[0] != n.value.dtype()) {
          out.push_back(internal::str_cat("node ", n.name, ": a Const holds one concrete tensor"));
        }
        break;
      case NodeKind::kOp: {
        if (!n.op) {
          out.push_back(internal::str_cat("node ", n.name, ": no op"));
          break;
        }
        size_t expected = 0;
        for (const ArgDef& a : n.op->inputs()) {
          expected += a.variadic ? static_cast<size_t>(n.attrs.get<int64_t>("N")) : 1;
        }
        if (expected != n.inputs.size()) {
          out.push_back(internal::str_cat("node ", n.name, ": ", n.op->name(), " takes ", expected,
                                          " inputs, has ", n.inputs.size()));
        }
        break;
      }
      case NodeKind::kIf: {
        if (n.subgraphs.size() != 2 || n.inputs.empty() ||
            n.split + 1 > static_cast<int>(n.inputs.size())) {
          out.push_back(internal::str_cat("node ", n.name, ": malformed If"));
          break;
        }
        std::span<const ValueRef> in(n.inputs);
        check_signature(*this, n, *n.subgraphs[0], in.subspan(1, n.split), "then", out);
        check_signature(*this, n, *n.subgraphs[1], in.subspan(1 + n.split), "else", out);
        for (const auto& sub : n.subgraphs) {
          if (sub->outputs().size() != n.dtypes.size()) {
            out.push_back(internal::str_cat("node ", n.name, ": branch ", sub->name(), " returns ",
                                            sub->outputs().size(), " values, node has ",
                                            n.dtypes.size(), " outputs"));
          }
          for (const std::string& p : sub->problems()) out.push_back(sub->name() + ": " + p);
        }
        break;
      }
      case NodeKind::kWhile: {
        if (n.subgraphs.size() != 2 || n.split > static_cast<int>(n.inputs.size()) ||
            n.split + n.cond_captures > static_cast<int>(n.inputs.size())) {
          out.push_back(internal::str_cat("node ", n.name, ": malformed While"));
          break;
        }
        std::span<const ValueRef> in(n.inputs);
        std::vector<ValueRef> cond_in(in.begin(), in.begin() + n.split);
        cond_in.insert(cond_in.end(), in.begin() + n.split, in.begin() + n.split + n.cond_captures);
        std::vector<ValueRef> body_in(in.begin(), in.begin() + n.split);
        body_in.insert(body_in.end(), in.begin() + n.split + n.cond_captures, in.end());
        check_signature(*this, n, *n.subgraphs[0], cond_in, "cond", out);
        check_signature(*this, n, *n.subgraphs[1], body_in, "body", out);
        if (n.subgraphs[1]->outputs().size() != static_cast<size_t>(n.split)) {
          out.push_back(internal::str_cat("node ", n.name, ": body returns ",
                                          n.subgraphs[1]->outputs().size(), " values for ", n.split,
                                          " loop variables"));
        }
        if (n.subgraphs[0]->outputs().size() != 1) {
          out.push_back(internal::str_cat("node ", n.name, ": cond must return one value"));
        }
        for (const auto& sub : n.subgraphs) {
          for (const std::string& p : sub->problems()) out.push_back(sub->name() + ": " + p);
        }
        break;
      }
      case NodeKind::kHostCall:
        if (!n.host || !n.host->fn) {
          out.push_back(internal::str_cat("node ", n.name, ": host call without a function"));
        }
        break;
    }
  }
  for (size_t i = 0; i < outputs_.size(); ++i) {
    ValueRef v = outputs_[i];
    if (v.node < 0 || v.node >= num_nodes() || v.index < 0 ||
        v.index >= node(v.node).num_outputs()) {
      out.push_back(internal::str_cat("output ", i, " refers to no node output"));
    }
  }
  return out;
}

void Graph::verify() const {
  std::vector<std::string> p = problems();
  if (p.empty()) return;
  std::string msg = internal::str_cat("Graph '", name_, "' is malformed:");
  for (const std::string& s : p) msg.append("\n  ").append(s);
  throw InternalError(msg);
}

namespace {

std::string value_name(const Graph& g, ValueRef v) {
  if (v.node >= 0 && v.node < g.num_nodes() && g.node(v.node).num_outputs() == 1) {
    return internal::str_cat("%", v.node);
  }
  return internal::str_cat("%", v.node, ":", v.index);
}

std::string type_string(DType d, const PartialShape& s) {
  return internal::str_cat(dtype_name(d), s.to_string());
}

}  // namespace

void Graph::print(std::string& out, int indent) const {
  std::string pad(static_cast<size_t>(indent), ' ');
  out.append(pad).append("function ").append(name_).append("(");
  for (size_t a = 0; a < args_.size(); ++a) {
    const Node& n = node(args_[a]);
    if (a) out.append(", ");
    out.append(internal::str_cat("%", args_[a], ": ", type_string(n.dtypes[0], n.shapes[0])));
  }
  out.append(") {\n");
  for (int id = 0; id < num_nodes(); ++id) {
    const Node& n = node(id);
    if (n.kind == NodeKind::kArg) continue;
    std::string line = pad + "  ";
    if (n.num_outputs() == 1) {
      line.append(internal::str_cat("%", id, " = "));
    } else if (n.num_outputs() > 1) {
      line.append(internal::str_cat("%", id, ":0..", n.num_outputs() - 1, " = "));
    }
    line.append(n.type_name());
    if (n.kind == NodeKind::kConst) {
      line.append("[").append(n.value.num_elements() <= 8 ? n.value.values_string() : "...");
      line.append("]");
    }
    line.append("(");
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      if (i) line.append(", ");
      line.append(value_name(*this, n.inputs[i]));
    }
    line.append(")");
    bool first = true;
    for (const auto& [k, v] : n.attrs.items()) {
      if (k == "T" || k == "N") continue;  // implied by the inputs
      line.append(first ? " {" : ", ").append(k).append("=").append(attr_value_string(v));
      first = false;
    }
    if (!first) line.append("}");
    if (n.kind == NodeKind::kWhile && n.maximum_iterations >= 0) {
      line.append(internal::str_cat(" {maximum_iterations=", n.maximum_iterations, "}"));
    }
    line.append(" : ");
    for (int k = 0; k < n.num_outputs(); ++k) {
      if (k) line.append(", ");
      line.append(type_string(n.dtypes[k], n.shapes[k]));
    }
    if (n.num_outputs() == 0) line.append("()");
    line.append("  # ").append(location_string(n)).append("\n");
    out.append(line);
    for (const auto& sub : n.subgraphs) sub->print(out, indent + 4);
  }
  out.append(pad).append("  return ");
  for (size_t i = 0; i < outputs_.size(); ++i) {
    if (i) out.append(", ");
    out.append(value_name(*this, outputs_[i]));
  }
  out.append("\n").append(pad).append("}\n");
}

std::string Graph::to_string() const {
  std::string out;
  print(out, 0);
  return out;
}

}  // namespace tfcc::graph
