// Assembles the conformance table from each family's rows.
#include "tests/ops/harness.h"

namespace tfcc::conformance {

std::vector<OpRow> unary_rows();
std::vector<OpRow> binary_rows();
std::vector<OpRow> elementwise_rows();
std::vector<OpRow> reduction_rows();
std::vector<OpRow> array_rows();
std::vector<OpRow> creation_rows();
std::vector<OpRow> random_rows();
std::vector<OpRow> linalg_rows();
std::vector<OpRow> variable_rows();
std::vector<OpRow> conv_rows();
std::vector<OpRow> pool_rows();
std::vector<OpRow> conv_fused_rows();
std::vector<OpRow> nn_rows();
std::vector<OpRow> training_rows();
std::vector<OpRow> fused_elementwise_rows();
std::vector<OpRow> sorting_rows();
std::vector<OpRow> segment_rows();
std::vector<OpRow> manip_rows();
std::vector<OpRow> matrix_rows();
std::vector<OpRow> einsum_family_rows();
std::vector<OpRow> attention_rows();
std::vector<OpRow> conv3d_rows();
std::vector<OpRow> pool3d_rows();
std::vector<OpRow> strings_rows();

// One line per family, so adding one is a one-line change.
std::vector<OpRow> all_rows() {
  std::vector<OpRow> rows;
  for (auto family : {
           unary_rows,     binary_rows,        elementwise_rows,
           reduction_rows, array_rows,         creation_rows,
           random_rows,    linalg_rows,        variable_rows,
           conv_rows,      pool_rows,          conv_fused_rows,
           nn_rows,        training_rows,      fused_elementwise_rows,
           sorting_rows,   segment_rows,       manip_rows,
           matrix_rows,    einsum_family_rows, attention_rows,
           conv3d_rows,    pool3d_rows,        strings_rows,
       }) {
    for (auto& r : family()) rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace tfcc::conformance
