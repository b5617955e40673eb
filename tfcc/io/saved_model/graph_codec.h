// The graph IR on disk (the legacy tfcc export format): traced graphs (tfcc/graph/ir) as the
// messages of tfcc/io/proto/tfcc_model.proto, so an exported model can be read without the code
// that traced it.
//
//   std::vector<std::shared_ptr<const tfcc::graph::Graph>> roots = {cf.shared_graph()};
//   tfcc::saved_model::EncodedFunctions enc = tfcc::saved_model::encode_functions(roots);
//   // enc.functions[i]: one Function message; If / While bodies come before their users.
//   auto lib = tfcc::saved_model::decode_functions(enc.functions, enc.variables, {}, "f.tfcc");
//   assert(lib.back()->to_string() == cf.graph().to_string());
//
// Every node keeps its op name, inputs, attributes (all AttrValue kinds: ints, floats, bools,
// strings, dtypes, lists, tensors, variables by index into a variable table), output dtypes and
// PartialShapes, and its source location as text. Subgraphs are functions referenced by index;
// a function may refer only to functions before it, so the library is acyclic and its nesting
// depth is bounded. The message layout is in docs/saved_model_format.md.
//
// Decoding treats bytes as untrusted: malformed wire data is DataLossError; a well-formed message
// that breaks a rule (an unknown dtype, a reference out of range, a limit exceeded) is
// InvalidArgumentError; ops this build does not know are listed together in one NotFoundError.
// Decoded graphs are structurally verified and type-checked (graph_check.h) before being returned.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tfcc/core/variable.h"
#include "tfcc/graph/ir/graph.h"

namespace tfcc::legacy_model {
class Shape;
class Tensor;
}  // namespace tfcc::legacy_model

namespace tfcc::saved_model {

/// Limits on what a decoder accepts (an exported model is untrusted input).
struct DecodeLimits {
  /// Total bytes of tensors held in the graphs (constants, tensor attributes) and variables.
  int64_t max_tensor_bytes = int64_t{4} << 30;
  /// Total nodes over every function.
  int64_t max_nodes = int64_t{1} << 20;
  /// Functions inside functions (If / While bodies): a top-level graph without any is depth 1.
  int max_nesting_depth = 32;
};

/// The encoding of a set of graphs and everything they reference.
struct EncodedFunctions {
  /// One serialized Function message per graph, callees first.
  std::vector<std::string> functions;
  /// Index in `functions` of each root, in the order given.
  std::vector<int> roots;
  /// The variables the graphs use (resource attributes), in first-use order; nodes refer to them
  /// by index.
  std::vector<std::shared_ptr<VariableState>> variables;
};

/// Encodes `roots` and every subgraph they reach. InvalidArgumentError for a graph that cannot
/// be exported (a host callback such as tfcc::print runs C++ code, which has no serial form).
EncodedFunctions encode_functions(std::span<const std::shared_ptr<const graph::Graph>> roots);

/// Decodes a function library. `variables` are what resource attributes refer to by index;
/// `context` names the source in errors. Graphs are returned in library order, verified.
std::vector<std::shared_ptr<const graph::Graph>> decode_functions(
    std::span<const std::string_view> functions,
    std::span<const std::shared_ptr<VariableState>> variables, const DecodeLimits& limits,
    const std::string& context);

/// Overload for owned strings.
std::vector<std::shared_ptr<const graph::Graph>> decode_functions(
    std::span<const std::string> functions,
    std::span<const std::shared_ptr<VariableState>> variables, const DecodeLimits& limits,
    const std::string& context);

namespace internal {

// Conversions to and from the messages of tfcc/io/proto/tfcc_model.proto, shared by the graph
// codec and the model file.

/// A tensor (also used for signature metadata).
void to_proto(const Tensor& t, legacy_model::Tensor& out);
/// A tensor, counting its bytes against `*budget` (InvalidArgumentError when it runs out).
Tensor from_proto(const legacy_model::Tensor& t, int64_t* budget, const std::string& context);
/// A dtype from its stored number; InvalidArgumentError if unknown.
DType decode_dtype(uint64_t v, const std::string& context);
/// A PartialShape (-1: unknown dimension).
void to_proto(const PartialShape& s, legacy_model::Shape& out);
PartialShape from_proto(const legacy_model::Shape& s, const std::string& context);

}  // namespace internal
}  // namespace tfcc::saved_model
#pragma GCC visibility pop
