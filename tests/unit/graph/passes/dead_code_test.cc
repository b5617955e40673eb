// dead_code_elimination: unused pure nodes go, side effects and arguments stay.
#include <gtest/gtest.h>

#include "tests/unit/graph/passes/pass_test_util.h"
#include "tfcc/graph/passes/passes.h"

namespace tfcc::graph {
namespace {

using testing::golden;
using testing::trace;

TEST(DeadCodeTest, RemovesUnusedPureNodes) {
  Graph g = trace(
      [](const std::vector<Tensor>& a) {
        Tensor unused = exp(a[0]);
        Tensor also_unused = unused * a[1];
        (void)also_unused;
        return std::vector<Tensor>{a[0] + a[1]};
      },
      {TensorSpec{PartialShape({3})}, TensorSpec{PartialShape({3})}});
  std::cout << golden(g);
  Graph out = run_pass("dead_code_elimination", g);
  std::cout << golden(out);
}

}  // namespace
}  // namespace tfcc::graph
