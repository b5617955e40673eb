// The array family's gradient rules, called directly (the tape lives in another layer): each
// rule's result is compared with the adjoint computed by hand.
#include <gtest/gtest.h>

#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

std::vector<Tensor> grad_of(const char* op_name, std::vector<Tensor> inputs, const Attrs& attrs,
                            std::vector<Tensor> grads) {
  const OpDef& op = op_def(op_name);
  std::vector<Tensor> outputs = dispatch(op, inputs, attrs);
  // Dispatch completed the attributes; rebuild them the same way for the rule.
  Attrs full = attrs;
  for (const AttrDef& def : op.attrs()) {
    if (!full.has(def.name) && def.default_value) full.set(def.name, *def.default_value);
  }
  if (op.name() == "ConcatV2") full.set("N", static_cast<int64_t>(inputs.size()));
  GradContext g{op, inputs, outputs, full, grads};
  return op.gradient_fn()(g);
}

Tensor f(std::vector<float> v, Shape s) { return Tensor::from_vector(v, s); }

TEST(ArrayGrad, GatherWithBatchDims) {
  Tensor params = f({0, 0, 0, 0, 0, 0}, Shape{2, 3});
  Tensor idx = Tensor::from_vector<int32_t>({2, 2, 0, 1}, Shape{2, 2});
  auto g = grad_of("GatherV2", {params, idx}, {{"axis", int64_t{1}}, {"batch_dims", int64_t{1}}},
                   {f({1, 2, 3, 4}, Shape{2, 2})});
  EXPECT_EQ(g[0].to_vector<float>(), (std::vector<float>{0, 0, 3, 3, 4, 0}));
  EXPECT_FALSE(g[1].defined());
}

TEST(ArrayGrad, GatherAxis0) {
  Tensor params = f({0, 0, 0, 0, 0, 0}, Shape{3, 2});
  Tensor idx = Tensor::from_vector<int64_t>({2, 0, 2}, Shape{3});
  auto g = grad_of("GatherV2", {params, idx}, {}, {f({1, 2, 3, 4, 5, 6}, Shape{3, 2})});
  EXPECT_EQ(g[0].to_vector<float>(), (std::vector<float>{3, 4, 0, 0, 6, 8}));
}

TEST(ArrayGrad, StridedSlice) {
  Tensor x = f({0, 0, 0, 0, 0, 0}, Shape{2, 3});
  Attrs a{{"begin", std::vector<int64_t>{1, -1}},
          {"end", std::vector<int64_t>{2, 0}},
          {"strides", std::vector<int64_t>{1, -2}},
          {"shrink_axis_mask", int64_t{1}},
          {"end_mask", int64_t{2}}};
  auto g = grad_of("StridedSlice", {x}, a, {f({7, 8}, Shape{2})});
  EXPECT_EQ(g[0].shape(), (Shape{2, 3}));
  EXPECT_EQ(g[0].to_vector<float>(), (std::vector<float>{0, 0, 0, 8, 0, 7}));
}

TEST(ArrayGrad, SliceConcatTransposeReverse) {
  Tensor x = f({0, 0, 0, 0, 0, 0}, Shape{2, 3});
  auto gs = grad_of("Slice", {x},
                    {{"begin", std::vector<int64_t>{0, 1}}, {"size", std::vector<int64_t>{2, 1}}},
                    {f({5, 6}, Shape{2, 1})});
  EXPECT_EQ(gs[0].to_vector<float>(), (std::vector<float>{0, 5, 0, 0, 6, 0}));
  auto gc = grad_of("ConcatV2", {x, f({1, 2}, Shape{2, 1})}, {{"axis", int64_t{1}}},
                    {f({1, 2, 3, 4, 5, 6, 7, 8}, Shape{2, 4})});
  EXPECT_EQ(gc[0].to_vector<float>(), (std::vector<float>{1, 2, 3, 5, 6, 7}));
  EXPECT_EQ(gc[1].to_vector<float>(), (std::vector<float>{4, 8}));
  auto gt =
      grad_of("Transpose", {f({0, 0, 0, 0, 0, 0}, Shape{1, 2, 3})},
              {{"perm", std::vector<int64_t>{2, 0, 1}}}, {f({1, 2, 3, 4, 5, 6}, Shape{3, 1, 2})});
  EXPECT_EQ(gt[0].shape(), (Shape{1, 2, 3}));
  EXPECT_EQ(gt[0].to_vector<float>(), (std::vector<float>{1, 3, 5, 2, 4, 6}));
  auto gr = grad_of("ReverseV2", {x}, {{"axis", std::vector<int64_t>{1}}},
                    {f({1, 2, 3, 4, 5, 6}, Shape{2, 3})});
  EXPECT_EQ(gr[0].to_vector<float>(), (std::vector<float>{3, 2, 1, 6, 5, 4}));
}

TEST(ArrayGrad, PadAndMirrorPad) {
  Tensor x = f({0, 0, 0}, Shape{3});
  auto gp = grad_of("Pad", {x}, {{"paddings", std::vector<int64_t>{1, 2}}},
                    {f({1, 2, 3, 4, 5, 6}, Shape{6})});
  EXPECT_EQ(gp[0].to_vector<float>(), (std::vector<float>{2, 3, 4}));
  // REFLECT [a b c] -> [b a b c b]: d a = 2, d b = 1 + 3 + 5, d c = 4.
  auto gm = grad_of("MirrorPad", {x},
                    {{"paddings", std::vector<int64_t>{1, 1}}, {"mode", std::string("REFLECT")}},
                    {f({1, 2, 3, 4, 5}, Shape{5})});
  EXPECT_EQ(gm[0].to_vector<float>(), (std::vector<float>{2, 9, 4}));
}

TEST(ArrayGrad, GatherNdScatterNd) {
  Tensor params = f({0, 0, 0, 0}, Shape{2, 2});
  Tensor idx = Tensor::from_vector<int32_t>({1, 0, 1, 0}, Shape{2, 2});
  auto g = grad_of("GatherNd", {params, idx}, {}, {f({3, 4}, Shape{2})});
  EXPECT_EQ(g[0].to_vector<float>(), (std::vector<float>{0, 0, 7, 0}));
  auto gs = grad_of("ScatterNd", {idx, f({3, 4}, Shape{2})},
                    {{"shape", std::vector<int64_t>{2, 2}}}, {f({1, 2, 3, 4}, Shape{2, 2})});
  EXPECT_FALSE(gs[0].defined());
  EXPECT_EQ(gs[1].to_vector<float>(), (std::vector<float>{3, 3}));
}

TEST(ArrayGrad, SplitAndUnpackAndReshape) {
  Tensor x = f({1, 2, 3, 4}, Shape{4});
  auto gs = grad_of("Split", {x}, {{"num_split", int64_t{2}}},
                    {f({5, 6}, Shape{2}), f({7, 8}, Shape{2})});
  EXPECT_EQ(gs[0].to_vector<float>(), (std::vector<float>{5, 6, 7, 8}));
  auto gr = grad_of("Reshape", {x}, {{"shape", std::vector<int64_t>{2, 2}}},
                    {f({1, 2, 3, 4}, Shape{2, 2})});
  EXPECT_EQ(gr[0].shape(), (Shape{4}));
}

}  // namespace
}  // namespace tfcc
