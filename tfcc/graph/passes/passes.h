// The individual graph passes (one per file in this folder), each mapping a graph to an
// equivalent one. The pass manager (pass_manager.h) runs them in order; tests call them alone.
// Each returns true if it changed the graph.
#pragma once

#include "tfcc/graph/ir/graph.h"
#include "tfcc/graph/passes/pass_manager.h"

namespace tfcc::graph::passes {

/// Removes nodes whose outputs reach no graph output, keeping side-effecting ones (stateful ops,
/// host calls such as prints, control flow containing either).
bool dead_code_elimination(Graph& g, const PassOptions& options);
/// Merges identical pure nodes (same op, inputs and attributes) and identical constants.
bool common_subexpression_elimination(Graph& g, const PassOptions& options);
/// Evaluates pure ops whose inputs are all constants, and Shape / Size / Rank of statically
/// known shapes, into Const nodes (results above options.max_constant_bytes stay ops).
bool constant_folding(Graph& g, const PassOptions& options);
/// Removes identities: x*1, 1*x, x+0 (integers), x-0, x/1, a double Transpose, a Reshape of a
/// Reshape, a Cast to the same dtype, Identity chains; only where dtype and shape are unchanged.
bool arithmetic_simplification(Graph& g, const PassOptions& options);
/// Folds an inference FusedBatchNormV3 (is_training=false) into the Conv2D feeding it: the
/// filter is scaled per output channel and the shift becomes a BiasAdd.
bool batch_norm_folding(Graph& g, const PassOptions& options);
/// MatMul / Conv2D followed by BiasAdd and an activation become _FusedMatMul / _FusedConv2D.
bool contraction_fusion(Graph& g, const PassOptions& options);
/// ReluGrad(MaxPoolGrad(x, y, g), x) with the pool gradient read by nothing else becomes one
/// _MaxPoolGradReluGrad (ReLU's mask applied as the gradient is routed; bitwise the same).
bool max_pool_grad_relu_fusion(Graph& g, const PassOptions& options);
/// Chains and trees of float element-wise ops over one shape (scalar operands broadcast) become
/// one _FusedElementwise node that makes one blocked, vectorised pass over memory.
bool elementwise_fusion(Graph& g, const PassOptions& options);

}  // namespace tfcc::graph::passes
