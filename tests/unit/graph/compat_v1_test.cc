// tfcc::compat::v1: eager disabled, ops build the default graph, Session runs fetches with feeds.
#include <gtest/gtest.h>

#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

namespace v1 = compat::v1;

class CompatV1Test : public ::testing::Test {
 protected:
  void TearDown() override {
    v1::enable_eager_execution();
    v1::reset_default_graph();
  }
};

TEST_F(CompatV1Test, SeedProgram) {
  v1::disable_eager_execution();
  EXPECT_FALSE(v1::executing_eagerly());
  Tensor x = constant(2);
  Tensor y = constant(3);
  Tensor z = add(x, y);
  EXPECT_TRUE(z.is_symbolic());
  v1::Session sess;
  Tensor out = sess.run(z);
  EXPECT_FALSE(out.is_symbolic());
  EXPECT_EQ(out.item<int>(), 5);
  EXPECT_NE(v1::get_default_graph().to_string().find("AddV2"), std::string::npos);
  v1::enable_eager_execution();
  EXPECT_TRUE(v1::executing_eagerly());
  EXPECT_FALSE(add(constant(1), constant(1)).is_symbolic());
}

TEST_F(CompatV1Test, PlaceholdersAndFeeds) {
  v1::disable_eager_execution();
  Tensor a = v1::placeholder(float32, PartialShape({-1}), "a");
  Tensor b = v1::placeholder(float32, PartialShape({}), "b");
  Tensor c = a * b + 1.0f;
  Tensor unused = v1::placeholder(float32, PartialShape({}), "unused");
  (void)unused;
  v1::Session sess;
  std::vector<Tensor> out = sess.run({c, a}, {{a, constant({1.f, 2.f, 3.f})}, {b, constant(2.f)}});
  EXPECT_EQ(out[0].to_vector<float>(), (std::vector<float>{3, 5, 7}));
  EXPECT_EQ(out[1].to_vector<float>(), (std::vector<float>{1, 2, 3}));
  // Another feed, same graph.
  EXPECT_EQ(sess.run(c, {{a, constant({0.f})}, {b, constant(5.f)}}).to_vector<float>(),
            (std::vector<float>{1}));
  // Feeding an intermediate tensor overrides it.
  Tensor ab = a * b;
  Tensor d = ab + 10.0f;
  EXPECT_EQ(sess.run(d, {{ab, constant({1.f})}}).to_vector<float>(), (std::vector<float>{11}));
  // Missing feed.
  try {
    sess.run(c, {{a, constant({1.f})}});
    FAIL();
  } catch (const InvalidArgumentError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("You must feed a value for placeholder tensor 'b'"), std::string::npos) << m;
  }
  // Wrong feed shape / dtype.
  EXPECT_THROW(sess.run(c, {{a, constant({{1.f}})}, {b, constant(1.f)}}), InvalidArgumentError);
  EXPECT_THROW(sess.run(c, {{a, constant({1})}, {b, constant(1.f)}}), InvalidArgumentError);
}

TEST_F(CompatV1Test, VariablesAndControlFlowInGraphs) {
  Variable v(constant(1.f));
  v1::disable_eager_execution();
  Tensor x = v1::placeholder(float32, PartialShape({}), "x");
  Tensor step = v.assign_add(x);
  Tensor y = cond(
      x > 0.0f, [&] { return x * 10.0f; }, [&] { return -x; });
  v1::Session sess;
  sess.run(step, {{x, constant(2.f)}});
  sess.run(step, {{x, constant(3.f)}});
  EXPECT_EQ(sess.run(y, {{x, constant(2.f)}}).item<float>(), 20.f);
  EXPECT_EQ(sess.run(y, {{x, constant(-2.f)}}).item<float>(), 2.f);
  v1::enable_eager_execution();
  EXPECT_EQ(v.read_value().item<float>(), 6.f);
}

TEST_F(CompatV1Test, GraphAsDefaultAndForeignTensors) {
  v1::Graph g;
  Tensor z;
  {
    auto scope = g.as_default();
    z = multiply(constant(3.f), constant(4.f));
  }
  EXPECT_TRUE(z.is_symbolic());
  v1::Session sess(g);
  EXPECT_EQ(sess.run(z).item<float>(), 12.f);
  v1::Session other;  // the default graph does not hold z
  EXPECT_THROW(other.run(z), InvalidArgumentError);
  EXPECT_THROW(sess.run(constant(1.f)), InvalidArgumentError);
  EXPECT_THROW(v1::placeholder(float32), FailedPreconditionError);  // eager
}

}  // namespace
}  // namespace tfcc
