// The registry and the dispatch point: completeness, attribute checking, contexts, observers.
#include <gtest/gtest.h>

#include "tfcc/ops/registry.h"
#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

TEST(Registry, IsCompleteAndSorted) {
  auto& r = OpRegistry::global();
  EXPECT_TRUE(r.check().empty());
  auto ops = r.ops();
  EXPECT_GT(ops.size(), 10u);
  for (size_t i = 1; i < ops.size(); ++i) EXPECT_LT(ops[i - 1]->name(), ops[i]->name());
}

TEST(Registry, CheckReportsMissingPieces) {
  OpRegistry r;
  r.add("Incomplete").input("x", "T").output("y", "T").type_attr("T", {float32, int32});
  auto problems = r.check();
  std::string all;
  for (auto& p : problems) all += p + "\n";
  EXPECT_NE(all.find("no shape function"), std::string::npos);
  EXPECT_NE(all.find("no CPU kernel for T=float32"), std::string::npos);
  EXPECT_NE(all.find("neither a gradient rule nor a not_differentiable() mark"), std::string::npos);
  EXPECT_THROW(r.add("Incomplete"), AlreadyExistsError);
}

TEST(Registry, UnknownOpIsNotFound) { EXPECT_THROW(op_def("NoSuchOp"), NotFoundError); }

TEST(Dispatch, SeedExample) {
  auto z = constant(2) + constant(3);
  EXPECT_EQ(z.to_string(), "tf.Tensor(5, shape=(), dtype=int32)");
}

TEST(Dispatch, MixedDtypesIsTensorFlowsError) {
  try {
    add(constant({1.f, 2.f}), constant({1, 2}));
    FAIL();
  } catch (const InvalidArgumentError& e) {
    EXPECT_STREQ(e.what(),
                 "cannot compute AddV2 as input #1(zero-based) was expected to be a float32 "
                 "tensor but is a int32 tensor [Op:AddV2]");
  }
}

TEST(Dispatch, UnknownAndMistypedAttributes) {
  Tensor in[] = {constant({1.f})};
  EXPECT_THROW(dispatch(op_def("Neg"), in, {{"bogus", int64_t{1}}}), InvalidArgumentError);
  EXPECT_THROW(dispatch(op_def("Cast"), in, {{"DstT", int64_t{1}}}), InvalidArgumentError);
  EXPECT_THROW(dispatch(op_def("Cast"), in, {}), InvalidArgumentError);  // DstT required
}

TEST(Dispatch, WrongInputCountAndUndefinedInputs) {
  Tensor one[] = {constant({1.f})};
  EXPECT_THROW(dispatch(op_def("AddV2"), one, {}), InvalidArgumentError);
  Tensor undefined[] = {Tensor(), constant({1.f})};
  EXPECT_THROW(dispatch(op_def("AddV2"), undefined, {}), InvalidArgumentError);
}

TEST(Dispatch, ScalarAdoptsTensorDtype) {
  EXPECT_EQ((constant({1.5f}) * 2).dtype(), float32);
  EXPECT_EQ((constant({1.5}, float64) + 1).dtype(), float64);
  EXPECT_EQ((2 - constant({1, 2})).to_vector<int>(), (std::vector<int>{1, 0}));
  EXPECT_THROW(constant({1, 2}) + 2.5, InvalidArgumentError);
}

class RecordingObserver : public OpObserver {
 public:
  void record(const OpCall& call, std::span<const Tensor>) override {
    names.push_back(call.op.name());
  }
  std::vector<std::string> names;
};

TEST(Dispatch, ObserversSeeEveryCallUntilRemoved) {
  RecordingObserver obs;
  add_op_observer(&obs);
  auto x = constant({1.f, 2.f});
  auto y = exp(x) + x;
  {
    ObserverPause pause;
    (void)negative(y);
  }
  remove_op_observer(&obs);
  (void)negative(y);
  EXPECT_EQ(obs.names, (std::vector<std::string>{"Exp", "AddV2"}));
}

class ConstantContext : public ExecutionContext {
 public:
  std::vector<Tensor> execute(const OpCall& call) override {
    ++calls;
    return {Tensor::scalar<float>(42.f)};
    (void)call;
  }
  int calls = 0;
};

TEST(Dispatch, ContextDecidesExecution) {
  ConstantContext ctx;
  {
    ExecutionContextScope scope(&ctx);
    EXPECT_EQ(negative(constant(1.f)).item<float>(), 42.f);
  }
  EXPECT_EQ(ctx.calls, 1);
  EXPECT_EQ(negative(constant(1.f)).item<float>(), -1.f);
}

TEST(Dispatch, IntegerDivisionByZeroIsAnError) {
  EXPECT_THROW(floordiv(constant({1, 2}), constant({1, 0})), InvalidArgumentError);
  EXPECT_THROW(floormod(constant({1, 2}), 0), InvalidArgumentError);
  EXPECT_EQ(floordiv(constant({-7}), 2).item<int>(), -4);
  EXPECT_EQ(floordiv(constant({INT32_MIN}), -1).item<int>(), INT32_MIN);  // wraps, no trap
}

}  // namespace
}  // namespace tfcc
