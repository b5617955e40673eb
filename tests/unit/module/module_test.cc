// tfcc::Module: tracking, order, deduplication, trainability and name scopes.
#include "tfcc/module/module.h"

#include <gtest/gtest.h>

#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

class Affine : public Module {
 public:
  Affine(int64_t in, int64_t out, std::string name = "affine") : Module(std::move(name)) {
    auto scope = name_scope();
    w = add_variable("w", ones({in, out}));
    b = add_variable("b", zeros({out}));
  }
  Tensor operator()(const Tensor& x) const { return matmul(x, w) + b; }
  Variable w, b;
};

class Mlp : public Module {
 public:
  Mlp() : Module("mlp") {
    auto scope = name_scope();
    l1 = track_module(std::make_shared<Affine>(2, 3, "l1"));
    l2 = track_module(Affine(3, 1, "l2"));
    steps = add_variable("steps", constant(0), /*trainable=*/false);
  }
  std::shared_ptr<Affine> l1, l2;
  Variable steps;
};

std::vector<std::string> names(const std::vector<Variable>& vs) {
  std::vector<std::string> out;
  for (auto& v : vs) out.push_back(v.name());
  return out;
}

TEST(Module, OwnVariablesFirstThenChildrenInRegistrationOrder) {
  Mlp m;
  EXPECT_EQ(names(m.variables()), (std::vector<std::string>{"mlp/steps", "mlp/l1/w", "mlp/l1/b",
                                                            "mlp/l2/w", "mlp/l2/b"}));
  EXPECT_EQ(names(m.trainable_variables()),
            (std::vector<std::string>{"mlp/l1/w", "mlp/l1/b", "mlp/l2/w", "mlp/l2/b"}));
  EXPECT_EQ(names(m.non_trainable_variables()), (std::vector<std::string>{"mlp/steps"}));
  auto subs = m.submodules();
  ASSERT_EQ(subs.size(), 2u);
  EXPECT_EQ(subs[0].get(), m.l1.get());
  EXPECT_EQ(subs[1].get(), m.l2.get());
}

TEST(Module, NamedVariablesUseKeyPaths) {
  Mlp m;
  auto named = m.named_variables();
  ASSERT_EQ(named.size(), 5u);
  EXPECT_EQ(named[0].first, "steps");
  EXPECT_EQ(named[1].first, "l1/w");
  EXPECT_EQ(named[4].first, "l2/b");
}

TEST(Module, SharedChildIsListedOnce) {
  struct Twice : Module {
    Twice() : Module("twice") {
      auto a = std::make_shared<Affine>(1, 1);
      track_module(a, "first");
      track_module(a, "second");
    }
  } t;
  EXPECT_EQ(t.variables().size(), 2u);
  EXPECT_EQ(t.submodules().size(), 1u);
}

TEST(Module, GrandchildrenComeAfterChildren) {
  struct Outer : Module {
    Outer() : Module("outer") {
      inner = track_module(Mlp());
      leaf = track_module(Affine(1, 1, "leaf"));
    }
    std::shared_ptr<Mlp> inner;
    std::shared_ptr<Affine> leaf;
  } o;
  auto subs = o.submodules();
  ASSERT_EQ(subs.size(), 4u);
  EXPECT_EQ(subs[0]->name(), "mlp");
  EXPECT_EQ(subs[1]->name(), "leaf");
  EXPECT_EQ(subs[2]->name(), "l1");
  EXPECT_EQ(subs[3]->name(), "l2");
}

TEST(Module, NonTrainableModuleFreezesDescendants) {
  struct Frozen : Module {
    Frozen() : Module("frozen") { track_module(Affine(1, 1)); }
    bool trainable() const override { return false; }
  } f;
  EXPECT_TRUE(f.trainable_variables().empty());
  EXPECT_EQ(f.non_trainable_variables().size(), 2u);
}

TEST(Module, CyclesAreRejected) {
  struct Node : Module {
    Node() : Module("node") {}
    void add(std::shared_ptr<Module> m) { track_module(std::move(m)); }
  };
  auto a = std::make_shared<Node>();
  auto b = std::make_shared<Node>();
  a->add(b);
  EXPECT_THROW(b->add(a), InvalidArgumentError);
  EXPECT_THROW(a->add(nullptr), InvalidArgumentError);
}

TEST(Module, GradientsFlowToTrackedVariables) {
  Mlp m;
  auto x = constant({{1.f, 2.f}});
  GradientTape tape;
  auto y = reduce_sum((*m.l2)((*m.l1)(x)));
  auto grads = tape.gradient(y, m.trainable_variables());
  ASSERT_EQ(grads.size(), 4u);
  // d/db2 = 1; d/dW2 = h = x W1 + b1 = [3, 3, 3].
  EXPECT_EQ(grads[3].to_vector<float>(), (std::vector<float>{1.f}));
  EXPECT_EQ(grads[2].to_vector<float>(), (std::vector<float>{3.f, 3.f, 3.f}));
}

TEST(NameScope, NestsAndRestores) {
  EXPECT_EQ(current_name_scope(), "");
  {
    NameScope a("a");
    NameScope b("b/");
    EXPECT_EQ(scoped_name("v"), "a/b/v");
  }
  EXPECT_EQ(current_name_scope(), "");
}

}  // namespace
}  // namespace tfcc
