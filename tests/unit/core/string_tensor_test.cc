// String tensors (dtype tfcc::string): construction, element access, TensorFlow's print form,
// storage lifetime, and the typed error every numeric-only path gives.
#include <gtest/gtest.h>

#include "tfcc/core/tensor.h"

namespace tfcc {
namespace {

TEST(StringTensor, FromStringsAndBack) {
  Tensor t = Tensor::from_strings({"ab", "", "c\0d"}, Shape{3});
  EXPECT_EQ(t.dtype(), string);
  EXPECT_EQ(dtype_name(t.dtype()), "string");
  EXPECT_EQ(t.shape(), (Shape{3}));
  EXPECT_EQ(t.to_vector<std::string>(), (std::vector<std::string>{"ab", "", "c"}));
  Tensor m = Tensor::from_vector<std::string>({"a", "b", "c", "d"}, Shape{2, 2});
  EXPECT_EQ(m.to_vector<std::string_view>()[3], "d");
  EXPECT_EQ(Tensor::scalar(std::string("x")).item<std::string>(), "x");
  std::string with_nul("a\0b", 3);
  EXPECT_EQ(Tensor::from_strings({with_nul}).to_vector<std::string>()[0].size(), 3u);
}

TEST(StringTensor, PrintsLikeTensorFlow) {
  EXPECT_EQ(Tensor::from_strings({"ab", "c", "hello world"}).to_string(),
            "tf.Tensor([b'ab' b'c' b'hello world'], shape=(3,), dtype=string)");
  EXPECT_EQ(Tensor::from_strings({"ab", "c", "x\n'", "\xc3\xa9"}, Shape{2, 2}).to_string(),
            "tf.Tensor(\n[[b'ab' b'c']\n [b\"x\\n'\" b'\\xc3\\xa9']], shape=(2, 2), dtype=string)");
  EXPECT_EQ(Tensor::scalar(std::string("it's")).to_string(),
            "tf.Tensor(b\"it's\", shape=(), dtype=string)");
  EXPECT_EQ(Tensor::scalar(std::string("\x00\x7f\\", 3)).to_string(),
            "tf.Tensor(b'\\x00\\x7f\\\\', shape=(), dtype=string)");
  EXPECT_EQ(Tensor::from_strings({}, Shape{0}).to_string(),
            "tf.Tensor([], shape=(0,), dtype=string)");
}

TEST(StringTensor, EmptyIsEmptyStrings) {
  Tensor t = Tensor::empty(string, Shape{2});
  EXPECT_EQ(t.to_vector<std::string>(), (std::vector<std::string>{"", ""}));
}

TEST(StringTensor, StorageOutlivesTheSourceVector) {
  Tensor t;
  {
    std::vector<std::string> v = {std::string(100, 'x'), "y"};
    t = Tensor::from_strings(v);
  }
  // A tensor sharing the buffer (reshape) keeps the storage; so does a copy of the owners.
  Tensor r = Tensor::with_buffer(string, Shape{2, 1}, t.buffer());
  t = Tensor();
  EXPECT_EQ(r.to_vector<std::string>()[0], std::string(100, 'x'));
  Tensor copy = Tensor::empty(string, Shape{1});
  std::memcpy(copy.mutable_raw_data(), static_cast<const char*>(r.raw_data()) + 8, 8);
  copy.buffer()->add_owners_of(*r.buffer());
  r = Tensor();
  EXPECT_EQ(copy.item<std::string>(), "y");
}

TEST(StringTensor, NumericPathsThrowTypedErrors) {
  Tensor t = Tensor::from_strings({"1"});
  try {
    t.to_vector<float>();
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("does not support dtype string"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(t.item<int>(), InvalidArgumentError);
  EXPECT_THROW(t.data<float>(), InvalidArgumentError);
  EXPECT_THROW(Tensor::from_bytes(string, Shape{1}, "abcdefgh", 8), InvalidArgumentError);
  EXPECT_THROW(Tensor::from_vector<float>({1.f}).to_vector<std::string>(), InvalidArgumentError);
  EXPECT_THROW(visit_dtype(string, []<typename T>() { return 0; }), InvalidArgumentError);
  EXPECT_THROW(Tensor::from_strings({"a", "b"}, Shape{3}), InvalidArgumentError);
}

TEST(StringTensor, DTypeTraits) {
  EXPECT_EQ(dtype_size(string), sizeof(TString));
  EXPECT_FALSE(is_floating(string));
  EXPECT_FALSE(is_integer(string));
  static_assert(dtype_of<TString>() == DType::kString);
  EXPECT_EQ(TString{}.view(), "");
}

}  // namespace
}  // namespace tfcc
