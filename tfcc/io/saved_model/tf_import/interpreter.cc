// Running TensorFlow graphs and functions through the op table (interpreter.h).
#include "tfcc/io/saved_model/tf_import/interpreter.h"

#include <climits>

#include "tfcc/platform/errors.h"

namespace tfcc::saved_model::tf_import {

using tensorflow::NodeDef;
using ::tfcc::internal::str_cat;

Library::Library(const tensorflow::FunctionDefLibrary& lib, const std::string& context) {
  for (const tensorflow::FunctionDef& f : lib.function()) {
    if (!functions_.emplace(f.signature().name(), &f).second) {
      throw InvalidArgumentError(
          str_cat(context, ": function '", f.signature().name(), "' is defined twice"));
    }
  }
}

const tensorflow::FunctionDef* Library::find(const std::string& name) const {
  auto it = functions_.find(name);
  return it == functions_.end() ? nullptr : it->second;
}

namespace {

// Re-raises a tfcc error with `prefix` in front of its message, keeping its type.
[[noreturn]] void rethrow_with(const Error& e, const std::string& prefix) {
  const std::string m = prefix + e.what();
  switch (e.code()) {
    case ErrorCode::kInvalidArgument:
      throw InvalidArgumentError(m);
    case ErrorCode::kNotFound:
      throw NotFoundError(m);
    case ErrorCode::kUnimplemented:
      throw UnimplementedError(m);
    case ErrorCode::kDataLoss:
      throw DataLossError(m);
    case ErrorCode::kResourceExhausted:
      throw ResourceExhaustedError(m);
    case ErrorCode::kOutOfRange:
      throw OutOfRangeError(m);
    case ErrorCode::kFailedPrecondition:
      throw FailedPreconditionError(m);
    default:
      throw InternalError(m);
  }
}

// One input reference of a node.
struct Ref {
  std::string node;  // node name, or the argument name when `is_arg`
  std::string arg;   // function mode: the output argument name ("" for a flat index)
  int index = 0;
  bool control = false;
  bool is_arg = false;
};

int parse_index(const std::string& s, const std::string& context) {
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) {
    throw InvalidArgumentError(str_cat(context, ": bad output index '", s, "'"));
  }
  return std::stoi(s);
}

// A body: the nodes of one function (function mode: `node:arg:index` references, named
// arguments) or of the top-level graph (`node:index`, fed nodes).
struct Body {
  std::string label;  // "function 'f'" or "graph"
  bool function_mode = false;
  std::map<std::string, const NodeDef*> nodes;
  std::map<std::string, Value> args;  // function arguments, or feeds by node name

  Body(std::string l, bool fm, const google::protobuf::RepeatedPtrField<NodeDef>& defs,
       const std::string& path)
      : label(std::move(l)), function_mode(fm) {
    for (const NodeDef& n : defs) {
      if (!nodes.emplace(n.name(), &n).second) {
        throw InvalidArgumentError(str_cat(path, ": ", label, ": node '", n.name(), "' twice"));
      }
    }
  }

  Ref parse(const std::string& s, const std::string& context) const {
    Ref r;
    if (!s.empty() && s[0] == '^') {
      r.control = true;
      r.node = s.substr(1);
      return r;
    }
    const size_t a = s.find(':');
    r.node = s.substr(0, a);
    if (a == std::string::npos) {
      r.is_arg = function_mode && args.count(r.node) != 0;
      return r;
    }
    const size_t b = s.find(':', a + 1);
    if (b == std::string::npos) {
      r.index = parse_index(s.substr(a + 1), context);
    } else {
      r.arg = s.substr(a + 1, b - a - 1);
      r.index = parse_index(s.substr(b + 1), context);
    }
    return r;
  }

