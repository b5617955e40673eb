// In-place outputs (tfcc/ops/in_place.h): a kernel writes into an offered input's buffer only
// when its op declared the pair, the dtype and shape match, and nothing else shares the buffer.
#include "tfcc/ops/in_place.h"

#include <gtest/gtest.h>

#include <cstring>

#include "tfcc/ops/fused_elementwise/fused_elementwise.h"
#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

struct Result {
  std::vector<Tensor> out;
  uint64_t taken = 0;
};

// Runs `op` on `inputs` (moved in: the array is their only holder) offering `mask`.
Result run(const char* op_name, std::vector<Tensor> inputs, uint64_t mask, Attrs attrs = {}) {
  const OpDef& op = op_def(op_name);
  if (!attrs.has("T")) attrs.set("T", inputs[0].dtype());
  OpCall call{op, inputs, attrs, std::source_location::current()};
  DonatedInputs offer(inputs, mask);
  Result r;
  r.out = execute_eager(call);
  r.taken = offer.taken();
  return r;
}

Tensor values(std::vector<float> v, Shape s) { return Tensor::from_vector(v, s); }

TEST(InPlaceTest, Declarations) {
  EXPECT_TRUE(may_write_in_place(op_def("Relu"), 0, 0));
  EXPECT_TRUE(may_write_in_place(op_def("ReluGrad"), 0, 1));
  EXPECT_TRUE(may_write_in_place(op_def("AddN"), 0, 0));
  EXPECT_FALSE(may_write_in_place(op_def("AddN"), 0, 1));  // it copies input 0 first
  EXPECT_TRUE(may_write_in_place(op_def("_FusedElementwise"), 0, 5));
  EXPECT_FALSE(has_in_place_outputs(op_def("MatMul")));
  EXPECT_FALSE(has_in_place_outputs(op_def("Cast")));
}

TEST(InPlaceTest, KernelWritesIntoTheOfferedBuffer) {
  Tensor x = values({1, -2, 3, -4}, Shape{2, 2});
  const void* p = x.raw_data();
  std::vector<Tensor> in = {std::move(x)};
  Result r = run("Relu", std::move(in), 0b1);
  EXPECT_EQ(r.taken, uint64_t{1});
  EXPECT_EQ(r.out[0].raw_data(), p);
  EXPECT_EQ(r.out[0].to_vector<float>(), (std::vector<float>{1, 0, 3, 0}));
}

TEST(InPlaceTest, NothingOfferedNothingTaken) {
  Tensor x = values({1, -2}, Shape{2});
  const void* p = x.raw_data();
  Result r = run("Relu", {std::move(x)}, 0);
  EXPECT_EQ(r.taken, uint64_t{0});
  EXPECT_NE(r.out[0].raw_data(), p);
}

TEST(InPlaceTest, SharedBufferIsNotTaken) {
  Tensor x = values({1, -2, 3, -4}, Shape{4});
  Tensor view = reshape(x, {2, 2});  // a second holder of the bytes
  Result r = run("Relu", {x}, 0b1);
  EXPECT_EQ(r.taken, uint64_t{0});
  EXPECT_EQ(view.to_vector<float>(), (std::vector<float>{1, -2, 3, -4}));

  Variable v(values({5, -6}, Shape{2}), {.name = "v"});
  Result rv = run("Relu", {v.read_value()}, 0b1);
  EXPECT_EQ(rv.taken, uint64_t{0});
  EXPECT_EQ(v.read_value().to_vector<float>(), (std::vector<float>{5, -6}));
}

TEST(InPlaceTest, OnlyAnInputOfTheOutputsShapeIsTaken) {
  // y broadcasts against x: only x has the output's shape.
  Tensor x = values({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  Tensor y = values({10, 20, 30}, Shape{3});
  const void* px = x.raw_data();
  Result r = run("AddV2", {std::move(x), std::move(y)}, 0b11);
  EXPECT_EQ(r.taken, uint64_t{0b01});
  EXPECT_EQ(r.out[0].raw_data(), px);
  EXPECT_EQ(r.out[0].to_vector<float>(), (std::vector<float>{11, 22, 33, 14, 25, 36}));
}

TEST(InPlaceTest, SecondInputCanHoldTheOutput) {
  Tensor dy = values({1, 2, 3}, Shape{3});
  Tensor f = values({-1, 0.5f, 2}, Shape{3});
  const void* pf = f.raw_data();
  Result r = run("ReluGrad", {std::move(dy), std::move(f)}, 0b10);
  EXPECT_EQ(r.taken, uint64_t{0b10});
  EXPECT_EQ(r.out[0].raw_data(), pf);
  EXPECT_EQ(r.out[0].to_vector<float>(), (std::vector<float>{0, 2, 3}));
}

TEST(InPlaceTest, FusedElementwiseInPlaceMatchesOutOfPlace) {
  // exp(a) * b + a over more elements than one block, written over a and then not.
  const int64_t n = 5000;
  Tensor a = random::uniform({n}, -1, 1), b = random::uniform({n}, -1, 1);
  Tensor expected = exp(a) * b + a;
  // Program: %2 = Exp(%0); %3 = Mul(%2, %1); %4 = AddV2(%3, %0).
  using fused_elementwise::opcode;
  std::vector<int64_t> program = {opcode("Exp"), 0, -1, opcode("Mul"), 2, 1, opcode("AddV2"), 3, 0};
  Attrs attrs{{"program", program}};
  attrs.set("N", int64_t{2});
  attrs.set("expression", std::string());
  Tensor a_copy = Tensor::from_bytes(float32, a.shape(), a.raw_data(), a.nbytes());
  const void* pa = a_copy.raw_data();
  Result r = run("_FusedElementwise", {std::move(a_copy), b}, 0b01, attrs);
  EXPECT_EQ(r.taken, uint64_t{1});
  EXPECT_EQ(r.out[0].raw_data(), pa);
  EXPECT_EQ(std::memcmp(r.out[0].raw_data(), expected.raw_data(), expected.nbytes()), 0);
}

}  // namespace
}  // namespace tfcc
