// The one init that registers every op family (ARCHITECTURE.md, decision 1: explicit calls, no
// static registrars). Adding a family adds one line here.
#include "tfcc/ops/registry.h"

namespace tfcc {

void register_unary_ops(OpRegistry& r);
void register_binary_ops(OpRegistry& r);
void register_elementwise_ops(OpRegistry& r);
void register_reduction_ops(OpRegistry& r);
void register_array_ops(OpRegistry& r);
void register_creation_ops(OpRegistry& r);
void register_random_ops(OpRegistry& r);
void register_linalg_ops(OpRegistry& r);
void register_variable_ops(OpRegistry& r);
void register_conv_ops(OpRegistry& r);
void register_nn_ops(OpRegistry& r);
void register_pool_ops(OpRegistry& r);
void register_training_ops(OpRegistry& r);
void register_fused_elementwise_ops(OpRegistry& r);
void register_segment_ops(OpRegistry& r);
void register_sorting_ops(OpRegistry& r);
void register_manip_ops(OpRegistry& r);
void register_matrix_ops(OpRegistry& r);
void register_attention_ops(OpRegistry& r);
void register_conv3d_ops(OpRegistry& r);
void register_strings_ops(OpRegistry& r);

void register_all_ops(OpRegistry& r) {
  register_unary_ops(r);
  register_binary_ops(r);
  register_elementwise_ops(r);
  register_reduction_ops(r);
  register_array_ops(r);
  register_creation_ops(r);
  register_random_ops(r);
  register_linalg_ops(r);
  register_variable_ops(r);
  register_conv_ops(r);
  register_nn_ops(r);
  register_pool_ops(r);
  register_training_ops(r);
  register_fused_elementwise_ops(r);
  register_segment_ops(r);
  register_sorting_ops(r);
  register_manip_ops(r);
  register_matrix_ops(r);
  register_attention_ops(r);
  register_conv3d_ops(r);
  register_strings_ops(r);
}

}  // namespace tfcc
