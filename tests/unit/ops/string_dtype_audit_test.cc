// The dtype audit: every registered op, called with string tensors for all of its inputs, either
// runs or throws a typed tfcc error; ops that do not list string in any type attribute throw
// InvalidArgumentError "<op> does not support dtype string". Nothing may crash or read a string
// handle as a number.
#include <gtest/gtest.h>

#include "tfcc/ops/registry.h"
#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

bool accepts_strings(const OpDef& op) {
  for (const AttrDef& a : op.attrs()) {
    for (DType t : a.allowed) {
      if (t == string) return true;
    }
  }
  for (const ArgDef& in : op.inputs()) {
    if (in.fixed && *in.fixed == string) return true;
  }
  return false;
}

TEST(StringDTypeAudit, EveryOpRunsOrThrowsTheTypedError) {
  std::vector<std::string> problems;
  int accepted = 0, rejected = 0;
  for (const OpDef* op : OpRegistry::global().ops()) {
    if (op->inputs().empty()) continue;
    std::vector<Tensor> inputs;
    for (const ArgDef& arg : op->inputs()) {
      for (int k = 0; k < (arg.variadic ? 2 : 1); ++k) {
        inputs.push_back(Tensor::from_strings({"1", "2"}));
      }
    }
    const bool takes = accepts_strings(*op);
    try {
      dispatch(*op, inputs, {});
      ++accepted;
    } catch (const InvalidArgumentError& e) {
      const bool named =
          std::string(e.what()).find("does not support dtype string") != std::string::npos;
      if (named) ++rejected;
      if (!named && !takes) problems.push_back(op->name() + ": " + e.what());
    } catch (const Error& e) {
      if (!takes) problems.push_back(op->name() + " (not InvalidArgumentError): " + e.what());
    } catch (const std::exception& e) {
      problems.push_back(op->name() + " threw a non-tfcc exception: " + e.what());
    }
  }
  std::string all;
  for (const std::string& p : problems) all += p + "\n";
  EXPECT_TRUE(problems.empty()) << all;
  EXPECT_GT(rejected, 100);  // the numeric ops
  EXPECT_GT(accepted, 5);    // reshape-like ops and string ops that need no attributes
}

TEST(StringDTypeAudit, StringOpsAreNotDifferentiable) {
  for (const char* name : {"StringLower", "StaticRegexReplace", "StringSplitV2", "StringJoin",
                           "StringToNumber", "AsString", "StringToHashBucketFast"}) {
    EXPECT_FALSE(op_def(name).is_differentiable()) << name;
    EXPECT_TRUE(op_def(name).marked_not_differentiable()) << name;
  }
}

TEST(StringDTypeAudit, StringsTraceThroughFunctions) {
  auto f = function([](Tensor x) { return strings::upper(reshape(x, {2, 1})); });
  Tensor out = f(Tensor::from_strings({"ab", "c"}));
  EXPECT_EQ(out.shape(), (Shape{2, 1}));
  EXPECT_EQ(out.to_vector<std::string>(), (std::vector<std::string>{"AB", "C"}));
}

}  // namespace
}  // namespace tfcc
