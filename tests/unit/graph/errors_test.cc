// Graph-mode errors: each names the user's line and says what to do.
#include <gtest/gtest.h>

#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(GraphErrorsTest, SymbolicToBoolNamesUserLineAndSaysUseCond) {
  auto f = function([](Tensor x) {
    if (x.item<float>() > 0) return x;
    return -x;
  });
  int expected_line = __LINE__ - 3;
  try {
    f(constant(1.f));
    FAIL();
  } catch (const FailedPreconditionError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find(internal::str_cat("errors_test.cc:", expected_line)), std::string::npos) << m;
    EXPECT_NE(m.find("tfcc::cond"), std::string::npos) << m;
    EXPECT_NE(m.find("trace of function 'function'"), std::string::npos) << m;
  }
}

TEST(GraphErrorsTest, TensorKeptPastItsTrace) {
  Tensor kept;
  auto f = function(
      [&](Tensor x) {
        Tensor y = multiply(x, 2.0f);  // (operators record operators.h: C++ operators
        kept = y;  // cannot take a source_location argument)  // the seed's "don't keep tensors in
                   // your objects"
        return y;
      },
      {.name = "leaky"});
  int created_line = __LINE__ - 5;
  f(constant(1.f));
  ASSERT_TRUE(kept.is_symbolic());
  std::string m = message_of([&] { (void)(kept + 1.0f); });
  EXPECT_NE(m.find("trace of function 'leaky'"), std::string::npos) << m;
  EXPECT_NE(m.find(internal::str_cat("errors_test.cc:", created_line)), std::string::npos) << m;
  EXPECT_NE(m.find("return it from the function"), std::string::npos) << m;
  // Used in another trace: same story.
  auto g = function([&](Tensor x) { return x + kept; });
  m = message_of([&] { g(constant(1.f)); });
  EXPECT_NE(m.find("trace of function 'leaky', which has ended"), std::string::npos) << m;
}

TEST(GraphErrorsTest, RuntimeErrorNamesNodeAndUserLine) {
  auto f = function([](Tensor x, Tensor i) { return gather(x, i); }, {.name = "lookup"});
  int line = __LINE__ - 1;
  EXPECT_EQ(f(constant({1.f, 2.f}), constant(1)).item<float>(), 2.f);
  try {
    f(constant({1.f, 2.f}), constant(5));
    FAIL();
  } catch (const InvalidArgumentError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("node GatherV2"), std::string::npos) << m;
    EXPECT_NE(m.find(internal::str_cat("errors_test.cc:", line)), std::string::npos) << m;
    EXPECT_NE(m.find("in function 'lookup'"), std::string::npos) << m;
  }
}

TEST(GraphErrorsTest, ShapeErrorAtTraceTimeNamesLine) {
  auto f = function([](Tensor x) { return matmul(x, x); });
  int line = __LINE__ - 1;
  std::string m = message_of([&] { f(ones({2, 3})); });
  EXPECT_NE(m.find(internal::str_cat("errors_test.cc:", line)), std::string::npos) << m;
}

TEST(GraphErrorsTest, VariableCreationOnLaterTraceFails) {
  std::vector<Variable> made;
  auto f = function([&](Tensor x) {
    Variable v;
    {
      graph::InitScope init;  // initial values are computed eagerly, once
      v = Variable(zeros({1}), {.name = "counter"});
    }
    made.push_back(v);
    return x + v;
  });
  EXPECT_EQ(f(constant({1.f})).item<float>(), 1.f);  // first trace: allowed
  try {
    f(constant({1.f, 2.f}));  // retrace creates another variable
    FAIL();
  } catch (const FailedPreconditionError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("Variable 'counter'"), std::string::npos) << m;
    EXPECT_NE(m.find("first trace only"), std::string::npos) << m;
    EXPECT_NE(m.find("Create the variable once"), std::string::npos) << m;
  }
  // Creating it once and reusing it is fine on every trace.
  Variable once;
  auto g = function([&](Tensor x) {
    if (!once.defined()) {
      graph::InitScope init;
      once = Variable(ones({1}));
    }
    return x + once;
  });
  g(constant({1.f}));
  EXPECT_EQ(g(constant({1.f, 2.f})).to_vector<float>(), (std::vector<float>{2, 3}));
}

TEST(GraphErrorsTest, CapturedTensorOfSiblingIsRejected) {
  graph::TraceContext a("a");
  Tensor xa = a.add_arg(float32, PartialShape({}));
  graph::TraceContext b("b");
  ExecutionContextScope scope(&b);
  std::string m = message_of([&] { (void)(xa + 1.0f); });
  EXPECT_NE(m.find("does not enclose it"), std::string::npos) << m;
}

TEST(GraphErrorsTest, VerifierReportsProblems) {
  graph::Graph g("broken");
  g.add_arg(float32, PartialShape({}));
  graph::Node n;
  n.op = &op_def("AddV2");
  n.inputs = {{0, 0}, {5, 0}};
  n.dtypes = {float32};
  n.shapes = {PartialShape({})};
  n.attrs.set("T", float32);
  g.add_node(n);
  g.set_outputs({{1, 3}});
  std::vector<std::string> p = g.problems();
  ASSERT_EQ(p.size(), 2u);
  EXPECT_NE(p[0].find("input 1 does not refer to an earlier node"), std::string::npos) << p[0];
  EXPECT_NE(p[1].find("output 0 refers to no node output"), std::string::npos) << p[1];
  EXPECT_THROW(g.verify(), InternalError);
}

}  // namespace
}  // namespace tfcc
