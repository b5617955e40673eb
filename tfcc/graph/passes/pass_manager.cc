#include "tfcc/graph/passes/pass_manager.h"

#include <atomic>
#include <cstdlib>
#include <memory>

#include "tfcc/graph/passes/passes.h"
#include "tfcc/platform/file.h"
#include "tfcc/platform/logging.h"

namespace tfcc::graph {
namespace {

using PassFn = bool (*)(Graph&, const PassOptions&);

struct PassEntry {
  std::string name;
  PassFn fn;
};

// The declared order. Batch-norm folding first (constant folding then folds its filter
// arithmetic when the weights are constants), folding and simplification next (they expose
// duplicates and dead nodes), fusions last (they see the cleaned graph), dead code at the end.
const std::vector<PassEntry>& pipeline() {
  static const std::vector<PassEntry> passes = {
      {"batch_norm_folding", passes::batch_norm_folding},
      {"constant_folding", passes::constant_folding},
      {"arithmetic_simplification", passes::arithmetic_simplification},
      {"common_subexpression_elimination", passes::common_subexpression_elimination},
      {"contraction_fusion", passes::contraction_fusion},
      {"max_pool_grad_relu_fusion", passes::max_pool_grad_relu_fusion},
      {"elementwise_fusion", passes::elementwise_fusion},
      {"dead_code_elimination", passes::dead_code_elimination},
  };
  return passes;
}

const PassEntry& find_pass(const std::string& name) {
  for (const PassEntry& p : pipeline()) {
    if (p.name == name) return p;
  }
  std::string known;
  for (const PassEntry& p : pipeline()) known.append(known.empty() ? "" : ", ").append(p.name);
  throw InvalidArgumentError(
      internal::str_cat("Unknown graph pass '", name, "'; the passes are: ", known));
}

std::vector<std::string> split_list(const char* text) {
  std::vector<std::string> out;
  if (!text) return out;
  std::string cur;
  for (const char* c = text;; ++c) {
    if (*c == ',' || *c == '\0') {
      size_t b = cur.find_first_not_of(" \t"), e = cur.find_last_not_of(" \t");
      if (b != std::string::npos) out.push_back(cur.substr(b, e - b + 1));
      cur.clear();
      if (*c == '\0') break;
    } else {
      cur.push_back(*c);
    }
  }
  return out;
}

// Applies `pass` to every subgraph of g's control flow nodes (innermost first), then to g.
bool apply_recursively(const PassEntry& pass, Graph& g, const PassOptions& options) {
  bool changed = false;
  for (int id = 0; id < g.num_nodes(); ++id) {
    Node& n = g.mutable_node(id);
    for (auto& sub : n.subgraphs) {
      Graph copy = *sub;
      if (apply_recursively(pass, copy, options)) {
        sub = std::make_shared<const Graph>(std::move(copy));
        changed = true;
      }
    }
  }
  return pass.fn(g, options) || changed;
}

std::atomic<int> g_dump_serial{0};

}  // namespace

const std::vector<std::string>& pass_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const PassEntry& p : pipeline()) out.push_back(p.name);
    return out;
  }();
  return names;
}

Graph run_pass(const std::string& name, const Graph& graph, const PassOptions& options) {
  const PassEntry& pass = find_pass(name);
  Graph g = graph;
  apply_recursively(pass, g, options);
  g.verify();
  return g;
}

Graph optimize(const Graph& graph, const PassOptions& options) {
  if (!options.enabled) return graph;
  std::vector<std::string> disabled = options.disabled;
  for (std::string& s : split_list(std::getenv("TFCC_DISABLE_PASSES"))) {
    disabled.push_back(std::move(s));
  }
  bool all_off = false;
  for (const std::string& name : disabled) {
    if (name == "all") {
      all_off = true;
    } else {
      find_pass(name);  // rejects typos
    }
  }
  if (all_off) return graph;
  std::string dump_dir = options.dump_dir;
  if (dump_dir.empty()) {
    if (const char* env = std::getenv("TFCC_DUMP_GRAPHS")) dump_dir = env;
  }
  const int serial = dump_dir.empty() ? 0 : ++g_dump_serial;
  if (!dump_dir.empty()) make_dirs(dump_dir);
  auto dump = [&](const Graph& g, int step, const char* when, const std::string& pass) {
    if (dump_dir.empty()) return;
    std::string path = internal::str_cat(dump_dir, "/", graph.name(), ".", serial, ".",
                                         step < 10 ? "0" : "", step, ".", when, ".", pass, ".txt");
    write_file_atomic(path, g.to_string());
  };

  Graph g = graph;
  int step = 0;
  for (const PassEntry& pass : pipeline()) {
    bool off = false;
    for (const std::string& name : disabled) off = off || name == pass.name;
    if (off) continue;
    ++step;
    dump(g, step, "before", pass.name);
    Graph candidate = g;
    try {
      apply_recursively(pass, candidate, options);
      std::vector<std::string> problems = candidate.problems();
      if (!problems.empty()) {
        throw InternalError(internal::str_cat("the result is malformed: ", problems[0]));
      }
      g = std::move(candidate);
    } catch (const Error& e) {
      TFCC_LOG(WARNING) << "Graph pass '" << pass.name << "' failed on function '" << graph.name()
                        << "' and was skipped: " << e.what();
    }
    dump(g, step, "after", pass.name);
  }
  return g;
}

}  // namespace tfcc::graph
