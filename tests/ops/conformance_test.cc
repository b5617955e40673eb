// Runs every row of the op conformance table, and checks that every registered op has a row.
#include <gtest/gtest.h>

#include <set>

#include "tests/ops/harness.h"
#include "tfcc/ops/registry.h"

namespace tfcc::conformance {
namespace {

const std::vector<OpRow>& table() {
  static const std::vector<OpRow> rows = all_rows();
  return rows;
}

class Conformance : public ::testing::TestWithParam<size_t> {};

TEST_P(Conformance, ReferenceAndInvalidInputs) { run_row(table()[GetParam()]); }

TEST_P(Conformance, Float64Gradient) { run_gradient_check(table()[GetParam()]); }

TEST_P(Conformance, TracedParity) { run_traced_parity(table()[GetParam()]); }

TEST_P(Conformance, TracedFloat64Gradient) { run_traced_gradient_parity(table()[GetParam()]); }

std::string row_name(const ::testing::TestParamInfo<size_t>& info) {
  std::string n = table()[info.param].name;
  for (char& c : n) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return n + "_" + std::to_string(info.param);
}

INSTANTIATE_TEST_SUITE_P(Ops, Conformance, ::testing::Range<size_t>(0, table().size()), row_name);

TEST(ConformanceCoverage, EveryRegisteredOpHasARow) {
  std::set<std::string> covered;
  for (const OpRow& r : table()) covered.insert(r.ops.begin(), r.ops.end());
  std::vector<std::string> missing;
  for (const OpDef* op : OpRegistry::global().ops()) {
    if (!covered.count(op->name())) missing.push_back(op->name());
  }
  EXPECT_TRUE(missing.empty()) << "ops without a conformance row: "
                               << ::testing::PrintToString(missing);
}

TEST(ConformanceCoverage, EveryRowHasInvalidInputCases) {
  for (const OpRow& r : table()) {
    EXPECT_FALSE(r.invalid.empty()) << r.name << " has no invalid-input case";
  }
}

TEST(ConformanceCoverage, EveryDifferentiableOpIsGradientChecked) {
  std::set<std::string> checked;
  for (const OpRow& r : table()) {
    if (row_is_differentiable(r) || r.property_checks_gradient) {
      checked.insert(r.ops.begin(), r.ops.end());
    }
  }
  std::vector<std::string> missing;
  for (const OpDef* op : OpRegistry::global().ops()) {
    if (op->is_differentiable() && !checked.count(op->name())) missing.push_back(op->name());
  }
  EXPECT_TRUE(missing.empty()) << "differentiable ops without a gradient check: "
                               << ::testing::PrintToString(missing);
}

TEST(ConformanceCoverage, RowsNameRealOps) {
  for (const OpRow& r : table()) {
    for (const auto& op : r.ops) {
      EXPECT_NE(OpRegistry::global().find(op), nullptr) << r.name << " names unknown op " << op;
    }
  }
}

}  // namespace
}  // namespace tfcc::conformance
