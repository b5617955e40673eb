// GraphDef: the graph TensorBoard's Graphs tab draws, as TensorFlow's own message (the class
// generated from tfcc/io/proto/graph.proto; formats.md §1.9). Node names use '/' for name scopes
// (collapsible groups), inputs are "node", "node:1" (second output) or "^node" (control
// dependency), and the "_output_shapes" attribute labels the edges with tensor shapes. The class
// is only declared here, so that tfcc.h does not pull protobuf's headers into every program;
// code that builds or reads a GraphDef includes "tfcc/io/proto/graph.pb.h".
//
//   #include "tfcc/io/proto/graph.pb.h"
//   tfcc::summary::GraphDef g;
//   tfcc::summary::NodeDef* x = g.add_node();
//   x->set_name("x");
//   x->set_op("Placeholder");
//   (*x->mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
//   tfcc::summary::graph(g);   // with a default writer: Event.graph_def, for the Graphs tab
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

namespace tensorflow {
class GraphDef;
class NodeDef;
}  // namespace tensorflow

namespace tfcc::summary {

/// tensorflow.GraphDef.
using GraphDef = ::tensorflow::GraphDef;
/// tensorflow.NodeDef.
using NodeDef = ::tensorflow::NodeDef;

/// Writes `graph` to the default writer as Event.graph_def at step 0 (tf.summary.graph), its
/// bytes deterministic (attributes sorted by name). Returns false, doing nothing, without a
/// default writer or when record_if() is off.
bool graph(const GraphDef& graph);

}  // namespace tfcc::summary
#pragma GCC visibility pop
