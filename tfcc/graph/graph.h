// Graph mode in one include: tfcc::function, ConcreteFunction, TensorSpec, tfcc::print,
// tfcc::config::run_functions_eagerly, and the graph IR they produce.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include "tfcc/graph/compat/v1.h"
#include "tfcc/graph/exec/executor.h"
#include "tfcc/graph/ir/graph.h"
#include "tfcc/graph/passes/pass_manager.h"
#include "tfcc/graph/trace/concrete_function.h"
#include "tfcc/graph/trace/config.h"
#include "tfcc/graph/trace/function.h"
#include "tfcc/graph/trace/nest.h"
#include "tfcc/graph/trace/print.h"
#include "tfcc/graph/trace/tensor_spec.h"
#include "tfcc/graph/trace/trace_context.h"
#pragma GCC visibility pop
