// tf.summary.trace_on / trace_export: records the graphs of the traced functions that run while
// tracing is on, then writes them for TensorBoard's Graphs tab.
//
//   auto f = tfcc::function([&](tfcc::Tensor x) { return tfcc::matmul(x, w) + b; });
//   auto writer = tfcc::summary::create_file_writer("/tmp/logs/func");
//   tfcc::summary::trace_on(/*graph=*/true);
//   f(x);                                              // its graph is recorded
//   {
//     auto scope = writer.as_default();
//     tfcc::summary::trace_export("my_func_trace", 0);  // written; tracing stops
//   }
//
// As in TensorFlow, the graphs go out as one summary tagged `name`: a string tensor holding a
// serialized RunMetadata whose function_graphs carry each graph as pre_optimization_graph, with
// plugin "graph_run_metadata_graph" (what TensorBoard's Graphs tab shows under that tag). Graphs
// of functions that run while tracing is on are recorded once each, process-wide; functions
// inlined into another trace are part of their caller's graph.
//
// Profiling (profiler=true in TensorFlow: op timings for the Profile tab) is not implemented:
// trace_on(graph, /*profiler=*/true) logs a warning and records graphs only.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <string>

#include "tfcc/io/summary/graph_def.h"
#include "tfcc/io/summary/summary_writer.h"

namespace tfcc::summary {

/// Starts recording the graphs of the functions that run (tf.summary.trace_on). A warning and
/// nothing else if tracing is already on or if called inside a traced function.
void trace_on(bool graph = true, bool profiler = false);

/// Writes what was recorded since trace_on under tag `name` to the default writer and stops
/// tracing (tf.summary.trace_export). Returns false (and still stops) without a default writer.
/// FailedPreconditionError if tracing is off: "Must enable trace before export through
/// tfcc::summary::trace_on". `step` as in the other summaries. `profiler_outdir` is accepted for
/// TensorFlow's signature and unused (no profiler).
bool trace_export(const std::string& name, Step step = {}, const std::string& profiler_outdir = "");

/// Stops tracing and drops what was recorded (tf.summary.trace_off).
void trace_off();

/// The serialized RunMetadata of `graphs` (function_graphs[i].pre_optimization_graph).
std::string run_metadata_with_graphs(const std::vector<GraphDef>& graphs);

}  // namespace tfcc::summary
#pragma GCC visibility pop