  // Nodes reachable from `roots` (through data and control inputs), dependencies first.
  std::vector<const NodeDef*> schedule(const std::vector<std::string>& roots,
                                       const std::string& path) const {
    std::map<const NodeDef*, int> state;  // 1: on the stack, 2: done
    std::vector<const NodeDef*> order;
    std::vector<std::pair<const NodeDef*, int>> stack;
    auto push = [&](const std::string& name, const std::string& user) {
      auto it = nodes.find(name);
      if (it == nodes.end()) {
        throw InvalidArgumentError(
            str_cat(path, ": ", label, ": '", user, "' refers to a missing node '", name, "'"));
      }
      int& st = state[it->second];
      if (st == 1) {
        throw InvalidArgumentError(
            str_cat(path, ": ", label, ": a cycle runs through node '", name, "'"));
      }
      if (st == 0) {
        st = 1;
        stack.push_back({it->second, 0});
      }
    };
    for (const std::string& r : roots) {
      push(r, "outputs");
      while (!stack.empty()) {
        auto& [n, next] = stack.back();
        const bool fed = !function_mode && args.count(n->name());
        if (fed || next >= n->input_size()) {
          state[n] = 2;
          order.push_back(n);
          stack.pop_back();
          continue;
        }
        const std::string ctx = str_cat(path, ": ", label, ", node '", n->name(), "'");
        Ref ref = parse(n->input(next++), ctx);
        if (ref.is_arg) continue;
        push(ref.node, n->name());
      }
    }
    return order;
  }
};

// Function names a node's attributes refer to (calls, branches, bodies).
void called_functions(const NodeDef& n, std::vector<std::string>& out) {
  for (const auto& [name, v] : n.attr()) {
    if (v.has_func()) out.push_back(v.func().name());
    if (v.has_list()) {
      for (const auto& f : v.list().func()) out.push_back(f.name());
    }
  }
}

struct Runner {
  ImportState& state;
  Body& body;
  std::map<std::string, std::vector<Value>> values;

  Value resolve(const Ref& ref, const std::string& context) {
    if (ref.is_arg) return body.args.at(ref.node);
    if (!body.function_mode && body.args.count(ref.node)) {
      if (ref.index != 0) {
        throw InvalidArgumentError(str_cat(context, ": '", ref.node, "' has one output"));
      }
      return body.args.at(ref.node);
    }
    auto it = values.find(ref.node);
    if (it == values.end()) {
      throw InvalidArgumentError(str_cat(context, ": '", ref.node, "' is not computed before use"));
    }
    int flat = ref.index;
    if (!ref.arg.empty()) {
      const NodeDef* n = body.nodes.at(ref.node);
      const OpRow* row = find_op(n->op());
      flat = row ? output_index(*row, ref.arg, ref.index, context) : ref.index;
    }
    if (flat < 0 || static_cast<size_t>(flat) >= it->second.size()) {
      throw InvalidArgumentError(str_cat(context, ": output ", flat, " of '", ref.node,
                                         "', which has ", it->second.size()));
    }
    return it->second[static_cast<size_t>(flat)];
  }

  void run_node(const NodeDef& n) {
    const std::string where = str_cat(body.label, ", node '", n.name(), "' (", n.op(), ")");
    const std::string ctx = str_cat(state.path, ": ", where);
    if (++state.nodes > state.options.max_nodes) {
      throw InvalidArgumentError(str_cat(state.path, ": more than ", state.options.max_nodes,
                                         " nodes to convert (LoadOptions::max_nodes)"));
    }
    std::vector<Value> inputs;
    for (const std::string& s : n.input()) {
      Ref r = body.parse(s, ctx);
      if (!r.control) inputs.push_back(resolve(r, ctx));
    }
    const OpRow* row = find_op(n.op());
    if (!row) {
      // A library function used as an op type is a call.
      if (state.library.find(n.op())) {
        values[n.name()] = call_function(state, n.op(), inputs, ctx);
        return;
      }
      throw UnimplementedError(str_cat(ctx, ": TensorFlow op '", n.op(), "' has no tfcc mapping"));
    }
    NodeContext c{n, std::move(inputs), *row, state, where};
    try {
      std::vector<Value> out = row->convert(c);
      // What runs later allocates what shapes say: no single tensor beyond the byte limit.
      for (const Value& v : out) {
        if (!v.tensor.defined()) continue;
        const PartialShape ps = v.tensor.partial_shape();
        if (!ps.rank_known() || !ps.is_fully_defined()) continue;
        int64_t bytes = static_cast<int64_t>(dtype_size(v.tensor.dtype()));
        for (int64_t d : ps.dims()) bytes = checked_mul(bytes, d);
        if (bytes > state.options.max_tensor_bytes) {
          throw InvalidArgumentError(str_cat("makes a ", bytes, "-byte tensor ", ps.to_string(),
                                             ", more than the tensor byte limit ",
                                             state.options.max_tensor_bytes,
                                             " (LoadOptions::max_tensor_bytes)"));
        }
      }
      values[n.name()] = std::move(out);
    } catch (const Error& e) {
      const std::string msg = e.what();
      // Errors raised below another node already name it.
      if (msg.rfind(state.path, 0) == 0) throw;
      rethrow_with(e, ctx + ": ");
    }
  }

  void run(const std::vector<const NodeDef*>& order) {
    for (const NodeDef* n : order) {
      if (!body.function_mode && body.args.count(n->name())) continue;
      run_node(*n);
    }
  }
};

}  // namespace

