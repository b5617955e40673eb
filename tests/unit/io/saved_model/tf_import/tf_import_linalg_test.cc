// The importer's rows for matrix, sorting and segment ops (ops_linalg.cc): each TensorFlow op,
// with its tensor arguments (k, num_segments, shifts, band widths) given as constants and its
// default attributes stripped, computes what the tfcc op computes.
#include <gtest/gtest.h>

#include "tests/unit/io/saved_model/tf_import/tf_model_builder.h"
#include "tfcc/io/saved_model/saved_model.h"
#include "tfcc/io/saved_model/tf_import/tf_import.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/linalg/linalg.h"
#include "tfcc/ops/manip/manip.h"
#include "tfcc/ops/matrix/matrix.h"
#include "tfcc/ops/segment/segment.h"
#include "tfcc/ops/sorting/sorting.h"

namespace tfcc::saved_model {
namespace {

using namespace tf_testing;  // NOLINT
using tensorflow::DT_INT32;

void expect_same(const Tensor& got, const Tensor& want, const std::string& what) {
  ASSERT_EQ(got.shape(), want.shape()) << what;
  const std::vector<double> g = got.to_vector<double>(), w = want.to_vector<double>();
  for (size_t i = 0; i < w.size(); ++i) EXPECT_NEAR(g[i], w[i], 1e-5) << what << " element " << i;
}

TEST(TfImportLinalgTest, RowsMatchTheirTfccOps) {
  Builder b;
  auto* g = b.graph()->mutable_node();
  auto int_const = [&](const std::string& name, std::vector<int32_t> v, std::vector<int64_t> d) {
    add_node(g, name, "Const", {},
             {{"dtype", type_attr(DT_INT32)}, {"value", int_tensor_attr(v, d)}});
  };
  int_const("k", {2}, {});
  int_const("ids", {0, 2, 0}, {3});
  int_const("nseg", {3}, {});
  int_const("shift", {1}, {1});
  int_const("axis", {1}, {1});
  int_const("lo", {0}, {});
  int_const("hi", {-1}, {});
  add_node(g, "tk", "TopKV2", {"x", "k"});
  add_node(g, "tki", "Cast", {"tk:1"},
           {{"SrcT", type_attr(DT_INT32)}, {"DstT", type_attr(tensorflow::DT_FLOAT)}});
  add_node(g, "seg", "UnsortedSegmentSum", {"x", "ids", "nseg"});
  add_node(g, "roll", "Roll", {"x", "shift", "axis"});
  add_node(g, "band", "MatrixBandPart", {"x", "lo", "hi"});
  add_node(g, "gram", "MatMul", {"x", "x"}, {{"transpose_b", [] {
                                                AttrValue a;
                                                a.set_b(true);
                                                return a;
                                              }()}});
  add_node(g, "chol", "Cholesky", {"gram"});
  add_node(g, "inv", "MatrixInverse", {"gram"});
  add_node(g, "det", "MatrixDeterminant", {"gram"});
  add_node(g, "svd", "Svd", {"x"});
  add_node(g, "eig", "SelfAdjointEigV2", {"gram"});
  add_node(g, "sol", "MatrixTriangularSolve", {"chol", "x"});
  b.signature("serving_default", {{"x", "x", {3, 3}}},
              {{"top_values", "tk:0"},
               {"top_indices", "tki:0"},
               {"seg", "seg:0"},
               {"roll", "roll:0"},
               {"band", "band:0"},
               {"chol", "chol:0"},
               {"inv", "inv:0"},
               {"det", "det:0"},
               {"s", "svd:0"},
               {"e", "eig:0"},
               {"sol", "sol:0"}});
  const std::string dir = temp_dir("linalg");
  b.write(dir);
  const Signature s = load(dir).signatures.at("serving_default");
  Tensor x = Tensor::from_vector<float>({2, 1, 0.5f, -1, 3, 0, 0.25f, 1, 4}, Shape{3, 3});
  auto out = s({{"x", x}});
  auto [tv, ti] = top_k(x, 2);
  expect_same(out.at("top_values"), tv, "TopKV2 values");
  expect_same(out.at("top_indices"), cast(ti, float32), "TopKV2 indices");
  expect_same(out.at("seg"), unsorted_segment_sum(x, Tensor::from_vector<int32_t>({0, 2, 0}), 3),
              "UnsortedSegmentSum");
  expect_same(out.at("roll"), roll(x, {1}, {1}), "Roll");
  expect_same(out.at("band"), linalg::band_part(x, 0, -1), "MatrixBandPart");
  const Tensor gram = matmul(x, x, false, true);
  expect_same(out.at("chol"), linalg::cholesky(gram), "Cholesky");
  expect_same(out.at("inv"), linalg::inv(gram), "MatrixInverse");
  expect_same(out.at("det"), linalg::det(gram), "MatrixDeterminant");
  expect_same(out.at("s"), std::get<0>(linalg::svd(x)), "Svd");
  expect_same(out.at("e"), linalg::eigh(gram).first, "SelfAdjointEigV2");
  expect_same(out.at("sol"), linalg::triangular_solve(linalg::cholesky(gram), x), "Solve");
}

}  // namespace
}  // namespace tfcc::saved_model
