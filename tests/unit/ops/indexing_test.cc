// The C++ indexing syntax x(...) against the values NumPy / TensorFlow give for x[...].
#include <gtest/gtest.h>

#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

// x = np.arange(12).reshape(3, 4)
Tensor x34() {
  std::vector<float> v(12);
  for (int i = 0; i < 12; ++i) v[i] = static_cast<float>(i);
  return Tensor::from_vector(v, Shape{3, 4});
}

void expect(const Tensor& t, const Shape& shape, const std::vector<float>& values) {
  EXPECT_EQ(t.shape(), shape);
  EXPECT_EQ(t.to_vector<float>(), values);
}

TEST(Indexing, IntegerRemovesAxis) {
  expect(x34()(0), Shape{4}, {0, 1, 2, 3});      // x[0]
  expect(x34()(-1), Shape{4}, {8, 9, 10, 11});   // x[-1]
  expect(x34()(1, 2), Shape{}, {6});             // x[1, 2]
  expect(x34()(all, -1), Shape{3}, {3, 7, 11});  // x[:, -1]
}

TEST(Indexing, Slices) {
  expect(x34()(all, Slice(1, none)), Shape{3, 3}, {1, 2, 3, 5, 6, 7, 9, 10, 11});  // x[:, 1:]
  expect(x34()(Slice(none, 2), Slice(none, none, 2)), Shape{2, 2}, {0, 2, 4, 6});  // x[:2, ::2]
  expect(x34()(Slice(none, none, -1), 0), Shape{3}, {8, 4, 0});                    // x[::-1, 0]
  expect(x34()(1, Slice(3, 0, -2)), Shape{2}, {7, 5});                             // x[1, 3:0:-2]
  expect(x34()(Slice(-2, none), Slice(1, -1)), Shape{2, 2}, {5, 6, 9, 10});        // x[-2:, 1:-1]
  expect(x34()(Slice(5, 10)), Shape{0, 4}, {});                                    // x[5:10]
  expect(x34()(Slice(-100, 100), 3), Shape{3}, {3, 7, 11});                        // clamped
}

TEST(Indexing, EllipsisAndNewAxis) {
  expect(x34()(ellipsis, newaxis), Shape{3, 4, 1},
         {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});          // x[..., None]
  expect(x34()(newaxis, 2), Shape{1, 4}, {8, 9, 10, 11});  // x[None, 2]
  expect(x34()(ellipsis, 1), Shape{3}, {1, 5, 9});         // x[..., 1]
  expect(x34()(0, ellipsis, 1), Shape{}, {1});             // x[0, ..., 1]
  expect(x34()(all, newaxis, Slice(2, none)), Shape{3, 1, 2}, {2, 3, 6, 7, 10, 11});
  expect(x34()(), Shape{3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});  // x[()]
}

TEST(Indexing, ScalarTensor) {
  Tensor s = Tensor::scalar<float>(5);
  expect(s(newaxis), Shape{1}, {5});
  expect(s(ellipsis), Shape{}, {5});
}

TEST(Indexing, Errors) {
  EXPECT_THROW(x34()(3), InvalidArgumentError);  // index 3 of size 3
  EXPECT_THROW(x34()(-4), InvalidArgumentError);
  EXPECT_THROW(x34()(0, 0, 0), InvalidArgumentError);             // too many indices
  EXPECT_THROW(x34()(ellipsis, ellipsis), InvalidArgumentError);  // two ellipses
  EXPECT_THROW(x34()(Slice(0, 2, 0)), InvalidArgumentError);      // zero step
  try {
    x34()(all, 4);
    FAIL() << "expected an error";
  } catch (const InvalidArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("slice index 4 of dimension 1 out of bounds"),
              std::string::npos)
        << e.what();
  }
}

TEST(Indexing, IntAndBoolDtypes) {
  Tensor b = Tensor::from_vector<bool>({true, false, true, true}, Shape{2, 2});
  EXPECT_EQ(b(1, Slice(none, none, -1)).to_vector<bool>(), (std::vector<bool>{true, true}));
  Tensor i = Tensor::from_vector<int64_t>({1, 2, 3}, Shape{3});
  EXPECT_EQ(i(Slice(1, none)).to_vector<int64_t>(), (std::vector<int64_t>{2, 3}));
}

}  // namespace
}  // namespace tfcc