std::vector<Value> call_function(ImportState& state, const std::string& name,
                                 const std::vector<Value>& args, const std::string& caller) {
  const tensorflow::FunctionDef* f = state.library.find(name);
  if (!f) throw InvalidArgumentError(str_cat(caller, ": calls a missing function '", name, "'"));
  if (state.depth + 1 > state.options.max_nesting_depth) {
    throw InvalidArgumentError(str_cat(caller, ": functions nest deeper than ",
                                       state.options.max_nesting_depth,
                                       " (LoadOptions::max_nesting_depth)"));
  }
  const auto& sig = f->signature();
  if (static_cast<size_t>(sig.input_arg_size()) != args.size()) {
    throw InvalidArgumentError(str_cat(caller, ": calls '", name, "' with ", args.size(),
                                       " inputs; it takes ", sig.input_arg_size()));
  }
  Body body(str_cat("function '", name, "'"), true, f->node_def(), state.path);
  for (int i = 0; i < sig.input_arg_size(); ++i) body.args[sig.input_arg(i).name()] = args[i];
  std::vector<std::string> roots;
  for (const auto& out : sig.output_arg()) {
    auto it = f->ret().find(out.name());
    if (it == f->ret().end()) {
      throw InvalidArgumentError(
          str_cat(state.path, ": function '", name, "' has no ret for '", out.name(), "'"));
    }
    Ref r = body.parse(it->second, state.path);
    if (!r.is_arg) roots.push_back(r.node);
  }
  for (const auto& [k, node] : f->control_ret()) roots.push_back(node);
  ++state.depth;
  Runner runner{state, body, {}};
  runner.run(body.schedule(roots, state.path));
  --state.depth;
  std::vector<Value> out;
  for (const auto& o : sig.output_arg()) {
    out.push_back(runner.resolve(body.parse(f->ret().at(o.name()), state.path),
                                 str_cat(state.path, ": function '", name, "' ret")));
  }
  return out;
}

std::vector<Value> run_graph(ImportState& state, const tensorflow::GraphDef& graph,
                             const std::map<std::string, Value>& feeds,
                             const std::vector<std::string>& fetches) {
  Body body("graph", false, graph.node(), state.path);
  body.args = feeds;
  std::vector<Ref> refs;
  std::vector<std::string> roots;
  for (const std::string& f : fetches) {
    refs.push_back(body.parse(f, state.path));
    roots.push_back(refs.back().node);
  }
  Runner runner{state, body, {}};
  runner.run(body.schedule(roots, state.path));
  std::vector<Value> out;
  for (size_t i = 0; i < refs.size(); ++i) {
    out.push_back(runner.resolve(refs[i], str_cat(state.path, ": fetch '", fetches[i], "'")));
  }
  return out;
}

void missing_ops(const ImportState& state, const tensorflow::GraphDef& graph,
                 const std::vector<std::string>& fetches,
                 std::map<std::string, std::set<std::string>>& missing) {
  std::set<std::string> seen;
  std::vector<std::string> work;
  auto scan = [&](const Body& b, const std::vector<std::string>& roots, const std::string& prefix) {
    for (const NodeDef* n : b.schedule(roots, state.path)) {
      if (!b.function_mode && b.args.count(n->name())) continue;
      std::vector<std::string> callees;
      called_functions(*n, callees);
      if (!find_op(n->op())) {
        if (state.library.find(n->op())) {
          callees.push_back(n->op());
        } else {
          missing[n->op()].insert(prefix + n->name());
        }
      }
      for (const std::string& c : callees) {
        if (!state.library.find(c)) {
          missing[str_cat("function ", c)].insert(prefix + n->name());
        } else if (seen.insert(c).second) {
          work.push_back(c);
        }
      }
    }
  };
  Body top("graph", false, graph.node(), state.path);
  std::vector<std::string> roots;
  for (const std::string& f : fetches) roots.push_back(top.parse(f, state.path).node);
  // Signature inputs are Placeholders: scanning them is harmless (Placeholder is in the table).
  scan(top, roots, "");
  while (!work.empty()) {
    std::string name = work.back();
    work.pop_back();
    const tensorflow::FunctionDef* f = state.library.find(name);
    Body b(str_cat("function '", name, "'"), true, f->node_def(), state.path);
    for (const auto& a : f->signature().input_arg()) b.args[a.name()] = Value{};
    std::vector<std::string> froots;
    for (const auto& [k, v] : f->ret()) {
      Ref r = b.parse(v, state.path);
      if (!r.is_arg) froots.push_back(r.node);
    }
    for (const auto& [k, node] : f->control_ret()) froots.push_back(node);
    scan(b, froots, name + "/");
  }
}

}  // namespace tfcc::saved_model::tf_import
