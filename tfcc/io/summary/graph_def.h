// GraphDef: the graph TensorBoard's Graphs tab draws, as plain structs that serialise to
// TensorFlow's protobuf bytes (formats.md §1.9). Node names use '/' for name scopes (collapsible
// groups), inputs are "node", "node:1" (second output) or "^node" (control dependency), and the
// "_output_shapes" attribute labels the edges with tensor shapes.
//
//   tfcc::summary::GraphDef g;
//   g.node.push_back({.name = "x", .op = "Placeholder",
//                     .attr = {{"dtype",
//                     tfcc::summary::AttrValue::type_of(tfcc::summary::kDtFloat)}}});
//   g.node.push_back({.name = "dense/MatMul", .op = "MatMul", .input = {"x", "dense/kernel"}});
//   tfcc::summary::graph(g);   // with a default writer: Event.graph_def, for the Graphs tab
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tfcc::summary {

/// tensorflow.TensorShapeProto as an attribute value; -1 is an unknown dimension.
struct ShapeAttr {
  std::vector<int64_t> dims;
  bool unknown_rank = false;
};

/// tensorflow.AttrValue (the kinds graphs use).
struct AttrValue {
  /// Which field is set.
  enum class Kind {
    kString,
    kInt,
    kFloat,
    kBool,
    kType,
    kShape,
    kStringList,
    kIntList,
    kFloatList,
    kTypeList,
    kShapeList
  };
  Kind kind = Kind::kString;
  std::string s;
  int64_t i = 0;
  float f = 0;
  bool b = false;
  /// A DataType enum value (ProtoDType in event.h).
  int type = 0;
  ShapeAttr shape;
  std::vector<std::string> strings;
  std::vector<int64_t> ints;
  std::vector<float> floats;
  std::vector<int> types;
  std::vector<ShapeAttr> shapes;

  static AttrValue string(std::string v);
  static AttrValue integer(int64_t v);
  static AttrValue floating(float v);
  static AttrValue boolean(bool v);
  static AttrValue type_of(int dtype);
  static AttrValue shape_of(ShapeAttr v);
  static AttrValue string_list(std::vector<std::string> v);
  static AttrValue int_list(std::vector<int64_t> v);
  static AttrValue float_list(std::vector<float> v);
  static AttrValue type_list(std::vector<int> v);
  /// A list of shapes, e.g. "_output_shapes".
  static AttrValue shape_list(std::vector<ShapeAttr> v);

  std::string serialize() const;
  static AttrValue parse(std::string_view bytes);
};

/// tensorflow.NodeDef.
struct NodeDef {
  std::string name;
  std::string op;
  std::vector<std::string> input;
  std::string device;
  /// Attributes by name; written sorted by name, as TensorFlow's deterministic serialisation.
  std::map<std::string, AttrValue> attr;

  std::string serialize() const;
  static NodeDef parse(std::string_view bytes);
};

/// tensorflow.GraphDef (nodes and the producer version).
struct GraphDef {
  std::vector<NodeDef> node;
  /// VersionDef.producer; 0 leaves the versions message out.
  int producer = 0;

  std::string serialize() const;
  static GraphDef parse(std::string_view bytes);
};

/// Writes `graph` to the default writer as Event.graph_def at step 0 (tf.summary.graph). Returns
/// false, doing nothing, without a default writer or when record_if() is off.
bool graph(const GraphDef& graph);

}  // namespace tfcc::summary
