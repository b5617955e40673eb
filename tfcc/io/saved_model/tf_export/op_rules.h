// Helpers the op table's rules are written with (op_table.cc, op_table_inputs.cc). Internal to
// the exporter.
#pragma once

#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tfcc/io/saved_model/tf_export/op_table.h"

namespace tfcc::saved_model::tf_export::rules {

using RuleMap = std::map<std::string, OpRule, std::less<>>;

/// Adds a node of op `tf_op` named after the tfcc node, with `inputs`.
tensorflow::NodeDef& emit(OpContext& c, const std::string& tf_op, std::vector<std::string> inputs);
/// Copies every attribute of the tfcc node, renamed by `renames` (tfcc name -> TF name), except
/// those listed in `skip`.
void copy_attrs(OpContext& c, tensorflow::NodeDef& n,
                std::initializer_list<std::pair<const char*, const char*>> renames = {},
                std::initializer_list<const char*> skip = {});
/// Sets attribute `name` of `n` to the tfcc node's attribute `from`.
void copy_attr(OpContext& c, tensorflow::NodeDef& n, const char* from, const char* name);
/// The tfcc node's attribute as T.
template <typename T>
const T& attr(const OpContext& c, std::string_view name) {
  return c.node.attrs.get<T>(name);
}
/// References to outputs `out_arg:0..count-1`.
std::vector<std::string> outputs(const tensorflow::NodeDef& n, const std::string& out_arg,
                                 int count = 1);

/// A rule for an op whose inputs and attributes TensorFlow shares: the same op (or `tf_op`),
/// every attribute copied, outputs named `out_args` (one per tfcc output).
OpRule same(std::vector<std::string> out_args, std::string tf_op = "");

/// Adds the rules of ops whose attributes become input tensors in TensorFlow.
void add_input_rules(RuleMap& rules);
/// Adds the rules of the variable ops.
void add_variable_rules(RuleMap& rules);
/// Adds the rule of the fused attention op (written as TensorFlow's unfused ops).
void add_attention_rules(RuleMap& rules);

}  // namespace tfcc::saved_model::tf_export::rules
